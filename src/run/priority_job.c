/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_job: one job of a run built for the core (priority_run.h,
 * mf_prun_build_job()): its partitions in tier order, its QOS and
 * association priorities, its fair-share factor and trackable resources,
 * with what the jobs before found kept in a cache (mf_prun_bcache_t).
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "age_factor.h"
#include "exit_status.h"
#include "fairshare.h"
#include "job_fs_factor.h"
#include "priority.h"
#include "priority_flags.h"
#include "priority_job.h"
#include "release_table.h"

/* priority_run.h's types, by the names this file uses */
typedef mf_prun_job_t _job_t;
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

bool mf_prun_is_quiet(void)
{
	return _quiet;
}

void mf_prun_quiet(bool quiet)
{
	_quiet = quiet;
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
			mf_print_error("%s:%d: job %u has no partition and the "
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
		mf_print_error("%s:%d: job %u: %s", l->file, l->line, l->job_id,
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

