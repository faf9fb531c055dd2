/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * why_compare: why one pending job runs before another (why_compare.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "age_factor.h"
#include "why_compare.h"

/* One term of the sum, for both jobs. */

static void _term_free(gpointer p)
{
	mf_why_term_t *t = p;

	g_free(t->name);
	g_free(t);
}

static void _add(GPtrArray *terms, const char *name, double a, double b,
		 double wa, double wb)
{
	mf_why_term_t *t;

	if (wa == wb)
		return;
	t = g_new0(mf_why_term_t, 1);
	t->name = g_strdup(name);
	t->a = a;
	t->b = b;
	t->wa = wa;
	t->wb = wb;
	g_ptr_array_add(terms, t);
}

static gint _by_size(gconstpointer x, gconstpointer y)
{
	const mf_why_term_t *a = *(mf_why_term_t *const *) x, *b = *(mf_why_term_t *const *) y;
	double da = fabs(a->wa - a->wb), db = fabs(b->wa - b->wb);

	return da < db ? 1 : da > db ? -1 : strcmp(a->name, b->name);
}

/* The terms where the two rows differ, largest difference first. */
GPtrArray *mf_why_terms(const mf_prun_ctx_t *c, const mf_prio_result_t *a,
			 const mf_prio_result_t *b)
{
	GPtrArray *t = g_ptr_array_new_with_free_func(_term_free);

	_add(t, "age", a->age, b->age, a->w_age, b->w_age);
	_add(t, "fairshare", a->fs, b->fs, a->w_fs, b->w_fs);
	_add(t, "qos", a->qos, b->qos, a->w_qos, b->w_qos);
	_add(t, "partition", a->part, b->part, a->w_part, b->w_part);
	_add(t, "jobsize", a->js, b->js, a->w_js, b->w_js);
	_add(t, "assoc", a->assoc, b->assoc, a->w_assoc, b->w_assoc);
	for (uint32_t i = 0; c->cfg.tres && i < a->tres_cnt &&
	     i < b->tres_cnt && i < c->cfg.tres->cnt; i++) {
		char *n = g_strdup_printf("tres/%s", c->cfg.tres->names[i]);

		_add(t, n, a->tres[i], b->tres[i], a->w_tres[i],
		     b->w_tres[i]);
		g_free(n);
	}
	_add(t, "site", NAN, NAN, (double) a->site, (double) b->site);
	_add(t, "nice", NAN, NAN, (double) -a->nice, (double) -b->nice);
	g_ptr_array_sort(t, _by_size);
	return t;
}

/* The row of J in partition P, or NULL. */
static const mf_prun_row_t *_row_in(const mf_prun_ctx_t *c,
				    const mf_prun_job_t *j, const mf_part_t *p)
{
	for (guint i = 0; i < c->rows->len; i++) {
		const mf_prun_row_t *r = c->rows->pdata[i];

		if (r->job == j && r->r.partition == p)
			return r;
	}
	return NULL;
}

/* The rows to compare: in the common partition of highest tier, else
 * each job's first. */
void mf_why_pick_rows(const mf_prun_ctx_t *c, const mf_prun_job_t *a,
		       const mf_prun_job_t *b, const mf_prun_row_t **ra,
		       const mf_prun_row_t **rb)
{
	*ra = *rb = NULL;
	for (guint i = 0; i < c->rows->len; i++) {
		const mf_prun_row_t *r = c->rows->pdata[i];
		const mf_prun_row_t *o;

		if (r->job != a || !(o = _row_in(c, b, r->r.partition)))
			continue;
		if (!*ra || r->r.partition->priority_tier >
		    (*ra)->r.partition->priority_tier) {
			*ra = r;
			*rb = o;
		}
	}
	if (!*ra) {
		*ra = mf_prun_job_row(c, a);
		*rb = mf_prun_job_row(c, b);
	}
}


void mf_why_analyse(const mf_prun_ctx_t *c, mf_why_t *w)
{
	const mf_prio_result_t *f = &w->rf->r, *l = &w->rl->r;
	double wa = c->cfg.weight_age, m = c->cfg.max_age;

	w->gap = f->sum - l->sum;
	if (w->by_tier || w->tie || f->direct || l->direct)
		return;
	/* age: both gain wa/m a second until each reaches 1; the later
	 * job gains on the first only after the first has reached 1 */
	if (wa > 0 && m > 0 && f->age > l->age) {
		w->age_max_gain = wa * (f->age - l->age);
		w->age_seconds = mf_age_crossing(w->gap, wa, (uint32_t) m,
						 f->age, l->age);
		w->age_can = w->age_seconds >= 0;
	}
	if (c->cfg.weight_fs > 0) {
		w->fs_needed = l->fs + w->gap / c->cfg.weight_fs;
		w->fs_can = w->fs_needed <= 1.0;
		if (c->tree)
			w->later_assoc = mf_tree_find_job_assoc(
				c->tree, w->later->line->account,
				w->later->line->user,
				w->later->line->partitions ?
				w->later->line->partitions[0] : NULL);
		if (w->fs_can && w->later_assoc &&
		    c->fs_cfg.algo != MF_FS_FAIR_TREE &&
		    w->later_assoc->shares_norm > 0 && w->fs_needed > 0)
			w->ue_needed = -log2(w->fs_needed) *
				w->later_assoc->shares_norm * c->fs_cfg.damp;
	}
}


void mf_why_order(const mf_prun_job_t *a, const mf_prun_job_t *b,
		  const mf_prun_row_t *ra, const mf_prun_row_t *rb,
		  mf_why_t *w)
{
	if (ra->r.partition->priority_tier != rb->r.partition->priority_tier) {
		bool a_first = ra->r.partition->priority_tier >
			rb->r.partition->priority_tier;

		w->by_tier = true;
		w->first = a_first ? a : b;
		w->later = a_first ? b : a;
	} else if (ra->r.priority != rb->r.priority) {
		bool a_first = ra->r.priority > rb->r.priority;

		w->first = a_first ? a : b;
		w->later = a_first ? b : a;
	} else {
		bool a_first = a->job.job_id < b->job.job_id;

		w->tie = true;
		w->first = a_first ? a : b;
		w->later = a_first ? b : a;
	}
	w->rf = w->first == a ? ra : rb;
	w->rl = w->first == a ? rb : ra;
}
