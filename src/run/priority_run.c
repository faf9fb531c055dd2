/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_run: one run of the priority computation over the dumps an
 * administrator takes (load the inputs, build each job, compute its rows),
 * shared by the commands priority, why, check and compare, and the steps
 * of it that the streamed table of `mfprio priority` takes one job at a
 * time.  Below the commands: it calls none of them.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exit_status.h"
#include "age_factor.h"
#include "fairshare.h"
#include "jobs_input.h"
#include "qos_input.h"
#include "job_fs_factor.h"
#include "priority.h"
#include "priority_conf.h"
#include "priority_flags.h"
#include "priority_run.h"
#include "release_table.h"
#include "settings.h"
#include "slurm_conf.h"
#include "snapshot.h"
#include "snapshot_dir.h"
#include "timestr.h"

/* priority_run.h's types, by the names this file uses */
typedef mf_prun_job_t _job_t;
typedef mf_prun_row_t _row_t;
typedef mf_prun_opts_t _opts_t;
typedef mf_prun_ctx_t _ctx_t;

void mf_prun_job_clear(_job_t *j)
{
	if (!j->parts_cached)
		g_free(j->parts);
	if (!j->tres_cached)
		g_free(j->tres_cnt);
	j->parts = NULL;
	j->tres_cnt = NULL;
	mf_prio_result_clear(&j->base);
}

static void _job_free(gpointer p)
{
	mf_prun_job_clear(p);
	g_free(p);
}

static void _row_free(gpointer p)
{
	_row_t *row = p;

	mf_prio_result_clear(&row->r);
	g_free(row);
}

static void _ctx_clear(_ctx_t *c)
{
	if (c->rows)
		g_ptr_array_unref(c->rows);
	if (c->jobs)
		g_ptr_array_unref(c->jobs);
	if (c->lines)
		g_ptr_array_unref(c->lines);
	if (c->qos)
		g_hash_table_unref(c->qos);
	if (c->assoc_prio)
		g_hash_table_unref(c->assoc_prio);
	mf_tree_destroy(c->tree);
	mf_prio_conf_free(c->pc);
	mf_release_pick_clear(&c->rel);
	g_clear_pointer(&c->cluster, g_free);
}

/* Read the settings O names (settings.h: the conf, O's what-ifs, the
 * release, the cluster) into C.  Returns an exit status (MF_EXIT_OK to go
 * on). */
static int _load_conf(_ctx_t *c, const _opts_t *o)
{
	mf_settings_in_t in = { .conf = o->conf, .sets = o->sets,
				.release = o->release,
				.cluster = o->cluster };
	mf_settings_t s = { 0 };
	mf_error_t e;
	int rc = MF_EXIT_INPUT;

	if (mf_settings_read(&s, &in, &e)) {
		mf_print_error("%s", e.text);
	} else if (s.conf_empty) {
		mf_print_error("%s: no setting in it (an empty slurm.conf: jobs "
			     "have nowhere to run)", o->conf);
	} else {
		/* a bad --set value is warned about even when quiet */
		mf_settings_warn(&s, mf_prun_is_quiet() ?
				 MF_SETTINGS_WARN_SETS : MF_SETTINGS_WARN_ALL);
		rc = MF_EXIT_OK;
	}
	g_free(c->cluster);
	c->cluster = g_steal_pointer(&s.cluster);
	c->pc = g_steal_pointer(&s.pc);
	mf_release_pick_clear(&c->rel);
	c->rel = s.rel;
	s.rel.source = NULL;
	mf_settings_clear(&s);
	if (rc)
		return rc;
	if (!c->pc->parts->len) {
		mf_print_error("%s: no PartitionName line: jobs have nowhere to "
			     "run", o->conf);
		return MF_EXIT_INPUT;
	}
	mf_prio_conf_to_config(c->pc, &c->cfg);
	c->cfg.release = c->rel.release;
	c->fs_cfg.algo = mf_priority_flags_algo(c->pc->flags);
	c->fs_cfg.damp = c->pc->fs_damp;
	return MF_EXIT_OK;
}

