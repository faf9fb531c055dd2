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

#include "cmd_error.h"
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
#include "slurm_conf.h"
#include "snapshot.h"
#include "snapshot_dir.h"
#include "timestr.h"

/* priority_run.h's types, by the names this file uses */
typedef mf_prun_job_t _job_t;
typedef mf_prun_row_t _row_t;
typedef mf_prun_opts_t _opts_t;
typedef mf_prun_ctx_t _ctx_t;

/* mf_prun_opts_t.quiet of the run under way */
static bool _quiet;

void mf_prun_warn(const char *fmt, ...)
{
	va_list ap;

	if (_quiet)
		return;

	fputs("mfprio: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

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
	mf_cmd_release_clear(&c->rel);
	g_clear_pointer(&c->cluster, g_free);
}

/* Whether CONF holds nothing at all: no setting, no record, and nothing
 * said about it (no warning, no Include left unread). */
static bool _conf_empty(const mf_conf_t *conf)
{
	return !conf->globals->len && !conf->records->len &&
	       !conf->warnings->len && !conf->missing->len;
}

/* Read the conf O names, with O's --set, into C's settings.  Returns an
 * exit status (MF_EXIT_OK to go on). */
static int _load_conf(_ctx_t *c, const _opts_t *o)
{
	mf_error_t e;
	mf_conf_t *conf = mf_conf_load(o->conf, &e);
	const mf_conf_pair_t *cn;

	if (!conf) {
		mf_cmd_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	if (_conf_empty(conf)) {
		mf_cmd_error("%s: no setting in it (an empty slurm.conf: jobs "
			     "have nowhere to run)", o->conf);
		mf_conf_free(conf);
		return MF_EXIT_INPUT;
	}
	g_free(c->cluster);
	c->cluster = g_strdup(o->cluster ? o->cluster :
			      (cn = mf_conf_get(conf, "ClusterName")) ?
			      cn->value : NULL);
	for (guint i = 0; o->sets && i < o->sets->len; i++) {
		const mf_conf_pair_t *p = o->sets->pdata[i];

		mf_conf_set(conf, p->key, p->value, p->file, p->line);
	}
	c->pc = mf_prio_conf_read(conf, &e);
	if (c->pc)
		mf_cmd_release_detect(&c->rel, conf, o->conf);
	mf_conf_free(conf);
	if (!c->pc) {
		mf_cmd_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	for (guint i = 0; i < c->pc->warnings->len; i++) {
		const char *w = c->pc->warnings->pdata[i];

		/* a bad --set value is warned about even when quiet */
		if (!_quiet || g_str_has_prefix(w, "--set:"))
			fprintf(stderr, "mfprio: warning: %s\n", w);
	}
	if (!c->pc->parts->len) {
		mf_cmd_error("%s: no PartitionName line: jobs have nowhere to "
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
		mf_cmd_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	if (o->qos) {
		GHashTableIter it;
		gpointer k, v;

		if (!(c->qos = mf_qos_load(o->qos, &e))) {
			mf_cmd_error("%s", e.text);
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
			mf_cmd_error("%s", e.text);
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
			mf_cmd_error("%s", e.text);
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

typedef struct {
	guint n;
	const mf_part_t *p[];
} _parts_t;

/* An entry of mf_prun_bcache_t.assoc: three interned strings (or NULL)
 * and their association (NULL: an empty slot). */
struct mf_prun_akey {
	const char *acct, *user, *part;
	mf_assoc_t *a;
};
typedef struct mf_prun_akey _akey_t;

static size_t _akey_home(const _akey_t *k, size_t cap)
{
	uint64_t h = (uintptr_t)k->acct * 0x9E3779B97F4A7C15ULL;

	h = (h ^ (uintptr_t)k->user) * 0x9E3779B97F4A7C15ULL;
	h = (h ^ (uintptr_t)k->part) * 0x9E3779B97F4A7C15ULL;
	return (size_t)(h >> 32) & (cap - 1);
}

/* The slot of KEY in BC's table: its entry, or the empty slot it goes
 * in. */
static _akey_t *_akey_slot(const mf_prun_bcache_t *bc, const _akey_t *k)
{
	size_t i = _akey_home(k, bc->assoc_cap);

	for (;; i = (i + 1) & (bc->assoc_cap - 1)) {
		_akey_t *e = &bc->assoc[i];

		if (!e->a || (e->acct == k->acct && e->user == k->user &&
			      e->part == k->part))
			return e;
	}
}

/* KEY -> A in BC's table (grown at half full). */
static void _akey_put(mf_prun_bcache_t *bc, const _akey_t *k, mf_assoc_t *a)
{
	_akey_t *e;

	if (2 * (bc->assoc_used + 1) > bc->assoc_cap) {
		_akey_t *old = bc->assoc;
		size_t old_cap = bc->assoc_cap;

		bc->assoc_cap = old_cap ? 2 * old_cap : 1024;
		bc->assoc = g_new0(_akey_t, bc->assoc_cap);
		for (size_t i = 0; i < old_cap; i++)
			if (old[i].a)
				*_akey_slot(bc, &old[i]) = old[i];
		g_free(old);
	}
	e = _akey_slot(bc, k);
	if (!e->a)
		bc->assoc_used++;
	*e = *k;
	e->a = a;
}

void mf_prun_bcache_init(mf_prun_bcache_t *bc)
{
	bc->parts = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					  g_free);
	bc->tres = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					 g_free);
	bc->assoc = NULL;
	bc->assoc_cap = bc->assoc_used = 0;
	bc->part_assocs = -1;
}

void mf_prun_bcache_clear(mf_prun_bcache_t *bc)
{
	g_clear_pointer(&bc->parts, g_hash_table_unref);
	g_clear_pointer(&bc->tres, g_hash_table_unref);
	g_clear_pointer(&bc->assoc, g_free);
	bc->assoc_cap = bc->assoc_used = 0;
}

/* The times, size and nice of J's line into its core inputs. */
static void _job_basics(const _ctx_t *c, _job_t *j, time_t now)
{
	const mf_job_line_t *l = j->line;
	mf_prio_job_t *pj = &j->job;

	pj->job_id = l->job_id;
	pj->priority = l->priority;
	pj->submit_time = l->submit_time;
	pj->begin_time = l->eligible_time;
	/* the controller's accrue time when the dump has one; under
	 * ACCRUE_ALWAYS a job without one (AccrueTime=Unknown: held,
	 * dependent, or dumped before the flag was on) gets its submit time,
	 * as the controller gives it on its next pass; else derived */
	if (l->has_accrue_time && l->accrue_time)
		pj->accrue_time = l->accrue_time;
	else if (l->has_accrue_time &&
		 !(c->pc->flags & MF_FLAG_ACCRUE_ALWAYS))
		pj->accrue_time = 0;
	else
		pj->accrue_time = mf_job_accrue_time(c->pc->flags,
						     l->submit_time,
						     l->eligible_time,
						     l->priority == 0,
						     l->dependent, false, now);
	pj->min_nodes = l->min_nodes;
	pj->cpu_cnt = l->max_cpus ? l->max_cpus : l->min_cpus;
	pj->time_limit = l->time_limit;
	pj->nice = l->nice;
	pj->site_factor = l->site_factor;
}

/* J's partitions the conf has, in tier order, into J->parts; the conf's
 * default one for a job without.  Returns how many, 0 for none left
 * (warned about), or -1 after the error. */
static int _job_parts(const _ctx_t *c, _job_t *j, mf_prun_bcache_t *bc)
{
	const mf_job_line_t *l = j->line;
	guint nparts, known = 0;
	const _parts_t *hit;
	_parts_t *keep;

	if (bc && (hit = g_hash_table_lookup(bc->parts, l->partitions))) {
		j->parts = (const mf_part_t **)hit->p;
		j->parts_cached = true;
		return (int)hit->n;
	}
	nparts = g_strv_length((gchar **)l->partitions);
	if (!nparts) {
		const mf_conf_part_t *d = mf_prio_conf_default_part(c->pc);

		if (!d) {
			mf_cmd_error("%s:%d: job %u has no partition and the "
				     "configuration has no Default=YES one",
				     l->file, l->line, l->job_id);
			return -1;
		}
		j->parts = g_new0(const mf_part_t *, 1);
		j->parts[0] = &d->part;
		return 1;
	}
	/* a partition the conf no longer has (dumps taken apart) is warned
	 * about and its row left out; no partition left, the job is */
	j->parts = g_new0(const mf_part_t *, nparts);
	for (guint i = 0; i < nparts; i++) {
		const mf_conf_part_t *p =
			mf_prio_conf_find_part(c->pc, l->partitions[i]);

		if (!p) {
			mf_prun_warn("%s:%d: job %u: partition '%s' is not in the "
			      "configuration: %s", l->file, l->line,
			      l->job_id, l->partitions[i], nparts > 1 ?
			      "the job's row there is left out" :
			      "the job is left out");
			continue;
		}
		j->parts[known++] = &p->part;
	}
	if (!known)
		return 0;
	mf_parts_sort_by_tier(j->parts, known);
	if (bc && known == nparts) {
		keep = g_malloc(sizeof(*keep) + sizeof(keep->p[0]) * known);
		keep->n = known;
		memcpy(keep->p, j->parts, sizeof(keep->p[0]) * known);
		g_hash_table_insert(bc->parts, (gpointer)l->partitions, keep);
	}
	return (int)known;
}

/* The QOS's and the association's priorities of J. */
static void _job_prios(const _ctx_t *c, _job_t *j)
{
	const mf_job_line_t *l = j->line;
	mf_prio_job_t *pj = &j->job;
	gpointer v;

	if (l->qos && c->qos) {
		if (!g_hash_table_lookup_extended(c->qos, l->qos, NULL, &v)) {
			/* dumps taken apart: a QOS made since */
			mf_prun_warn("%s:%d: job %u: QOS '%s' is not in the QOS file: "
			      "QOS factor 0", l->file, l->line, l->job_id,
			      l->qos);
		} else {
			pj->has_qos = true;
			pj->qos_priority = GPOINTER_TO_UINT(v);
		}
	}
	if (c->assoc_prio) {
		char *key = g_strdup_printf("%s\n%s", l->account, l->user);

		if (g_hash_table_lookup_extended(c->assoc_prio, key, NULL,
						 &v)) {
			pj->has_assoc = true;
			pj->assoc_priority = GPOINTER_TO_UINT(v);
		}
		g_free(key);
	}
}

/* The association of KEY's account, user and partition, else of the
 * account and user, through BC: NULL if none. */
static mf_assoc_t *_assoc_cached(const _ctx_t *c, mf_prun_bcache_t *bc,
				 const _akey_t *key)
{
	_akey_t bare = { key->acct, key->user, NULL, NULL };
	mf_assoc_t *a;

	if (bc->part_assocs < 0) {
		bc->part_assocs = 0;
		for (guint i = 0; i < c->tree->input_order->len; i++)
			if (((mf_assoc_t *)c->tree->input_order->pdata[i])
				    ->partition)
				bc->part_assocs = 1;
	}
	/* a site without associations of a partition (most): one entry
	 * a user and account, not one a partition too */
	if (!bc->part_assocs)
		key = &bare;
	if (bc->assoc_cap && (a = _akey_slot(bc, key)->a))
		return a;
	/* not cached: the partition's association, else the one without
	 * partition (cached on its own: looked up here only for a key with
	 * a partition, the bare key having just missed) */
	a = key->part ? mf_tree_find_user_part(c->tree, key->acct, key->user,
					       key->part) : NULL;
	if (!a && key->part && bc->assoc_cap)
		a = _akey_slot(bc, &bare)->a;
	if (!a) {
		if (!(a = mf_tree_find_user_part(c->tree, key->acct, key->user,
						 NULL)))
			return NULL;
		_akey_put(bc, &bare, a);
	}
	if (key->part)
		_akey_put(bc, key, a);
	return a;
}

/* J's fair-share factor from the tree, when there is one. */
static void _job_fs(const _ctx_t *c, _job_t *j, mf_prun_bcache_t *bc)
{
	const mf_job_line_t *l = j->line;
	mf_prio_job_t *pj = &j->job;
	_akey_t key = { l->account, l->user,
			l->partitions ? l->partitions[0] : NULL, NULL };
	mf_assoc_t *a = NULL;

	j->fs_note = "no association data";
	if (!c->tree)
		return;
	/* the user's association on the job's partition, else the one
	 * without partition, as slurmctld picks it (a job of several
	 * partitions has no per-partition association: slurmctld refuses
	 * such a submission) */
	a = bc ? _assoc_cached(c, bc, &key) :
		 mf_tree_find_job_assoc(c->tree, l->account, l->user,
					key.part);
	if (!a) {
		mf_prun_warn("%s:%d: job %u: no association for user %s in account "
		      "%s: fair-share factor 0", l->file, l->line, l->job_id,
		      l->user, l->account);
		j->fs_note = "no association";
	} else {
		pj->has_assoc = true;
		j->fs_note = mf_fs_algo_name(c->fs_cfg.algo);
	}
	pj->fs_factor = mf_job_fs_factor(a, c->fs_cfg.algo, c->fs_cfg.damp);
}

/* J's TRES counts.  Returns an exit status. */
static int _job_tres(const _ctx_t *c, _job_t *j, mf_prun_bcache_t *bc)
{
	const mf_job_line_t *l = j->line;
	size_t size = sizeof(uint64_t) * c->pc->tres->cnt;
	const uint64_t *hit;
	GPtrArray *unknown;
	mf_error_t e;

	if (bc && l->tres && (hit = g_hash_table_lookup(bc->tres, l->tres))) {
		j->tres_cnt = (uint64_t *)hit;
		j->tres_cached = true;
		j->job.tres_cnt = j->tres_cnt;
		return MF_EXIT_OK;
	}
	unknown = g_ptr_array_new_with_free_func(g_free);
	j->tres_cnt = g_new0(uint64_t, c->pc->tres->cnt);
	if (mf_tres_counts_parse(c->pc->tres, l->tres, j->tres_cnt, unknown,
				 &e)) {
		mf_cmd_error("%s:%d: job %u: %s", l->file, l->line, l->job_id,
			     e.text);
		g_ptr_array_unref(unknown);
		return MF_EXIT_INPUT;
	}
	for (guint i = 0; i < unknown->len; i++)
		mf_prun_warn("%s:%d: job %u: TRES '%s' is not tracked by the "
		      "configuration (AccountingStorageTRES); ignored",
		      l->file, l->line, l->job_id,
		      (char *)unknown->pdata[i]);
	if (bc && l->tres && !unknown->len)
		g_hash_table_insert(bc->tres, (gpointer)l->tres,
				    g_memdup2(j->tres_cnt, size));
	g_ptr_array_unref(unknown);
	j->job.tres_cnt = j->tres_cnt;
	return MF_EXIT_OK;
}

/* Fill J's core inputs from its line (BC: what jobs before found, or
 * NULL).  Returns an exit status, or MF_PRUN_BUILD_SKIP for a job none of
 * whose partitions the conf has. */
int mf_prun_build_job(_ctx_t *c, _job_t *j, time_t now, mf_prun_bcache_t *bc)
{
	mf_prio_job_t *pj = &j->job;
	int nparts;

	_job_basics(c, j, now);
	if ((nparts = _job_parts(c, j, bc)) < 0)
		return MF_EXIT_INPUT;
	if (!nparts)
		return MF_PRUN_BUILD_SKIP;
	pj->part = j->parts[0];
	if (nparts > 1) {
		pj->parts = j->parts;
		pj->part_cnt = (uint32_t)nparts;
	}
	_job_prios(c, j);
	_job_fs(c, j, bc);
	return _job_tres(c, j, bc);
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
			mf_cmd_error("job %s is not in %s", o->explain,
				     o->jobs);
			return MF_EXIT_INPUT;
		}
	}
	if (*end || errno || !id) {
		mf_cmd_error("--explain '%s': not a job id (JOBID, or an "
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
				mf_cmd_error("job %lu is not listed by sprio: "
					     "state %s, priority %u, eligible "
					     "%ld (held, not pending, or not "
					     "eligible yet at %ld)", id,
					     l->state, l->priority,
					     (long)l->eligible_time,
					     (long)o->now);
			}
		}
		if (!known)
			mf_cmd_error("job %lu is not in %s", id, o->jobs);
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
		mf_cmd_error("%s", e.text);
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

	_quiet = o->quiet;
	if (!(rc = _load(c, o)) && !(rc = _compute(c, o->now)))
		g_ptr_array_sort(c->rows, _by_job_id);
	_quiet = false;
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
