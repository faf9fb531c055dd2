/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "mfp_metrics.h"
#include "mfp_jobs.h"
#include "mfp_settings.h"

#include "src/core/level_fs.h"
#include "src/core/metrics.h"

/* One cycle's records; the decay thread alone touches them. */
static GStringChunk *_names;       /* every label value of the cycle */
static GArray *_assocs;            /* mf_metrics_assoc_t */
static GArray *_pending;           /* mf_metrics_pending_t */
static GArray *_oldest;            /* _first_t, one per _pending row */
static GHashTable *_pending_at;    /* "acct\nuser\npart" -> index + 1 */
static GHashTable *_jobs_seen;     /* job ids counted this cycle */
static GString *_key;
static double _collect_ms;         /* assoc lock held collecting */
static double _write_ms = NAN;     /* the last file's formatting+writing */
static char _last_error[512];      /* the last error logged ("" none) */

/* Which job of a _pending row was submitted first (ties: the lower id). */
typedef struct {
	time_t submit;
	uint32_t job_id;
} _first_t;

static double _fig(double v);
static const char *_name(const char *s);
static void _add_prio(job_record_t *job_ptr, const char *part, uint32_t p,
		      time_t now);

bool mfp_metrics_on(void)
{
	return mfp_conf.metrics_file != NULL;
}

void mfp_metrics_begin(void)
{
	if (!_names) {
		_names = g_string_chunk_new(1 << 16);
		_assocs = g_array_new(FALSE, TRUE, sizeof(mf_metrics_assoc_t));
		_pending = g_array_new(FALSE, TRUE,
				       sizeof(mf_metrics_pending_t));
		_oldest = g_array_new(FALSE, TRUE, sizeof(_first_t));
		_pending_at = g_hash_table_new(g_str_hash, g_str_equal);
		_jobs_seen = g_hash_table_new(g_direct_hash, g_direct_equal);
		_key = g_string_new(NULL);
	}
	g_hash_table_remove_all(_pending_at);
	g_hash_table_remove_all(_jobs_seen);
	g_array_set_size(_assocs, 0);
	g_array_set_size(_pending, 0);
	g_array_set_size(_oldest, 0);
	g_string_chunk_clear(_names);
	_collect_ms = 0;
}

void mfp_metrics_fini(void)
{
	if (!_names)
		return;
	g_hash_table_destroy(_pending_at);
	g_hash_table_destroy(_jobs_seen);
	g_array_free(_assocs, TRUE);
	g_array_free(_pending, TRUE);
	g_array_free(_oldest, TRUE);
	g_string_chunk_free(_names);
	g_string_free(_key, TRUE);
	_names = NULL;
	_write_ms = NAN;
	_last_error[0] = '\0';
}

/* A figure as sshare shows it: its unset markers (NaN, NO_VAL, the level
 * fair-share of FairShare=parent) as NAN, which the formatter leaves out. */
static double _fig(double v)
{
	if (isnan(v) || v == (double) NO_VAL ||
	    v == (double) MF_LEVEL_FS_UNSET)
		return NAN;
	return v;
}

/* S copied into this cycle's names ("" and NULL: NULL). */
static const char *_name(const char *s)
{
	return (s && *s) ? g_string_chunk_insert_const(_names, s) : NULL;
}

