/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_alt: another QOS for a waiting job (wait_alt.h).
 */
#include <string.h>

#include "wait_alt.h"

/* The QOS named NAME in D's QOS dump, or NULL. */
static const mf_wait_qos_t *_qos(const mf_wait_dump_t *d, const char *name)
{
	for (guint i = 0; name && i < d->qos->len; i++) {
		const mf_wait_qos_t *q = &g_array_index(d->qos, mf_wait_qos_t,
							i);

		if (!strcmp(q->name, name))
			return q;
	}
	return NULL;
}

/* Whether association A is the job's: its account, and no partition or
 * one of the job's. */
static bool _job_assoc(const mf_wait_dump_t *d, const mf_wait_assoc_t *a)
{
	const char *const *parts = d->job->partitions;

	if (strcmp(a->account, d->job->account) ||
	    (*a->user && strcmp(a->user, d->job->user)))
		return false;
	if (!*a->partition)
		return true;
	for (int i = 0; parts && parts[i]; i++)
		if (!strcmp(a->partition, parts[i]))
			return true;
	return false;
}

/* The rows of partition PART (interned) other than the job's into
 * *ROWS, and those ahead of the job at priority PRIO.  Returns them. */
static uint32_t _ahead_in(const mf_wait_t *w, const char *part, double prio,
			  uint32_t *rows)
{
	const GArray *a = w->d->sprio;
	uint32_t n = 0;

	*rows = 0;
	for (guint i = 0; i < a->len; i++) {
		const mf_wait_sprio_t *r = &g_array_index(a, mf_wait_sprio_t,
							  i);

		if (r->partition != part || r->job_id == w->d->job->job_id)
			continue;
		++*rows;
		if (r->priority > prio || (r->priority == prio &&
					   r->job_id < w->d->job->job_id))
			n++;
	}
	return n;
}

/* The jobs of the first partition's rows ahead of the job at priority
 * PRIO: -1 if the place is unknown. */
static int64_t _ahead_at(const mf_wait_t *w, double prio)
{
	uint32_t rows;

	if (!w->places->len || w->jobs_hidden)
		return -1;
	return _ahead_in(w, g_array_index(w->places, mf_wait_place_t,
					  0).mine->partition, prio, &rows);
}

static gint _by_gain(gconstpointer a, gconstpointer b)
{
	const mf_wait_qos_alt_t *x = a, *y = b;

	return (x->gain < y->gain) - (x->gain > y->gain);
}

void mf_wait_qos_alts(mf_wait_t *w)
{
	const mf_wait_dump_t *d = w->d;
	const mf_wait_qos_t *mine;
	double max = 0, prio;
	bool any = false;

	w->qos_alts = g_array_new(FALSE, TRUE, sizeof(mf_wait_qos_alt_t));
	w->qos_unknown = !d->assocs || !d->qos || !d->qos->len;
	if (w->qos_unknown)
		return;
	for (guint i = 0; i < d->qos->len; i++)
		if (g_array_index(d->qos, mf_wait_qos_t, i).priority > max)
			max = g_array_index(d->qos, mf_wait_qos_t, i).priority;
	mine = _qos(d, d->job->qos);
	prio = w->places->len ? g_array_index(w->places, mf_wait_place_t,
					      0).mine->priority : 0;
	for (guint i = 0; i < d->assocs->len; i++) {
		const mf_wait_assoc_t *a = d->assocs->pdata[i];

		if (!_job_assoc(d, a))
			continue;
		any = true;
		for (int k = 0; mine && max > 0 && a->qos[k]; k++) {
			mf_wait_qos_alt_t x = { .qos = _qos(d, a->qos[k]),
						.mine = mine, .qos_max = max };
			bool seen = false;

			if (!x.qos)
				continue;
			x.gain = d->weight_qos * (x.qos->priority -
						  mine->priority) / max;
			for (guint j = 0; j < w->qos_alts->len; j++)
				seen |= g_array_index(w->qos_alts,
					mf_wait_qos_alt_t, j).qos == x.qos;
			if (seen || x.gain < 1.0)
				continue;
			x.ahead = _ahead_at(w, prio + x.gain);
			g_array_append_val(w->qos_alts, x);
		}
	}
	/* the job's association or its QOS not in what the user sees */
	w->qos_unknown = !any || !mine;
	g_array_sort(w->qos_alts, _by_gain);
}

/* Whether NAME is in the comma list L; "ALL" holds every name.  NULL L:
 * DEFLT. */
static bool _in(const char *l, const char *name, bool deflt)
{
	char **v;
	bool r = false;

	if (!l)
		return deflt;
	if (!strcmp(l, "ALL"))
		return true;
	v = g_strsplit(l, ",", -1);
	for (int i = 0; name && v[i]; i++)
		r |= !strcmp(v[i], name);
	g_strfreev(v);
	return r;
}

/* Whether the user may submit the job to partition P, as far as shown. */
static bool _may_use(const mf_wait_dump_t *d, const mf_wait_part_t *p)
{
	bool group = !p->allow_groups || !strcmp(p->allow_groups, "ALL");

	for (int i = 0; !group && d->groups && d->groups[i]; i++)
		group = _in(p->allow_groups, d->groups[i], false);
	for (int i = 0; d->job->partitions && d->job->partitions[i]; i++)
		if (!strcmp(d->job->partitions[i], p->name))
			return false;
	return group && p->state && !strcmp(p->state, "UP") &&
		_in(p->allow_accounts, d->job->account, true) &&
		!_in(p->deny_accounts, d->job->account, false) &&
		_in(p->allow_qos, d->job->qos, true) &&
		!_in(p->deny_qos, d->job->qos, false);
}

static gint _by_ahead(gconstpointer a, gconstpointer b)
{
	const mf_wait_part_alt_t *x = a, *y = b;

	return (x->ahead > y->ahead) - (x->ahead < y->ahead);
}

void mf_wait_part_alts(mf_wait_t *w)
{
	const mf_wait_dump_t *d = w->d;
	const mf_wait_place_t *p;
	uint32_t fewest = UINT32_MAX;
	double max = 0;

	w->part_alts = g_array_new(FALSE, TRUE, sizeof(mf_wait_part_alt_t));
	if (!d->parts || !w->places->len || w->jobs_hidden)
		return;
	for (guint i = 0; i < w->places->len; i++) {
		p = &g_array_index(w->places, mf_wait_place_t, i);
		fewest = MIN(fewest, p->ahead);
	}
	p = &g_array_index(w->places, mf_wait_place_t, 0);
	for (guint i = 0; i < d->parts->len; i++)
		max = MAX(max, g_array_index(d->parts, mf_wait_part_t,
					     i).job_factor);
	for (guint i = 0; max > 0 && i < d->parts->len; i++) {
		const mf_wait_part_t *q = &g_array_index(d->parts,
							 mf_wait_part_t, i);
		mf_wait_part_alt_t a = { .part = q, .ahead_here = fewest };

		if (!_may_use(d, q))
			continue;
		a.term = d->weight_part * q->job_factor / max;
		a.priority = p->mine->priority - p->mine->w[MF_WT_PARTITION] +
			a.term;
		a.ahead = _ahead_in(w, mf_jobs_intern(q->name), a.priority,
				    &a.rows);
		if (a.ahead < fewest)
			g_array_append_val(w->part_alts, a);
	}
	g_array_sort(w->part_alts, _by_ahead);
}