/* Read every input, the jobs file too if WITH_JOBS.  Returns an exit
 * status (MF_EXIT_OK to go on). */
int mf_prun_load_inputs(_ctx_t *c, const _opts_t *o, bool with_jobs)
{
	mf_error_t e;
	int rc;

	if ((rc = _load_conf(c, o)))
		return rc;
	if (with_jobs && !(c->lines = mf_jobs_load(o->jobs, &e))) {
		mf_print_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	if (o->qos) {
		GHashTableIter it;
		gpointer k, v;

		if (!(c->qos = mf_qos_load(o->qos, &e))) {
			mf_print_error("%s", e.text);
			return MF_EXIT_INPUT;
		}
		g_hash_table_iter_init(&it, c->qos);
		while (g_hash_table_iter_next(&it, &k, &v))
			if (GPOINTER_TO_UINT(v) > c->cfg.qos_max_priority)
				c->cfg.qos_max_priority = GPOINTER_TO_UINT(v);
	} else if (c->cfg.weight_qos) {
		mf_prun_warn("PriorityWeightQOS is %u but no --qos file: every QOS "
		      "factor is 0", c->cfg.weight_qos);
	}
	if (o->assoc_prio) {
		GHashTableIter it;
		gpointer k, v;

		if (!(c->assoc_prio = mf_assoc_prio_load(o->assoc_prio, &e))) {
			mf_print_error("%s", e.text);
			return MF_EXIT_INPUT;
		}
		g_hash_table_iter_init(&it, c->assoc_prio);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			guint p = GPOINTER_TO_UINT(v);

			if (p != 0xffffffffU && p > c->cfg.assoc_max_priority)
				c->cfg.assoc_max_priority = p;
		}
	} else if (c->cfg.weight_assoc) {
		mf_prun_warn("PriorityWeightAssoc is %u but no --assoc-prio file: "
		      "every association factor is 0", c->cfg.weight_assoc);
	}
	if (o->assoc) {
		if (!(c->tree = mf_snapshot_load_cluster(o->assoc, o->usage,
							 c->cluster, &e))) {
			mf_print_error("%s", e.text);
			return MF_EXIT_INPUT;
		}
		mf_fairshare_compute(c->tree, &c->fs_cfg);
	} else if (c->cfg.weight_fs) {
		mf_prun_warn("PriorityWeightFairshare is %u but no --assoc file: "
		      "every fair-share factor is 0", c->cfg.weight_fs);
	}
	return MF_EXIT_OK;
}

static int _load(_ctx_t *c, const _opts_t *o)
{
	return mf_prun_load_inputs(c, o, true);
}

/* sprio lists a job if this holds (pending, eligible, not held). */
bool mf_prun_listed(const _ctx_t *c, const mf_job_line_t *l, time_t now)
{
	time_t use_time;

	if (!(c->pc->flags & MF_FLAG_CALCULATE_RUNNING) &&
	    strcmp(l->state, "PENDING"))
		return false;
	if (!strcmp(l->state, "REVOKED"))
		return false;
	use_time = (c->pc->flags & MF_FLAG_ACCRUE_ALWAYS) ? l->submit_time
							   : l->eligible_time;
	if (!use_time || use_time > now)
		return false;
	return l->priority != 0;
}

/* sprio's PRIORITY column: its own sum of the weighted figures, at least
 * 1, not capped at 32 bits. */
double mf_prun_sprio_sum(const mf_prio_result_t *r)
{
	double p;

	if (r->direct)
		return r->sum;
	p = r->w_age + r->w_assoc + r->w_fs + r->w_js + r->w_part + r->w_qos +
	    (double)r->site - (double)r->nice;
	for (uint32_t i = 0; i < r->tres_cnt; i++)
		if (r->w_tres[i])
			p += r->w_tres[i];
	if (isnan(p) || p < 1)
		p = 1;
	return p;
}