double mfp_metrics_collect_assocs(void)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK };
	bool fair_tree = mfp_conf.fs.algo == MF_FS_FAIR_TREE;
	slurmdb_assoc_rec_t *rec;
	list_itr_t *itr;
	double t;

	if (!_names)
		mfp_metrics_begin();
	assoc_mgr_lock(&locks);
	t = mfp_stats_clock(0);
	if (!assoc_mgr_assoc_list) {
		assoc_mgr_unlock(&locks);
		return 0;
	}
	itr = list_iterator_create(assoc_mgr_assoc_list);
	while ((rec = list_next(itr))) {
		slurmdb_assoc_usage_t *u = rec->usage;
		mf_metrics_assoc_t a = { 0 };
		bool root = rec == assoc_mgr_root_assoc;
		bool parent_fs = rec->shares_raw == SLURMDB_FS_USE_PARENT;

		if (!u || !rec->acct)
			continue;
		a.account = _name(rec->acct);
		a.user = _name(rec->user);
		a.partition = _name(rec->partition);
		if (root)
			a.parent = NULL;
		else if (rec->user)
			a.parent = a.account;
		else if (u->parent_assoc_ptr)
			a.parent = _name(u->parent_assoc_ptr->acct);
		else
			a.parent = _name(rec->parent_acct);
		for (slurmdb_assoc_rec_t *p = u->parent_assoc_ptr;
		     p && p->usage && a.depth < 1000;
		     p = p->usage->parent_assoc_ptr)
			a.depth++;
		a.shares_raw = (root || parent_fs) ? MF_METRICS_NO_SHARES :
			rec->shares_raw;
		a.shares_norm = _fig(u->shares_norm);
		a.usage_raw = _fig((double) u->usage_raw);
		a.usage_efctv = _fig((double) u->usage_efctv);
		/* sshare leaves an account's factor empty under Fair Tree,
		 * and the level fair-share of FairShare=parent */
		a.fs_factor = (fair_tree && !rec->user) ? NAN :
			_fig(u->fs_factor);
		a.level_fs = parent_fs ? NAN : _fig((double) u->level_fs);
		g_array_append_val(_assocs, a);
	}
	list_iterator_destroy(itr);
	t = mfp_stats_clock(0) - t;
	assoc_mgr_unlock(&locks);
	_collect_ms += t;
	return t;
}

/* Count JOB_PTR with priority P in partition PART (may be NULL) at time
 * NOW. */
static void _add_prio(job_record_t *job_ptr, const char *part, uint32_t p,
		      time_t now)
{
	slurmdb_assoc_rec_t *a = job_ptr->assoc_ptr;
	const char *acct = a && a->acct ? a->acct : job_ptr->account;
	const char *user = a && a->user ? a->user : NULL;
	mf_metrics_pending_t *row;
	_first_t *first;
	time_t submit = job_ptr->details ? job_ptr->details->submit_time : 0;
	gpointer at;
	char uid[32];

	if (!acct)
		acct = "";
	if (!user) {
		snprintf(uid, sizeof(uid), "%u", job_ptr->user_id);
		user = uid;
	}
	g_string_printf(_key, "%s\n%s\n%s", acct, user, part ? part : "");
	at = g_hash_table_lookup(_pending_at, _key->str);
	if (!at) {
		mf_metrics_pending_t n = { .account = _name(acct),
					   .user = _name(user),
					   .partition = _name(part) };

		_first_t f = { .submit = submit, .job_id = job_ptr->job_id };

		if (!n.account)
			n.account = "";
		n.oldest_wait = NAN;
		g_array_append_val(_pending, n);
		g_array_append_val(_oldest, f);
		at = GUINT_TO_POINTER(_pending->len);
		g_hash_table_insert(_pending_at,
				    g_string_chunk_insert_len(_names,
							      _key->str,
							      _key->len),
				    at);
	}
	row = &g_array_index(_pending, mf_metrics_pending_t,
			     GPOINTER_TO_UINT(at) - 1);
	first = &g_array_index(_oldest, _first_t, GPOINTER_TO_UINT(at) - 1);
	row->jobs++;
	row->prio_sum += p;
	if (row->jobs == 1 || p > row->prio_max)
		row->prio_max = p;
	if (row->jobs == 1 || submit < first->submit ||
	    (submit == first->submit && job_ptr->job_id <= first->job_id)) {
		first->submit = submit;
		first->job_id = job_ptr->job_id;
		row->oldest_prio = p;
		row->oldest_wait = submit ? difftime(now, submit) : NAN;
	}
}

