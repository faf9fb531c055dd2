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

/* The jobs of the first partition's rows ahead of the job at priority
 * PRIO: -1 if the place is unknown. */
static int64_t _ahead_at(const mf_wait_t *w, double prio)
{
	const mf_wait_place_t *p;
	const GArray *rows = w->d->sprio;
	int64_t n = 0;

	if (!w->places->len || w->jobs_hidden)
		return -1;
	p = &g_array_index(w->places, mf_wait_place_t, 0);
	for (guint i = 0; i < rows->len; i++) {
		const mf_wait_sprio_t *r = &g_array_index(rows,
							  mf_wait_sprio_t, i);

		if (r->partition == p->mine->partition && r != p->mine &&
		    (r->priority > prio || (r->priority == prio &&
					    r->job_id < p->mine->job_id)))
			n++;
	}
	return n;
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
