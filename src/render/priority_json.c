/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mfprio priority --json`: the rows of `sprio -l` and the explanation of
 * one job as JSON, with the settings they were computed with.  The shape
 * is documented in doc/mfprio.1 (JSON OUTPUT).
 */
#include <stdio.h>
#include <string.h>

#include "exit_status.h"
#include "priority_flags.h"
#include "priority_explain.h"
#include "priority_json.h"
#include "priority_run.h"
#include "release.h"

/* The factors of the sum by their JSON names, in sprio's order. */
#define _FACTORS 6
static const char *const _factor[_FACTORS] = {
	"age", "assoc", "fairshare", "jobsize", "partition", "qos",
};

static void _flags(mf_json_t *j, const char *key, uint32_t flags);
static void _tres_values(mf_json_t *j, const char *key,
			 const mf_prun_ctx_t *c, const double *v);

/* FLAGS as an array of names. */
static void _flags(mf_json_t *j, const char *key, uint32_t flags)
{
	char *s = mf_priority_flags_string(flags);
	char **names = g_strsplit(s, ",", -1);

	mf_json_begin_array(j, key);
	for (int i = 0; names[i]; i++)
		if (*names[i])
			mf_json_string(j, NULL, names[i]);
	mf_json_end_array(j);
	g_strfreev(names);
	g_free(s);
}

/* An object TRES name -> V[i], for the TRES that have a weight. */
static void _tres_values(mf_json_t *j, const char *key,
			 const mf_prun_ctx_t *c, const double *v)
{
	const double *w = c->cfg.weight_tres;

	mf_json_begin_object(j, key);
	for (uint32_t i = 0; w && v && i < c->pc->tres->cnt; i++)
		if (w[i])
			mf_json_double(j, c->pc->tres->names[i], v[i]);
	mf_json_end_object(j);
}

/* An object of the six factors' V (by _factor's names) and the TRES's
 * TRES_V, as member KEY. */
static void _factor_values(mf_json_t *j, const char *key,
			   const mf_prun_ctx_t *c, const double v[_FACTORS],
			   const double *tres_v)
{
	mf_json_begin_object(j, key);
	for (int i = 0; i < _FACTORS; i++)
		mf_json_double(j, _factor[i], v[i]);
	_tres_values(j, "tres", c, tres_v);
	mf_json_end_object(j);
}

void mf_prun_json_settings(mf_json_t *j, const char *key,
			   const mf_prun_ctx_t *c, const mf_prun_opts_t *o)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const uint32_t weight[_FACTORS] = { cfg->weight_age, cfg->weight_assoc,
		cfg->weight_fs, cfg->weight_js, cfg->weight_part,
		cfg->weight_qos };
	char rel[8];

	mf_json_begin_object(j, key);
	mf_json_begin_object(j, "inputs");
	mf_json_string(j, "snapshot", o->snapshot);
	mf_json_string(j, "conf", o->conf);
	mf_json_string(j, "jobs", o->jobs);
	mf_json_string(j, "qos", o->qos);
	mf_json_string(j, "assoc", o->assoc);
	mf_json_string(j, "usage", o->usage);
	mf_json_string(j, "assoc_prio", o->assoc_prio);
	mf_json_end_object(j);
	mf_json_int(j, "now", (int64_t)o->now);
	mf_json_string(j, "release", mf_release_name(cfg->release, rel));
	mf_json_string(j, "release_source", c->rel.source);
	_flags(j, "flags", cfg->flags);
	mf_json_string(j, "fairshare_algorithm",
		       mf_fs_algo_name(c->fs_cfg.algo));
	mf_json_uint(j, "fairshare_dampening", c->fs_cfg.damp);
	mf_json_begin_object(j, "weights");
	for (int i = 0; i < _FACTORS; i++)
		mf_json_uint(j, _factor[i], weight[i]);
	_tres_values(j, "tres", c, cfg->weight_tres);
	mf_json_end_object(j);
	mf_json_uint(j, "max_age", cfg->max_age);
	mf_json_uint(j, "decay_half_life", c->pc->decay_half_life);
	mf_json_bool(j, "favor_small", cfg->favor_small);
	mf_json_uint(j, "node_count", cfg->node_count);
	mf_json_uint(j, "cluster_cpus", cfg->cluster_cpus);
	mf_json_uint(j, "part_max_priority", cfg->part_max_priority);
	mf_json_uint(j, "qos_max_priority", cfg->qos_max_priority);
	mf_json_uint(j, "assoc_max_priority", cfg->assoc_max_priority);
	mf_json_begin_array(j, "set");
	for (guint i = 0; o->sets && i < o->sets->len; i++) {
		const mf_conf_pair_t *p = o->sets->pdata[i];

		mf_json_begin_object(j, NULL);
		mf_json_string(j, "key", p->key);
		mf_json_string(j, "value", p->value);
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
	mf_json_end_object(j);
}

/* The weighted figures of R (the columns of sprio -l) and its factors. */
static void _result(mf_json_t *j, const mf_prun_ctx_t *c,
		    const mf_prio_result_t *r)
{
	mf_json_double(j, "site", r->direct ? 0.0 : (double)r->site);
	mf_json_double(j, "nice", r->direct ? 0.0 : (double)r->nice);
	const double weighted[_FACTORS] = { r->w_age, r->w_assoc, r->w_fs,
		r->w_js, r->w_part, r->w_qos };
	const double factor[_FACTORS] = { r->age, r->assoc, r->fs, r->js,
		r->part, r->qos };

	_factor_values(j, "weighted", c, weighted, r->w_tres);
	_factor_values(j, "factors", c, factor, r->tres);
}

int mf_prun_print_json(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		       FILE *out)
{
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "command", "priority");
	mf_prun_json_settings(&j, "settings", c, o);
	mf_json_begin_array(&j, "rows");
	for (guint i = 0; i < c->rows->len; i++) {
		const mf_prun_row_t *row = c->rows->pdata[i];
		const mf_prio_result_t *r = &row->r;
		const mf_job_line_t *l = row->job->line;

		mf_json_begin_object(&j, NULL);
		mf_json_uint(&j, "job_id", row->job->job.job_id);
		mf_json_string(&j, "partition",
			       r->partition ? r->partition->name : NULL);
		mf_json_string(&j, "user", l->user);
		mf_json_string(&j, "account", l->account);
		mf_json_string(&j, "qos", l->qos);
		mf_json_int(&j, "priority", (int64_t)row->sprio_priority);
		mf_json_uint(&j, "job_priority", r->priority);
		mf_json_double(&j, "sum", r->sum);
		_result(&j, c, r);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_finish(&j);
	return MF_EXIT_OK;
}

/* Neighbour N of the explained job as member KEY: who, its priority, and
 * the terms by which the higher of the two is ahead, largest first. */
static void _neighbour(mf_json_t *j, const char *key,
		       const mf_expl_neighbour_t *n)
{
	const mf_prun_row_t *other = n->row;

	if (!other) {
		mf_json_null(j, key);
		return;
	}
	mf_json_begin_object(j, key);
	mf_json_uint(j, "job_id", other->job->job.job_id);
	mf_json_string(j, "user", other->job->line->user);
	mf_json_string(j, "partition", other->r.partition ?
		       other->r.partition->name : NULL);
	mf_json_uint(j, "job_priority", other->r.priority);
	mf_json_int(j, "difference", n->difference);
	mf_json_begin_array(j, "ahead_by");
	for (int i = 0; i < n->n_by; i++) {
		mf_json_begin_object(j, NULL);
		mf_json_string(j, "factor", n->by[i].factor);
		mf_json_double(j, "by", n->by[i].by);
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
	mf_json_end_object(j);
}

/* The "job" object of JOB's explanation, at O's time.  Returns nothing. */
static void _explain_job(mf_json_t *j, const mf_prun_opts_t *o,
			 const mf_prun_job_t *job)
{
	const mf_prio_job_t *pj = &job->job;
	const mf_job_line_t *l = job->line;

	mf_json_begin_object(j, "job");
	mf_json_uint(j, "job_id", pj->job_id);
	mf_json_string(j, "user", l->user);
	mf_json_string(j, "account", l->account);
	mf_json_string(j, "qos", l->qos);
	mf_json_string(j, "partition", pj->part ? pj->part->name : NULL);
	mf_json_string(j, "state", l->state);
	mf_json_int(j, "accrue_time", (int64_t)pj->accrue_time);
	mf_json_int(j, "waited", pj->accrue_time && o->now > pj->accrue_time
		    ? (int64_t)(o->now - pj->accrue_time) : 0);
	mf_json_uint(j, "min_nodes", pj->min_nodes);
	mf_json_uint(j, "cpus", pj->cpu_cnt);
	mf_json_uint(j, "qos_priority", pj->qos_priority);
	mf_json_uint(j, "assoc_priority", pj->assoc_priority);
	mf_json_string(j, "fairshare_from", job->fs_note);
	mf_json_uint(j, "current_priority", l->priority);
	mf_json_end_object(j);
}

/* The "rows" array of E's factors, trackable resources included.
 * Returns nothing. */
static void _explain_rows(mf_json_t *j, const mf_expl_t *e)
{
	mf_json_begin_array(j, "rows");
	for (guint i = 0; i < e->factors->len; i++) {
		const mf_expl_factor_t *f =
			&g_array_index(e->factors, mf_expl_factor_t, i);

		mf_json_begin_object(j, NULL);
		mf_json_string(j, "factor", f->name);
		mf_json_double(j, "value", f->value);
		mf_json_double(j, "weight", f->weight);
		mf_json_double(j, "weighted", f->weighted);
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
}

/* E's job's site and nice, its sum and priority (INCR_ONLY's too), and
 * its priority in each of its partitions.  Returns nothing. */
static void _explain_total(mf_json_t *j, const mf_prun_ctx_t *c,
			   const mf_expl_t *e)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const mf_prio_result_t *r = &e->job->base;

	mf_json_int(j, "site", r->site);
	mf_json_int(j, "nice", r->nice);
	mf_json_double(j, "sum", r->sum);
	mf_json_uint(j, "job_priority", r->priority);
	mf_json_bool(j, "clamped", r->clamped);
	if (cfg->flags & MF_FLAG_INCR_ONLY)
		mf_json_uint(j, "incr_only_keeps",
			     mf_priority_incr_only(cfg->flags,
						   e->job->line->priority,
						   r->priority));
	mf_json_begin_array(j, "partitions");
	for (guint k = 0; k < e->ranks->len; k++) {
		const mf_expl_rank_t *rk =
			&g_array_index(e->ranks, mf_expl_rank_t, k);

		if (!rk->row || !mf_prun_job_parts(e->job))
			continue;
		mf_json_begin_object(j, NULL);
		mf_json_string(j, "name", rk->part->name);
		mf_json_uint(j, "tier", rk->part->priority_tier);
		mf_json_uint(j, "job_priority", rk->row->r.priority);
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
}

/* The job's rank in its first partition's queue and the other jobs just
 * above and below it (nothing when it is not ranked).  Returns nothing. */
static void _explain_rank(mf_json_t *j, const mf_expl_t *e)
{
	const mf_expl_rank_t *rk = &g_array_index(e->ranks, mf_expl_rank_t, 0);

	if (!rk->row)
		return;
	mf_json_uint(j, "rank", rk->rank);
	mf_json_uint(j, "rows_ranked", rk->ranked);
	_neighbour(j, "above", &rk->above);
	_neighbour(j, "below", &rk->below);
}

int mf_prun_explain_json(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
			 FILE *out)
{
	mf_expl_t e;
	mf_json_t j;
	int rc;

	if ((rc = mf_expl_build(c, o, &e))) {
		mf_expl_clear(&e);
		return rc;
	}
	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "command", "priority --explain");
	mf_prun_json_settings(&j, "settings", c, o);
	_explain_job(&j, o, e.job);
	_explain_rows(&j, &e);
	_explain_total(&j, c, &e);
	_explain_rank(&j, &e);
	mf_json_end_object(&j);
	mf_json_finish(&j);
	mf_expl_clear(&e);
	return MF_EXIT_OK;
}