void mfp_metrics_job(job_record_t *job_ptr, time_t now)
{
	gpointer id = GUINT_TO_POINTER(job_ptr->job_id);
	const uint32_t *arr;
	int n;

	if (!_names || !IS_JOB_PENDING(job_ptr) ||
	    !mfp_job_listed(job_ptr, now) ||
	    g_hash_table_contains(_jobs_seen, id))
		return;
	g_hash_table_add(_jobs_seen, id);
	arr = mfa_job_prio_peek(job_ptr, &n);
	if (arr && job_ptr->part_ptr_list) {
		int nq = MAX(mfa_job_qos_count(job_ptr), 1), i = 0;
		list_itr_t *itr = list_iterator_create(job_ptr->part_ptr_list);
		part_record_t *p;

		/* partition-major: the highest of a partition's QOS slots */
		while ((p = list_next(itr)) && (i + 1) * nq <= n) {
			uint32_t best = 0;

			for (int q = 0; q < nq; q++)
				best = MAX(best, arr[i * nq + q]);
			_add_prio(job_ptr, p->name, best, now);
			i++;
		}
		list_iterator_destroy(itr);
		if (i)
			return;
	}
	_add_prio(job_ptr, job_ptr->part_ptr ? job_ptr->part_ptr->name :
		  job_ptr->partition, job_ptr->priority, now);
}

void mfp_metrics_cycle_done(const mfp_cycle_t *c)
{
	mfp_stats_totals_t tot;
	mf_metrics_cycle_t mc;
	mf_metrics_t m = { 0 };
	mf_error_t e;
	double t = mfp_stats_clock(0);

	if (!_names || !mfp_conf.metrics_file)
		return;
	mfp_stats_totals(&tot);
	mc = (mf_metrics_cycle_t) {
		.start = (double) c->start,
		.wall_s = c->wall_ms / 1e3,
		.cpu_s = c->cpu_ms / 1e3,
		.lock_charge_s = c->lock_charge_ms / 1e3,
		.lock_prio_s = c->lock_prio_ms / 1e3,
		.lock_longest_s = c->lock_longest_ms / 1e3,
		.charge_holds = c->charge_slices,
		.prio_holds = c->slices,
		.assoc_lock_s = c->assoc_ms / 1e3,
		.tree_built = c->fs_tree_built,
		.jobs_total = c->jobs_total,
		.jobs_recomputed = c->jobs_recomputed,
		.jobs_changed = c->jobs_changed,
		.jobs_skipped = c->jobs_skipped,
		.collect_lock_s = _collect_ms / 1e3,
		.write_s = _write_ms / 1e3,
		.cycles = tot.cycles,
		.tree_builds = c->fs_tree_builds,
		.lock_total_s = tot.lock_ms_sum / 1e3,
		.cpu_total_s = tot.cpu_ms_sum / 1e3,
		.lock_max_s = tot.lock_ms_max / 1e3,
	};
	m.cluster = mfp_conf.cluster;
	m.source = "plugin";
	m.algorithm = mf_fs_algo_name(mfp_conf.fs.algo);
	m.timestamp = (double) c->start;
	m.assocs = (const mf_metrics_assoc_t *) _assocs->data;
	m.n_assocs = _assocs->len;
	m.pending = (const mf_metrics_pending_t *) _pending->data;
	m.n_pending = _pending->len;
	m.cycle = &mc;
	if (mf_metrics_write_file(mfp_conf.metrics_file, &m, &e) < 0) {
		if (strcmp(e.text, _last_error))
			error("mfprio: metrics file (PriorityParameters %s): "
			      "%s; the plugin goes on without it, and says so "
			      "again only for another error", MF_METRICS_PARAM,
			      e.text);
		strlcpy(_last_error, e.text, sizeof(_last_error));
	} else if (_last_error[0]) {
		info("mfprio: metrics file %s written again",
		     mfp_conf.metrics_file);
		_last_error[0] = '\0';
	}
	_write_ms = mfp_stats_clock(0) - t;
	log_flag(PRIO, "mfprio: metrics: %u associations, %u pending rows, "
		 "collect lock %.3f ms, formatted and written in %.3f ms",
		 _assocs->len, _pending->len, _collect_ms, _write_ms);
}
