/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <sys/prctl.h>

#include "mfp_metrics.h"
#include "mfp_jobs.h"
#include "mfp_settings.h"

#include "src/core/level_fs.h"
#include "src/core/metrics.h"

/* A cycle's records and everything the writer needs to turn them into the
 * file: its own copies, never the settings (a reconfigure may free them). */
typedef struct {
	GStringChunk *names;       /* every label value of the cycle */
	GArray *assocs;            /* mf_metrics_assoc_t */
	GArray *pending;           /* mf_metrics_pending_t */
	GArray *oldest;            /* _first_t, one per pending row */
	mf_metrics_cycle_t cycle;
	double timestamp;
	char *file, *cluster;
	const char *algorithm;     /* a string literal */
} _set_t;

/* Two sets: the decay thread fills _sets[_fill]; the writer reads the other
 * one while _full.  The decay thread alone touches the rest of the
 * collection (_pending_at, _jobs_seen, _key, _collect_ms). */
static _set_t _sets[2];
static int _fill;
static bool _made;
static GHashTable *_pending_at;    /* "acct\nuser\npart" -> index + 1 */
static GHashTable *_jobs_seen;     /* job ids counted this cycle */
static GString *_key;
static double _collect_ms;         /* assoc lock held collecting */
static double _handoff_ms = NAN;   /* the last handoff (decay thread) */

/* The writer thread.  _mutex guards _full, _stop, _write_ms and _skipped;
 * no slurmctld lock is ever taken with it or by the writer. */
static pthread_mutex_t _mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t _cond = PTHREAD_COND_INITIALIZER;
static pthread_t _writer;
static bool _started, _full, _stop, _no_thread;
static double _write_ms = NAN;     /* the last file's formatting+writing */
static uint64_t _skipped;          /* files skipped: the writer was busy */
static char _last_error[512];      /* writer: last error logged ("" none) */

#define WRITER_NAME "mfprio_metrics"

#define _names (_sets[_fill].names)
#define _assocs (_sets[_fill].assocs)
#define _pending (_sets[_fill].pending)
#define _oldest (_sets[_fill].oldest)

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

static void _set_make(_set_t *set)
{
	set->names = g_string_chunk_new(1 << 16);
	set->assocs = g_array_new(FALSE, TRUE, sizeof(mf_metrics_assoc_t));
	set->pending = g_array_new(FALSE, TRUE, sizeof(mf_metrics_pending_t));
	set->oldest = g_array_new(FALSE, TRUE, sizeof(_first_t));
}

static void _set_free(_set_t *set)
{
	g_string_chunk_free(set->names);
	g_array_free(set->assocs, TRUE);
	g_array_free(set->pending, TRUE);
	g_array_free(set->oldest, TRUE);
	g_free(set->file);
	g_free(set->cluster);
	memset(set, 0, sizeof(*set));
}

void mfp_metrics_begin(void)
{
	if (!_made) {
		_set_make(&_sets[0]);
		_set_make(&_sets[1]);
		_fill = 0;
		_pending_at = g_hash_table_new(g_str_hash, g_str_equal);
		_jobs_seen = g_hash_table_new(g_direct_hash, g_direct_equal);
		_key = g_string_new(NULL);
		_made = true;
	}
	g_hash_table_remove_all(_pending_at);
	g_hash_table_remove_all(_jobs_seen);
	g_array_set_size(_assocs, 0);
	g_array_set_size(_pending, 0);
	g_array_set_size(_oldest, 0);
	g_string_chunk_clear(_names);
	_collect_ms = 0;
}

/* Write SET's file (the writer thread, or the decay thread when the writer
 * could not start).  Returns the time taken, in milliseconds. */
static double _write(const _set_t *set)
{
	mf_metrics_t m = { 0 };
	mf_error_t e;
	double t = mfp_stats_clock(0);

	m.cluster = set->cluster;
	m.source = "plugin";
	m.algorithm = set->algorithm;
	m.timestamp = set->timestamp;
	m.assocs = (const mf_metrics_assoc_t *) set->assocs->data;
	m.n_assocs = set->assocs->len;
	m.pending = (const mf_metrics_pending_t *) set->pending->data;
	m.n_pending = set->pending->len;
	m.cycle = &set->cycle;
	if (mf_metrics_write_file(set->file, &m, &e) < 0) {
		if (strcmp(e.text, _last_error))
			error("mfprio: metrics file (PriorityParameters %s): "
			      "%s; the plugin goes on without it, and says so "
			      "again only for another error", MF_METRICS_PARAM,
			      e.text);
		strlcpy(_last_error, e.text, sizeof(_last_error));
	} else if (_last_error[0]) {
		info("mfprio: metrics file %s written again", set->file);
		_last_error[0] = '\0';
	}
	t = mfp_stats_clock(0) - t;
	log_flag(PRIO, "mfprio: metrics: %u associations, %u pending rows, "
		 "formatted and written in %.3f ms (writer thread)",
		 set->assocs->len, set->pending->len, t);
	return t;
}

