/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_explain: one job's priority as the rows of its explanation
 * (priority_explain.h).
 */
#include <stdio.h>
#include <string.h>

#include "exit_status.h"
#include "priority_explain.h"

/* The weighted terms of R, in MF_EXPL_TERMS order. */
static void _terms(const mf_prio_result_t *r, double v[MF_EXPL_TERMS])
{
	v[0] = r->w_age; v[1] = r->w_assoc; v[2] = r->w_fs; v[3] = r->w_js;
	v[4] = r->w_part; v[5] = r->w_qos; v[6] = r->w_tres_sum;
	v[7] = (double)r->site; v[8] = -(double)r->nice;
}

/* The neighbour OTHER of ROW into N: where the higher of the two is
 * ahead, term by term, largest first. */
static void _neighbour(mf_expl_neighbour_t *n, const mf_prun_row_t *row,
		       const mf_prun_row_t *other, bool other_is_above)
{
	static const char *const names[MF_EXPL_TERMS] = { "age", "assoc",
		"fairshare", "jobsize", "partition", "qos", "tres", "site",
		"nice" };
	double a[MF_EXPL_TERMS], b[MF_EXPL_TERMS];
	bool used[MF_EXPL_TERMS] = { false };

	memset(n, 0, sizeof(*n));
	if (!other)
		return;
	n->row = other;
	n->difference = (int64_t)other->r.priority - (int64_t)row->r.priority;
	_terms(other_is_above ? &other->r : &row->r, a);
	_terms(other_is_above ? &row->r : &other->r, b);
	for (int k = 0; k < MF_EXPL_TERMS; k++) {
		int best = -1;
		double best_d = 0.0;

		for (int i = 0; i < MF_EXPL_TERMS; i++)
			if (!used[i] && a[i] - b[i] > best_d) {
				best = i;
				best_d = a[i] - b[i];
			}
		if (best < 0)
			break;
		used[best] = true;
		n->by[n->n_by].factor = names[best];
		n->by[n->n_by++].by = best_d;
	}
}

/* One factor row of E. */
static void _factor(mf_expl_t *e, mf_expl_kind_t kind, uint32_t tres,
		    const char *name, double value, double weight,
		    double weighted)
{
	mf_expl_factor_t f = { .kind = kind, .tres = tres, .value = value,
			       .weight = weight, .weighted = weighted };

	snprintf(f.name, sizeof(f.name), "%s", name);
	g_array_append_val(e->factors, f);
}

/* The factor rows of E's job, trackable resources that count included. */
static void _factors(mf_expl_t *e, const mf_prun_ctx_t *c)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const mf_prio_result_t *r = &e->job->base;
	const mf_prio_job_t *pj = &e->job->job;

	_factor(e, MF_EXPL_AGE, 0, "age", r->age, cfg->weight_age, r->w_age);
	_factor(e, MF_EXPL_ASSOC, 0, "assoc", r->assoc, cfg->weight_assoc,
		r->w_assoc);
	_factor(e, MF_EXPL_FS, 0, "fairshare", r->fs, cfg->weight_fs, r->w_fs);
	_factor(e, MF_EXPL_JS, 0, "jobsize", r->js, cfg->weight_js, r->w_js);
	_factor(e, MF_EXPL_PART, 0, "partition", r->part, cfg->weight_part,
		r->w_part);
	_factor(e, MF_EXPL_QOS, 0, "qos", r->qos, cfg->weight_qos, r->w_qos);
	for (uint32_t i = 0; i < r->tres_cnt; i++) {
		char name[64];

		if (!pj->tres_cnt[i] && !r->tres[i])
			continue;
		snprintf(name, sizeof(name), "tres:%s", c->pc->tres->names[i]);
		_factor(e, MF_EXPL_TRES, i, name, r->tres[i],
			cfg->weight_tres ? cfg->weight_tres[i] : 0.0,
			r->w_tres[i]);
	}
}

/* The rank of E's job in partition PART, and its neighbours there (the
 * nearest rows of other jobs), as the scheduler queues them. */
static void _rank(mf_expl_t *e, const mf_prun_ctx_t *c, const mf_part_t *part)
{
	GPtrArray *ranked = mf_prun_part_ranked(c, part);
	mf_expl_rank_t k = { .part = part, .ranked = ranked->len };
	const mf_prun_row_t *above = NULL, *below = NULL;

	for (guint i = 0; i < ranked->len && !k.row; i++) {
		if (((mf_prun_row_t *)ranked->pdata[i])->job != e->job)
			continue;
		k.row = ranked->pdata[i];
		k.rank = i + 1;
		for (guint a = i; a-- > 0 && !above;)
			if (((mf_prun_row_t *)ranked->pdata[a])->job != e->job)
				above = ranked->pdata[a];
		for (guint b = i + 1; b < ranked->len && !below; b++)
			if (((mf_prun_row_t *)ranked->pdata[b])->job != e->job)
				below = ranked->pdata[b];
	}
	if (k.row) {
		_neighbour(&k.above, k.row, above, true);
		_neighbour(&k.below, k.row, below, false);
	}
	g_array_append_val(e->ranks, k);
	g_ptr_array_unref(ranked);
}

int mf_expl_build(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		  mf_expl_t *e)
{
	const mf_prun_job_t *j = NULL;
	const mf_prun_row_t *mine;
	uint32_t parts;
	int rc;

	memset(e, 0, sizeof(*e));
	if ((rc = mf_prun_explained(c, o, &j)))
		return rc;
	e->job = j;
	e->factors = g_array_new(FALSE, FALSE, sizeof(mf_expl_factor_t));
	e->ranks = g_array_new(FALSE, FALSE, sizeof(mf_expl_rank_t));
	_factors(e, c);
	parts = mf_prun_job_parts(j) ? j->job.part_cnt : 1;
	for (uint32_t k = 0; k < parts; k++)
		_rank(e, c, mf_prun_job_parts(j) ? j->job.parts[k] : j->job.part);
	mine = mf_prun_job_row(c, j);
	e->queue_pos = 1;
	e->queue_rows = c->rows->len;
	for (guint i = 0; mine && i < c->rows->len; i++) {
		const mf_prun_row_t *x = c->rows->pdata[i];

		if (x->job != j && mf_prun_queue_cmp(x, mine) < 0)
			e->queue_pos++;
	}
	return MF_EXIT_OK;
}

void mf_expl_clear(mf_expl_t *e)
{
	if (e->factors)
		g_array_free(e->factors, TRUE);
	if (e->ranks)
		g_array_free(e->ranks, TRUE);
	memset(e, 0, sizeof(*e));
}
