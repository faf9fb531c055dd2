/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mfprio priority --json`: the rows of `sprio -l` and the explanation of
 * one job as JSON, with the settings they were computed with.  The shape
 * is documented in doc/mfprio.1 (JSON OUTPUT).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_error.h"
#include "priority_flags.h"
#include "priority_json.h"
#include "priority_run.h"
#include "release.h"

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

void mf_prun_json_settings(mf_json_t *j, const char *key,
			   const mf_prun_ctx_t *c, const mf_prun_opts_t *o)
{
	const mf_prio_config_t *cfg = &c->cfg;
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
	mf_json_uint(j, "age", cfg->weight_age);
	mf_json_uint(j, "assoc", cfg->weight_assoc);
	mf_json_uint(j, "fairshare", cfg->weight_fs);
	mf_json_uint(j, "jobsize", cfg->weight_js);
	mf_json_uint(j, "partition", cfg->weight_part);
	mf_json_uint(j, "qos", cfg->weight_qos);
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
	mf_json_begin_object(j, "weighted");
	mf_json_double(j, "age", r->w_age);
	mf_json_double(j, "assoc", r->w_assoc);
	mf_json_double(j, "fairshare", r->w_fs);
	mf_json_double(j, "jobsize", r->w_js);
	mf_json_double(j, "partition", r->w_part);
	mf_json_double(j, "qos", r->w_qos);
	_tres_values(j, "tres", c, r->w_tres);
	mf_json_end_object(j);
	mf_json_begin_object(j, "factors");
	mf_json_double(j, "age", r->age);
	mf_json_double(j, "assoc", r->assoc);
	mf_json_double(j, "fairshare", r->fs);
	mf_json_double(j, "jobsize", r->js);
	mf_json_double(j, "partition", r->part);
	mf_json_double(j, "qos", r->qos);
	_tres_values(j, "tres", c, r->tres);
	mf_json_end_object(j);
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

/* One factor line of the explanation. */
static void _factor(mf_json_t *j, const char *name, double value,
		    double weight, double weighted)
{
	mf_json_begin_object(j, NULL);
	mf_json_string(j, "factor", name);
	mf_json_double(j, "value", value);
	mf_json_double(j, "weight", weight);
	mf_json_double(j, "weighted", weighted);
	mf_json_end_object(j);
}

/* The weighted terms of R by name, as compared between two rows. */
static int _terms(const mf_prio_result_t *r, const char *names[9],
		  double v[9])
{
	static const char *const n[9] = { "age", "assoc", "fairshare",
		"jobsize", "partition", "qos", "tres", "site", "nice" };

	v[0] = r->w_age; v[1] = r->w_assoc; v[2] = r->w_fs; v[3] = r->w_js;
	v[4] = r->w_part; v[5] = r->w_qos; v[6] = r->w_tres_sum;
	v[7] = (double)r->site; v[8] = -(double)r->nice;
	for (int i = 0; i < 9; i++)
		names[i] = n[i];
	return 9;
}

/* The neighbour OTHER of ROW as member KEY: who, its priority, and the
 * terms by which the higher of the two is ahead, largest first. */
static void _neighbour(mf_json_t *j, const char *key,
		       const mf_prun_row_t *row, const mf_prun_row_t *other,
		       bool other_is_above)
{
	const mf_prio_result_t *hi, *lo;
	const char *names[9], *unused[9];
	double a[9], b[9];
	bool used[9] = { false };
	int n;

	if (!other) {
		mf_json_null(j, key);
		return;
	}
	hi = other_is_above ? &other->r : &row->r;
	lo = other_is_above ? &row->r : &other->r;
	n = _terms(hi, names, a);
	_terms(lo, unused, b);
	mf_json_begin_object(j, key);
	mf_json_uint(j, "job_id", other->job->job.job_id);
	mf_json_string(j, "user", other->job->line->user);
	mf_json_string(j, "partition", other->r.partition ?
		       other->r.partition->name : NULL);
	mf_json_uint(j, "job_priority", other->r.priority);
	mf_json_int(j, "difference",
		    (int64_t)other->r.priority - (int64_t)row->r.priority);
	mf_json_begin_array(j, "ahead_by");
	for (int k = 0; k < n; k++) {
		int best = -1;
		double best_d = 0.0;

		for (int i = 0; i < n; i++)
			if (!used[i] && a[i] - b[i] > best_d) {
				best = i;
				best_d = a[i] - b[i];
			}
		if (best < 0)
			break;
		used[best] = true;
		mf_json_begin_object(j, NULL);
		mf_json_string(j, "factor", names[best]);
		mf_json_double(j, "by", best_d);
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

/* The "rows" array of JOB's factors, trackable resources included.
 * Returns nothing. */
static void _explain_rows(mf_json_t *j, const mf_prun_ctx_t *c,
			  const mf_prun_job_t *job)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const mf_prio_result_t *r = &job->base;
	const mf_prio_job_t *pj = &job->job;

	mf_json_begin_array(j, "rows");
	_factor(j, "age", r->age, cfg->weight_age, r->w_age);
	_factor(j, "assoc", r->assoc, cfg->weight_assoc, r->w_assoc);
	_factor(j, "fairshare", r->fs, cfg->weight_fs, r->w_fs);
	_factor(j, "jobsize", r->js, cfg->weight_js, r->w_js);
	_factor(j, "partition", r->part, cfg->weight_part, r->w_part);
	_factor(j, "qos", r->qos, cfg->weight_qos, r->w_qos);
	for (uint32_t i = 0; i < r->tres_cnt; i++) {
		char *name;

		if (!pj->tres_cnt[i] && !r->tres[i])
			continue;
		name = g_strdup_printf("tres:%s", c->pc->tres->names[i]);
		_factor(j, name, r->tres[i],
			cfg->weight_tres ? cfg->weight_tres[i] : 0.0,
			r->w_tres[i]);
		g_free(name);
	}
	mf_json_end_array(j);
}

/* JOB's site and nice, its sum and priority (INCR_ONLY's too), and its
 * priority in each of its partitions.  Returns nothing. */
static void _explain_total(mf_json_t *j, const mf_prun_ctx_t *c,
			   const mf_prun_job_t *job)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const mf_prio_result_t *r = &job->base;
	const mf_prio_job_t *pj = &job->job;

	mf_json_int(j, "site", r->site);
	mf_json_int(j, "nice", r->nice);
	mf_json_double(j, "sum", r->sum);
	mf_json_uint(j, "job_priority", r->priority);
	mf_json_bool(j, "clamped", r->clamped);
	if (cfg->flags & MF_FLAG_INCR_ONLY)
		mf_json_uint(j, "incr_only_keeps",
			     mf_priority_incr_only(cfg->flags,
						   job->line->priority,
						   r->priority));
	mf_json_begin_array(j, "partitions");
	for (uint32_t k = 0; k < pj->part_cnt; k++)
		for (guint i = 0; i < c->rows->len; i++) {
			const mf_prun_row_t *row = c->rows->pdata[i];

			if (row->job != job || row->r.partition != pj->parts[k])
				continue;
			mf_json_begin_object(j, NULL);
			mf_json_string(j, "name", pj->parts[k]->name);
			mf_json_uint(j, "tier", pj->parts[k]->priority_tier);
			mf_json_uint(j, "job_priority", row->r.priority);
			mf_json_end_object(j);
		}
	mf_json_end_array(j);
}

/* JOB's rank in its first partition's queue and the other jobs just
 * above and below it.  Returns nothing. */
static void _explain_rank(mf_json_t *j, const mf_prun_ctx_t *c,
			  const mf_prun_job_t *job)
{
	const mf_prio_job_t *pj = &job->job;
	GPtrArray *ranked = mf_prun_part_ranked(c, pj->part);

	for (guint i = 0; i < ranked->len; i++) {
		const mf_prun_row_t *row = ranked->pdata[i];
		const mf_prun_row_t *above = NULL, *below = NULL;

		if (row->job != job || row->r.partition != pj->part)
			continue;
		for (guint k = i; k-- > 0;)
			if (((mf_prun_row_t *)ranked->pdata[k])->job != job) {
				above = ranked->pdata[k];
				break;
			}
		for (guint k = i + 1; k < ranked->len; k++)
			if (((mf_prun_row_t *)ranked->pdata[k])->job != job) {
				below = ranked->pdata[k];
				break;
			}
		mf_json_uint(j, "rank", i + 1);
		mf_json_uint(j, "rows_ranked", ranked->len);
		_neighbour(j, "above", row, above, true);
		_neighbour(j, "below", row, below, false);
		break;
	}
	g_ptr_array_unref(ranked);
}

int mf_prun_explain_json(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
			 FILE *out)
{
	const mf_prun_job_t *job = NULL;
	mf_json_t j;
	int rc;

	if ((rc = mf_prun_explained(c, o, &job)))
		return rc;
	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "command", "priority --explain");
	mf_prun_json_settings(&j, "settings", c, o);
	_explain_job(&j, o, job);
	_explain_rows(&j, c, job);
	_explain_total(&j, c, job);
	_explain_rank(&j, c, job);
	mf_json_end_object(&j);
	mf_json_finish(&j);
	return MF_EXIT_OK;
}