static void _add_row(_ctx_t *c, _job_t *j, const mf_prio_result_t *r)
{
	_row_t *row = g_new0(_row_t, 1);

	row->job = j;
	mf_prio_result_init(&row->r, r->tres_cnt);
	mf_prio_result_copy(&row->r, r);
	row->sprio_priority = mf_prun_sprio_sum(r);
	if (r->clamped && !c->clamp_warned) {
		mf_prun_warn("job %u: priority %.0f is above 4294967295 and is "
		      "clamped to it (Slurm does the same and logs it; sprio "
		      "shows the unclamped sum); lower the weights",
		      j->job.job_id, r->sum);
		c->clamp_warned = true;
	}
	g_ptr_array_add(c->rows, row);
}

static int _compute(_ctx_t *c, time_t now)
{
	uint32_t tres_cnt = c->pc->tres->cnt;

	c->jobs = g_ptr_array_new_with_free_func(_job_free);
	c->rows = g_ptr_array_new_with_free_func(_row_free);
	for (guint i = 0; i < c->lines->len; i++) {
		mf_job_line_t *l = c->lines->pdata[i];
		_job_t *j;
		int rc;

		if (!mf_prun_listed(c, l, now))
			continue;
		j = g_new0(_job_t, 1);
		j->line = l;
		g_ptr_array_add(c->jobs, j);
		if ((rc = mf_prun_build_job(c, j, now, NULL)) == MF_PRUN_BUILD_SKIP) {
			g_ptr_array_remove_index(c->jobs, c->jobs->len - 1);
			continue;
		}
		if (rc)
			return rc;
		mf_prio_result_init(&j->base, tres_cnt);
		mf_priority_compute(&c->cfg, &j->job, now, &j->base);
		if (!j->job.parts) {
			_add_row(c, j, &j->base);
			continue;
		}
		for (uint32_t k = 0; k < j->job.part_cnt; k++) {
			mf_prio_result_t r;

			mf_prio_result_init(&r, tres_cnt);
			mf_priority_in_part(&c->cfg, &j->job, &j->base,
					    j->job.parts[k], &r);
			_add_row(c, j, &r);
			mf_prio_result_clear(&r);
		}
	}
	return MF_EXIT_OK;
}

/* Rows by job id, a job's partitions in tier order (sprio's default). */
static gint _by_job_id(gconstpointer a, gconstpointer b)
{
	const _row_t *x = *(_row_t *const *)a, *y = *(_row_t *const *)b;

	if (x->job->job.job_id != y->job->job.job_id)
		return x->job->job.job_id < y->job->job.job_id ? -1 : 1;
	return 0;
}

/* Rows by priority, highest first, then by job id. */
static gint _by_priority(gconstpointer a, gconstpointer b)
{
	const _row_t *x = *(_row_t *const *)a, *y = *(_row_t *const *)b;

	if (x->r.priority != y->r.priority)
		return x->r.priority > y->r.priority ? -1 : 1;
	return _by_job_id(a, b);
}

/* The scheduler's order: partition PriorityTier (highest first), then
 * priority, then job id. */
int mf_prun_queue_cmp(const _row_t *x, const _row_t *y)
{
	uint32_t tx = x->r.partition ? x->r.partition->priority_tier : 0;
	uint32_t ty = y->r.partition ? y->r.partition->priority_tier : 0;

	if (tx != ty)
		return tx > ty ? -1 : 1;
	if (x->r.priority != y->r.priority)
		return x->r.priority > y->r.priority ? -1 : 1;
	if (x->job->job.job_id != y->job->job.job_id)
		return x->job->job.job_id < y->job->job.job_id ? -1 : 1;
	return 0;
}

/* J has several partitions (j->job.parts set) */
bool mf_prun_job_parts(const _job_t *j)
{
	return j->job.parts != NULL;
}

GPtrArray *mf_prun_part_ranked(const mf_prun_ctx_t *c, const mf_part_t *part)
{
	GPtrArray *ranked = g_ptr_array_new();

	for (guint i = 0; i < c->rows->len; i++) {
		_row_t *row = c->rows->pdata[i];

		if (row->r.partition == part)
			g_ptr_array_add(ranked, row);
	}
	g_ptr_array_sort(ranked, _by_priority);
	return ranked;
}