static void *_writer_thread(void *arg)
{
	if (prctl(PR_SET_NAME, WRITER_NAME, NULL, NULL, NULL) < 0)
		error("mfprio: cannot name the metrics writer thread %s: %m",
		      WRITER_NAME);
	slurm_mutex_lock(&_mutex);
	while (!_stop) {
		const _set_t *set;
		double ms;

		if (!_full) {
			slurm_cond_wait(&_cond, &_mutex);
			continue;
		}
		/* the decay thread leaves this set alone while _full */
		set = &_sets[1 - _fill];
		slurm_mutex_unlock(&_mutex);
		ms = _write(set);
		slurm_mutex_lock(&_mutex);
		_write_ms = ms;
		_full = false;
	}
	slurm_mutex_unlock(&_mutex);
	return NULL;
}

/* Start the writer when the first file is due.  False: it cannot run, the
 * decay thread writes the files itself (as before the writer). */
static bool _writer_start(void)
{
	int rc;

	if (_started)
		return true;
	if (_no_thread)
		return false;
	_stop = false;
	_full = false;
	if ((rc = pthread_create(&_writer, NULL, _writer_thread, NULL))) {
		error("mfprio: cannot start the metrics writer thread: %s; the "
		      "decay thread writes the metrics file itself",
		      strerror(rc));
		_no_thread = true;
		return false;
	}
	_started = true;
	return true;
}

void mfp_metrics_fini(void)
{
	if (_started) {
		/* the writer finishes the file it is writing, if any, and
		 * leaves a handed-over one unwritten */
		slurm_mutex_lock(&_mutex);
		_stop = true;
		slurm_cond_broadcast(&_cond);
		slurm_mutex_unlock(&_mutex);
		pthread_join(_writer, NULL);
		_started = false;
	}
	_stop = false;
	_full = false;
	_no_thread = false;
	_skipped = 0;
	_write_ms = NAN;
	_handoff_ms = NAN;
	_last_error[0] = '\0';
	if (!_made)
		return;
	g_hash_table_destroy(_pending_at);
	g_hash_table_destroy(_jobs_seen);
	g_string_free(_key, TRUE);
	_set_free(&_sets[0]);
	_set_free(&_sets[1]);
	_made = false;
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

	if (!_made)
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

	if (!_made || !IS_JOB_PENDING(job_ptr) ||
	    !mfp_job_listed(job_ptr, now, mfp_conf.slurm_flags) ||
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
	_set_t *set;
	double t = mfp_stats_clock(0);
	bool skip = false;

	if (!_made || !mfp_conf.metrics_file)
		return;
	mfp_stats_totals(&tot);
	set = &_sets[_fill];
	set->cycle = (mf_metrics_cycle_t) {
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
		.handoff_s = _handoff_ms / 1e3,
		.cycles = tot.cycles,
		.tree_builds = c->fs_tree_builds,
		.lock_total_s = tot.lock_ms_sum / 1e3,
		.cpu_total_s = tot.cpu_ms_sum / 1e3,
		.lock_max_s = tot.lock_ms_max / 1e3,
	};
	set->timestamp = (double) c->start;
	set->algorithm = mf_fs_algo_name(mfp_conf.fs.algo);
	/* copies: the writer never reads the settings */
	g_free(set->file);
	set->file = g_strdup(mfp_conf.metrics_file);
	g_free(set->cluster);
	set->cluster = g_strdup(mfp_conf.cluster);

	if (!_writer_start()) {
		set->cycle.write_s = _write_ms / 1e3;
		_write_ms = _write(set);
		_handoff_ms = mfp_stats_clock(0) - t;
		return;
	}
	slurm_mutex_lock(&_mutex);
	if (_full) {
		/* the writer is still busy with the last file: this one is
		 * skipped, the decay thread does not wait */
		_skipped++;
		skip = true;
	} else {
		set->cycle.write_s = _write_ms / 1e3;
		set->cycle.skipped = _skipped;
		_fill = 1 - _fill;
		_full = true;
		slurm_cond_signal(&_cond);
	}
	slurm_mutex_unlock(&_mutex);
	_handoff_ms = mfp_stats_clock(0) - t;
	log_flag(PRIO, "mfprio: metrics: %u associations, %u pending rows, "
		 "collect lock %.3f ms, %s in %.3f ms",
		 set->assocs->len, set->pending->len, _collect_ms,
		 skip ? "skipped (the writer is busy)" : "handed to the writer",
		 _handoff_ms);
}