/* The job O->explain names, in *JOB.  Returns an exit status. */
static int _explained(const _ctx_t *c, const _opts_t *o, const _job_t **job)
{
	const _job_t *j = NULL;
	char *end;
	unsigned long id;

	errno = 0;
	id = strtoul(o->explain, &end, 10);
	if (!errno && id && *end == '_') {
		/* an array job as squeue names it: 100_3, 100_[4-9] */
		for (guint i = 0; i < c->lines->len && *end; i++) {
			const mf_job_line_t *l = c->lines->pdata[i];

			if (mf_job_named(l, o->explain)) {
				id = l->job_id;
				end = (char *)"";
			}
		}
		if (*end) {
			mf_print_error("job %s is not in %s", o->explain,
				     o->jobs);
			return MF_EXIT_INPUT;
		}
	}
	if (*end || errno || !id) {
		mf_print_error("--explain '%s': not a job id (JOBID, or an "
			     "array task ARRAYID_TASK)", o->explain);
		return MF_EXIT_USAGE;
	}
	for (guint i = 0; i < c->jobs->len; i++) {
		const _job_t *x = c->jobs->pdata[i];

		if (x->job.job_id == id)
			j = x;
	}
	if (!j) {
		bool known = false;

		for (guint i = 0; i < c->lines->len; i++) {
			const mf_job_line_t *l = c->lines->pdata[i];

			if (l->job_id == id) {
				known = true;
				mf_print_error("job %lu is not listed by sprio: "
					     "state %s, priority %u, eligible "
					     "%ld (held, not pending, or not "
					     "eligible yet at %ld)", id,
					     l->state, l->priority,
					     (long)l->eligible_time,
					     (long)o->now);
			}
		}
		if (!known)
			mf_print_error("job %lu is not in %s", id, o->jobs);
		return MF_EXIT_INPUT;
	}
	*job = j;
	return MF_EXIT_OK;
}

/* The inputs O lacks, from the snapshot directory DIR (kept in *SNAP);
 * its time unless NOW_SET.  Returns an exit status. */
static int _from_snapshot(const char *dir, mf_snapdir_t *snap, _opts_t *o,
			  bool now_set)
{
	mf_error_t e;

	if (mf_snapdir_open(dir, snap, &e)) {
		mf_print_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	o->conf = o->conf ? o->conf : snap->conf;
	o->jobs = o->jobs ? o->jobs : snap->jobs;
	o->qos = o->qos ? o->qos : snap->qos;
	o->assoc = o->assoc ? o->assoc : snap->assoc;
	o->assoc_prio = o->assoc_prio ? o->assoc_prio : snap->assoc_prio;
	if (!o->usage)
		o->usage = snap->assoc_mgr ? snap->assoc_mgr : snap->usage;
	if (!now_set)
		o->now = snap->taken;
	return MF_EXIT_OK;
}

int mf_prun_run(mf_prun_ctx_t *c, const mf_prun_opts_t *o)
{
	int rc;

	mf_prun_quiet(o->quiet);
	if (!(rc = _load(c, o)) && !(rc = _compute(c, o->now)))
		g_ptr_array_sort(c->rows, _by_job_id);
	mf_prun_quiet(false);
	return rc;
}

void mf_prun_clear(mf_prun_ctx_t *c)
{
	_ctx_clear(c);
	memset(c, 0, sizeof(*c));
}

int mf_prun_from_snapshot(const char *dir, mf_snapdir_t *snap,
			  mf_prun_opts_t *o, bool now_set)
{
	return _from_snapshot(dir, snap, o, now_set);
}

int mf_prun_explained(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		      const mf_prun_job_t **job)
{
	return _explained(c, o, job);
}

const mf_prun_row_t *mf_prun_job_row(const mf_prun_ctx_t *c,
				     const mf_prun_job_t *j)
{
	for (guint i = 0; i < c->rows->len; i++) {
		const _row_t *row = c->rows->pdata[i];

		if (row->job == j && row->r.partition == j->job.part)
			return row;
	}
	return NULL;
}
