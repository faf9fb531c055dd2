/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_decay: the thread that runs every PriorityCalcPeriod, and when jobs
 * are charged (what a charge books, and where: mfp_usage).
 *
 * One tick at time NOW:
 *   1. PriorityUsageResetPeriod: zero usage when a reset is due;
 *   2. decay every association's and QOS's usage by D^(NOW - last tick);
 *   3. charge running jobs for [last tick, NOW], and finished jobs that
 *      nobody charged for [last tick, their end], in slices of the job
 *      write lock (with assoc_mgr's locks inside, the documented order);
 *      last tick := NOW in the last hold;
 *   4. fair-share of every association through the core (assoc lock);
 *   5. every pending job's priority, in slices of the job write lock;
 *   6. StateSaveLocation/priority_last_decay_ran, then the plugin's own
 *      record of every association's and QOS's usage (mfp_record.h).
 *
 * Usage is never lost: slurmctld calls priority_p_job_end() at a job's end
 * only with AccountingStorageEnforce=limits.  Without it, step 3 charges
 * the finished jobs, and between ticks a light sweep does the same before
 * MinJobAge can purge their records.  Jobs charged by a sweep are
 * remembered until the next tick so that they are charged once.  A running
 * job that is requeued shows no end at all once slurmctld has cleared its
 * run: every run is noted (mfp_runs.h) as it is charged at a tick and, for
 * a run begun since, at a look every RUNS_CHECK seconds between ticks; a
 * noted run the job no longer shows is charged to its end, at the next
 * tick or look (a requeued batch job cannot run again before its launch
 * credential expires, two minutes by default, so a look sees it waiting,
 * with the requeue's time as its last activity).
 */
#include <errno.h>
#include <sys/prctl.h>
#include <sys/time.h>

#include "mfp_decay.h"
#include "mfp_jobs.h"
#include "mfp_settings.h"
#include "mfp_metrics.h"
#include "mfp_record.h"
#include "mfp_runs.h"
#include "mfp_state.h"
#include "mfp_stats.h"
#include "mfp_tree.h"
#include "mfp_usage.h"

#include "src/core/decay.h"

#define THREAD_NAME "mfprio_decay"
#define RUNS_CHECK 10           /* seconds between checks of noted runs */

static pthread_t _thread;
static pthread_mutex_t _lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t _cond = PTHREAD_COND_INITIALIZER;
static bool _stop, _reconfig, _ready, _running;

/* Guarded by slurmctld's job write lock (every writer and every reader
 * holds it). */
static time_t _last_ran;
static double _decay_factor = 1.0;   /* per second */
static GHashTable *_swept;           /* job id -> end time charged */
static GHashTable *_charged_now;     /* ids of the jobs the charging pass
				      * running now has charged up to
				      * _pass_now (empty between passes) */
static time_t _pass_now;             /* that pass's time; 0 between */
static bool _charged_file_stale;     /* mfprio_charged_jobs names jobs of
				      * before the last tick (decay thread) */
static time_t _last_reset;           /* as read at start (the thread keeps
				      * its own afterwards) */

static void *_decay_thread(void *arg);
static void _tick(time_t now, time_t *last_reset, uint16_t *reset_period);
static void _sweep(void);
static void _charge_running(job_record_t *job_ptr, time_t now);
static int _charge_finished(void *x, void *arg);
static mf_reset_period_t _mf_reset(uint16_t p);
static uint32_t _sweep_interval(void);
static void _settle_runs(time_t now);

time_t mfp_last_ran(void)
{
	return _last_ran;
}

static mf_reset_period_t _mf_reset(uint16_t p)
{
	switch (p) {
	case PRIORITY_RESET_NOW:
		return MF_RESET_NOW;
	case PRIORITY_RESET_DAILY:
		return MF_RESET_DAILY;
	case PRIORITY_RESET_WEEKLY:
		return MF_RESET_WEEKLY;
	case PRIORITY_RESET_MONTHLY:
		return MF_RESET_MONTHLY;
	case PRIORITY_RESET_QUARTERLY:
		return MF_RESET_QUARTERLY;
	case PRIORITY_RESET_YEARLY:
		return MF_RESET_YEARLY;
	default:
		return MF_RESET_NONE;
	}
}

/* Up to when JOB_PTR's usage is charged: the last tick, or the time of
 * the charging pass under way if that pass has charged it already. */
static time_t _charged_until(job_record_t *job_ptr)
{
	if (_pass_now && _charged_now &&
	    g_hash_table_contains(_charged_now,
				  GUINT_TO_POINTER(job_ptr->job_id)))
		return _pass_now;
	return _last_ran;
}

void mfp_charge_job_end(job_record_t *job_ptr)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };

	if (!mfp_conf.calc_fairshare)
		return;
	assoc_mgr_lock(&locks);
	mfp_usage_charge(job_ptr, _charged_until(job_ptr), time(NULL), true,
			 true, _decay_factor);
	assoc_mgr_unlock(&locks);
	mfp_runs_forget(job_ptr->job_id);
	if (_swept)
		g_hash_table_remove(_swept, GUINT_TO_POINTER(job_ptr->job_id));
}

/* What _charge_finished is asked. */
typedef struct {
	time_t upto;            /* charge no further than this (0: to the
				 * job's end) */
	int charged;            /* jobs charged */
} finish_arg_t;

/* Charge a job of the charging pass at time NOW: a running one up to NOW
 * (it is remembered as charged so far), one that ended since the last tick
 * up to its end (no further than NOW: the next tick charges the rest of a
 * job that ended while the pass ran). */
static void _charge_running(job_record_t *job_ptr, time_t now)
{
	if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr)) {
		finish_arg_t fin = { .upto = now };

		/* (with limits slurmctld reported its end: nothing here) */
		if (mfp_usage_limits())
			return;
		(void) _charge_finished(job_ptr, &fin);
		g_hash_table_add(_charged_now,
				 GUINT_TO_POINTER(job_ptr->job_id));
		return;
	}
	if (((mfp_conf.slurm_flags & PRIORITY_FLAGS_CALCULATE_RUNNING) ||
	     !IS_JOB_PENDING(job_ptr)) && !IS_JOB_POWER_UP_NODE(job_ptr) &&
	    job_ptr->start_time && job_ptr->assoc_ptr) {
		double billable = mfp_usage_charge(job_ptr, _last_ran, now,
						   false, false,
						   _decay_factor);

		g_hash_table_add(_charged_now,
				 GUINT_TO_POINTER(job_ptr->job_id));
		/* with limits slurmctld reports the end of every run */
		if (billable >= 0 && !mfp_usage_limits()) {
			mfp_run_t run;

			mfp_usage_run_of(job_ptr, now, billable, &run);
			mfp_runs_note(job_ptr->job_id, &run);
		}
	}
}

/* When a noted run of JOB_PTR ended, as the job's record tells it, or 0:
 * its end time while the requeued job completes, then the time of the
 * requeue, which slurmctld keeps as the job's last activity until it runs
 * again; either only after the run's last charge and before the job's
 * next run (or NOW). */
static time_t _run_end(job_record_t *job_ptr, const mfp_run_t *run,
		       time_t now)
{
	time_t t[2] = { job_ptr->end_time, job_ptr->time_last_active };

	for (int i = 0; i < 2; i++) {
		if (t[i] <= run->charged_to)
			continue;
		if (job_ptr->start_time ? t[i] < job_ptr->start_time :
		    t[i] <= now)
			return t[i];
	}
	return 0;
}

/* mfp_runs_each: a noted run that its job no longer shows (requeued,
 * pending or running again) has ended: charge it to its end, and forget
 * it (ARG: the time now). */
static bool _settle_run(uint32_t job_id, const mfp_run_t *run, void *arg)
{
	time_t now = *(time_t *) arg, end;
	job_record_t *job_ptr = mfa_find_job(job_id);

	if (!job_ptr)
		return true;            /* gone: charged as it ended */
	if (job_ptr->start_time == run->start)
		return false;           /* the same run, charged as it goes */
	if (!job_ptr->assoc_ptr)
		return true;
	end = _run_end(job_ptr, run, now);
	if (end)
		mfp_usage_charge_run(job_ptr, run, end, _decay_factor);
	else
		info("mfprio: %pJ: its run of %ld ended after %ld, when is "
		     "not known (requeued and started again between two "
		     "checks): what it ran after %ld is not charged",
		     job_ptr, (long) run->start, (long) run->charged_to,
		     (long) run->charged_to);
	return true;
}

/* Charge the noted runs that have ended.  Caller holds the job write lock
 * and _charge_locks; a no-op with limits. */
static void _settle_runs(time_t now)
{
	if (!mfp_usage_limits() && mfp_runs_count())
		mfp_runs_each(_settle_run, &now);
}

/*
 * list_for_each: a job that ended after the last tick and that slurmctld
 * did not report (no limits enforcement): charge it up to its end, once
 * (ARG: a finish_arg_t).
 */
static int _charge_finished(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	finish_arg_t *fin = arg;
	gpointer key = GUINT_TO_POINTER(job_ptr->job_id);
	time_t to;

	if (mfp_usage_limits() || !job_ptr->assoc_ptr || !job_ptr->start_time ||
	    !job_ptr->end_time || job_ptr->end_time <= _last_ran ||
	    job_ptr->end_time_exp == (time_t) NO_VAL)
		return 0;
	if (!IS_JOB_FINISHED(job_ptr) && !IS_JOB_COMPLETING(job_ptr))
		return 0;
	/* charged already for this very end; a requeued job that ended
	 * again has another end time and its new run is charged */
	if (g_hash_table_lookup(_swept, key) ==
	    GSIZE_TO_POINTER(job_ptr->end_time))
		return 0;
	to = job_ptr->end_time;
	if (fin->upto && to > fin->upto)
		to = fin->upto;
	mfp_usage_charge(job_ptr, _last_ran, to, true, false, _decay_factor);
	if (to == job_ptr->end_time) {
		g_hash_table_insert(_swept, key,
				    GSIZE_TO_POINTER(job_ptr->end_time));
		mfp_runs_forget(job_ptr->job_id);
	}
	fin->charged++;
	return 0;
}

double mfp_fairshare_recompute(bool *built, uint64_t *builds)
{
	uint64_t before;
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };
	mf_fs_config_t cfg;
	mf_error_t fs_err;
	double t;

	mfp_conf_enter();
	cfg = mfp_conf.fs;
	mfp_conf_leave();
	assoc_mgr_lock(&locks);
	t = mfp_stats_clock(0);
	before = mfp_tree_builds();
	if (mfp_tree_recompute(&cfg, &fs_err) < 0)
		error("mfprio: fair-share not recomputed: %s", fs_err.text);
	if (built)
		*built = mfp_tree_builds() != before;
	if (builds)
		*builds = mfp_tree_builds();
	t = mfp_stats_clock(0) - t;
	assoc_mgr_unlock(&locks);
	return t;
}

/*
 * Steps 3 and 5 of a tick go over every job without holding the job write
 * lock for long: a walk of slurmctld's job list that stops after about
 * SLICE_MS, lets go of the lock (the RPCs and the scheduler waiting for it
 * get it) and takes it again to go on where it stopped.  The walk keeps
 * its place with a list iterator, which slurmctld's list keeps valid while
 * jobs are added and removed between slices (a sort would send it back to
 * the head: the visits below are harmless to repeat).  The job list lives
 * until after the plugin is unloaded, so it outlives every walk.
 */
/* what charging and the sweep write (usage, QOS and association
 * tallies), and what pricing reads */
static const assoc_mgr_lock_t _charge_locks = {
	.assoc = WRITE_LOCK, .qos = WRITE_LOCK, .tres = READ_LOCK };
static const assoc_mgr_lock_t _price_locks = {
	.assoc = READ_LOCK, .qos = READ_LOCK };

#define SLICE_MS 2.0
#define SLICE_CHECK 32          /* jobs between two looks at the clock */

typedef struct {
	void (*first)(void *arg);       /* in the first hold, before the walk */
	void (*visit)(job_record_t *job_ptr, void *arg);
	void (*last)(void *arg);        /* in the last hold, after it */
	void *arg;
	const assoc_mgr_lock_t *assoc_locks; /* visit under these assoc_mgr
					      * locks too (NULL: none) */
	double lock_ms;         /* job write lock held, all holds */
	uint32_t holds;
} slices_t;

static void _in_slices(slices_t *sl, mfp_cycle_t *cycle)
{
	slurmctld_lock_t job_write_lock = { .job = WRITE_LOCK,
					    .node = READ_LOCK,
					    .part = READ_LOCK };
	assoc_mgr_lock_t locks = { 0 };
	list_t *jobs = mfa_job_list();
	list_itr_t *itr = NULL;
	bool done = false;

	if (sl->assoc_locks)
		locks = *sl->assoc_locks;

	while (!done) {
		double t, held;

		mfa_ctld_lock(job_write_lock);
		t = mfp_stats_clock(0);
		if (sl->assoc_locks)
			assoc_mgr_lock(&locks);
		if (!itr) {
			if (sl->first)
				sl->first(sl->arg);
			/* no job list (a program standing in for
			   slurmctld may have none): an empty walk */
			if (jobs)
				itr = list_iterator_create(jobs);
		}
		for (int n = 0; ; n++) {
			job_record_t *job_ptr = itr ? list_next(itr) : NULL;

			if (!job_ptr) {
				done = true;
				break;
			}
			sl->visit(job_ptr, sl->arg);
			if (n % SLICE_CHECK == SLICE_CHECK - 1 &&
			    mfp_stats_clock(0) - t >= SLICE_MS)
				break;
		}
		if (done) {
			if (itr)
				list_iterator_destroy(itr);
			if (sl->last)
				sl->last(sl->arg);
		}
		if (sl->assoc_locks)
			assoc_mgr_unlock(&locks);
		held = mfp_stats_clock(0) - t;
		mfa_ctld_unlock(job_write_lock);
		sl->lock_ms += held;
		sl->holds++;
		cycle->lock_longest_ms = MAX(cycle->lock_longest_ms, held);
	}
}

/* --- step 3: usage of running jobs, and of jobs that ended --- */

typedef struct {
	time_t now;
	bool forget;            /* the charged-jobs file is to be emptied */
} charge_pass_t;

static void _charge_first(void *arg)
{
	charge_pass_t *cp = arg;

	site_factor_g_update();
	/* before any run is noted anew: a job requeued and started again
	 * since the last tick shows its new run */
	_settle_runs(cp->now);
	_pass_now = cp->now;
}

static void _visit_charge(job_record_t *job_ptr, void *arg)
{
	charge_pass_t *cp = arg;

	if (g_hash_table_contains(_charged_now,
				  GUINT_TO_POINTER(job_ptr->job_id)))
		return;                 /* met again after a list sort */
	if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr)) {
		if (job_ptr->end_time <= _last_ran)
			return;
	} else if (IS_JOB_PENDING(job_ptr) &&
		   !((mfp_conf.slurm_flags &
		      PRIORITY_FLAGS_CALCULATE_RUNNING) &&
		     job_ptr->start_time)) {
		return;
	}
	_charge_running(job_ptr, cp->now);
}

/* The last tick becomes NOW; what this pass remembered is forgotten. */
static void _charge_last(void *arg)
{
	charge_pass_t *cp = arg;

	_last_ran = cp->now;
	_pass_now = 0;
	g_hash_table_remove_all(_charged_now);
	cp->forget = g_hash_table_size(_swept) > 0;
	g_hash_table_remove_all(_swept);
}

/*
 * Charge every running job up to NOW, and what ended since the last tick.
 * While the slices run, a job that ends is charged by priority_p_job_end
 * from where this pass left it (_charged_until).  Returns whether the
 * charged-jobs file must be emptied.
 */
static bool _charge_jobs(time_t now, mfp_cycle_t *cycle)
{
	charge_pass_t cp = { .now = now };
	slices_t sl = { .first = _charge_first, .visit = _visit_charge,
			.last = _charge_last, .arg = &cp,
			.assoc_locks = &_charge_locks };

	_in_slices(&sl, cycle);
	cycle->lock_charge_ms = sl.lock_ms;
	cycle->charge_slices = sl.holds;
	return cp.forget;
}

/* --- step 5: every pending job's priority --- */

static void _visit_price(job_record_t *job_ptr, void *arg)
{
	(void) mfp_job_reprioritize(job_ptr, arg);
	if (mfp_metrics_on())
		mfp_metrics_job(job_ptr, ((mfp_pass_t *) arg)->now);
}

static void _count_jobs(void *arg)
{
	list_t *jobs = mfa_job_list();

	((mfp_pass_t *) arg)->total = jobs ? list_count(jobs) : 0;
}

static void _price_jobs(mfp_pass_t *pass, mfp_cycle_t *cycle)
{
	slices_t sl = { .first = _count_jobs, .visit = _visit_price,
			.arg = pass, .assoc_locks = &_price_locks };

	pass->assoc_locked = true;

	_in_slices(&sl, cycle);
	cycle->lock_prio_ms = sl.lock_ms;
	cycle->slices = sl.holds;
	cycle->jobs_total = pass->total;
}

/* --- between ticks: jobs that ended, before MinJobAge purges them --- */

typedef struct {
	finish_arg_t fin;
	GArray *record;         /* the charged jobs to write down, or NULL */
} sweep_t;

static void _visit_sweep(job_record_t *job_ptr, void *arg)
{
	(void) _charge_finished(job_ptr, &((sweep_t *) arg)->fin);
}

static void _sweep_last(void *arg)
{
	sweep_t *sw = arg;

	if (sw->fin.charged)
		sw->record = mfp_charged_copy(_swept);
}

static void _sweep(void)
{
	sweep_t sw = { .record = NULL };
	slices_t sl = { .visit = _visit_sweep, .last = _sweep_last,
			.arg = &sw, .assoc_locks = &_charge_locks };
	mfp_cycle_t unused = { 0 };

	if (mfp_usage_limits() || !_last_ran)
		return;
	_in_slices(&sl, &unused);
	/* remembered across a restart until the next pass; written with no
	 * slurmctld lock held (the disk may be slow) */
	if (sw.record)
		(void) mfp_charged_write(sw.record);
}

/* --- between ticks: runs requeued, and runs begun --- */

/*
 * Every RUNS_CHECK seconds (no limits): charge the noted runs that have
 * ended (first hold), then note every run begun since the last look, so
 * that a run that starts and is requeued between two ticks is known too
 * (charged from its start).
 */
static void _check_first(void *arg)
{
	_settle_runs(*(time_t *) arg);
}

static void _visit_note(job_record_t *job_ptr, void *arg)
{
	const mfp_run_t *had;
	mfp_run_t run;

	(void) arg;
	if (!IS_JOB_RUNNING(job_ptr) || !job_ptr->start_time ||
	    !job_ptr->assoc_ptr)
		return;
	had = mfp_runs_get(job_ptr->job_id);
	if (had && had->start == job_ptr->start_time)
		return;
	mfp_usage_run_of(job_ptr, MAX(job_ptr->start_time, _last_ran),
			 mfa_job_billable(job_ptr, job_ptr->start_time,
					  true), &run);
	mfp_runs_note(job_ptr->job_id, &run);
}

static void _check_runs(void)
{
	time_t now = time(NULL);
	slices_t sl = { .first = _check_first, .visit = _visit_note,
			.arg = &now, .assoc_locks = &_charge_locks };
	mfp_cycle_t unused = { 0 };

	if (mfp_usage_limits() || !_last_ran)
		return;
	_in_slices(&sl, &unused);
}

/* WAKE := AT when AT is set and earlier. */
static void _earlier(struct timespec *wake, time_t at)
{
	if (at && at < wake->tv_sec) {
		wake->tv_sec = at;
		wake->tv_nsec = 0;
	}
}

static void _tick(time_t now, time_t *last_reset, uint16_t *reset_period)
{
	mf_reset_period_t rp = _mf_reset(*reset_period);
	time_t boundary;
	mfp_cycle_t cycle = { .start = now };
	mfp_pass_t pass = { .now = now };
	double wall0 = mfp_stats_clock(0), cpu0 = mfp_stats_clock(1);

	/* 1. reset */
	if (rp == MF_RESET_NOW) {
		mfp_usage_forget();
		*reset_period = PRIORITY_RESET_NONE;
		*last_reset = now;
	} else if (mf_reset_due(rp, *last_reset, now, &boundary)) {
		mfp_usage_forget();
		*last_reset = boundary;
	}

	/* 2. decay since the last tick */
	if (_last_ran && now > _last_ran) {
		double f = mf_decay_over(_decay_factor,
					 difftime(now, _last_ran));

		log_flag(PRIO, "mfprio: decay over %ld s: %.15f",
			 (long) (now - _last_ran), f);
		mfp_usage_age(f);
	}

	/* 3. new usage, in slices */
	if (_charge_jobs(now, &cycle))
		_charged_file_stale = true;

	/* 4. fair-share (on the tree kept from the last cycle when the
	 * associations are the same) */
	cycle.assoc_ms = mfp_fairshare_recompute(&cycle.fs_tree_built,
						 &cycle.fs_tree_builds);
	/* the figures of the metrics file, as sshare reads them now */
	if (mfp_metrics_on()) {
		mfp_metrics_begin();
		(void) mfp_metrics_collect_assocs();
	}

	/* 5. priorities, in slices */
	_price_jobs(&pass, &cycle);

	/* 6. state; only once it says NOW may the record of jobs charged
	 * before NOW go (killed in between, a restart must still know them) */
	if (mfp_state_write(now, *last_reset) == 0) {
		if (_charged_file_stale && mfp_charged_write(NULL) == 0)
			_charged_file_stale = false;
		/* only after the tick is saved: a record must never be ahead
		 * of the time running jobs are charged from after a restart */
		(void) mfp_record_write(mfp_record_take(now));
	}

	cycle.jobs_recomputed = pass.recomputed;
	cycle.jobs_changed = pass.changed;
	cycle.jobs_skipped = pass.skipped;
	cycle.cpu_ms = mfp_stats_clock(1) - cpu0;
	cycle.wall_ms = mfp_stats_clock(0) - wall0;
	mfp_stats_cycle_done(&cycle);
	/* no slurmctld lock held: the file may be large, the disk slow */
	if (mfp_metrics_on())
		mfp_metrics_cycle_done(&cycle);
}

/* Seconds between sweeps: often enough that MinJobAge cannot purge a job
 * before it is charged; 0 when no sweep is needed. */
static uint32_t _sweep_interval(void)
{
	uint32_t age = slurm_conf.min_job_age, period = mfp_conf.calc_period;

	if (mfp_usage_limits() || !age)
		return 0;
	if (age / 2 >= period)
		return 0;
	return MAX(age / 2, 5);
}

static void *_decay_thread(void *arg)
{
	time_t last_reset, now;
	uint16_t reset_period;
	struct timespec tick, wake;
	struct timeval tv;

	if (prctl(PR_SET_NAME, THREAD_NAME, NULL, NULL, NULL) < 0)
		error("mfprio: cannot name the decay thread %s: %m",
		      THREAD_NAME);

	/* the thread holds the settings of its pass; it takes the current
	 * ones again at the top of each loop */
	mfp_conf_enter();
	reset_period = mfp_conf.reset_period;
	last_reset = _last_reset;

	slurm_mutex_lock(&_lock);
	_ready = true;
	slurm_cond_broadcast(&_cond);
	slurm_mutex_unlock(&_lock);

	mfp_usage_reserve_catch_up(_last_ran);

	gettimeofday(&tv, NULL);
	tick.tv_sec = tv.tv_sec;
	tick.tv_nsec = tv.tv_usec * 1000;
	now = tv.tv_sec;
	slurm_mutex_lock(&_lock);
	while (!_stop) {
		time_t sweep_at = 0, check_at = 0;

		_running = true;
		mfp_conf_leave();
		mfp_conf_enter();
		if (_reconfig) {
			_decay_factor = mfp_conf.decay_factor;
			reset_period = mfp_conf.reset_period;
			_reconfig = false;
		}
		slurm_mutex_unlock(&_lock);
		_tick(now, &last_reset, &reset_period);
		slurm_mutex_lock(&_lock);
		_running = false;

		/* sleep to the next tick, sweeping ended jobs and checking
		 * noted runs meanwhile */
		tick.tv_sec += MAX(mfp_conf.calc_period, 1);
		while (!_stop) {
			uint32_t sweep = _sweep_interval();
			time_t t = time(NULL);

			if (sweep && !sweep_at)
				sweep_at = t + sweep;
			if (!mfp_usage_limits() && !check_at)
				check_at = t + RUNS_CHECK;
			wake = tick;
			_earlier(&wake, sweep_at);
			_earlier(&wake, check_at);
			if (pthread_cond_timedwait(&_cond, &_lock, &wake) !=
			    ETIMEDOUT || _stop)
				break;
			if (wake.tv_sec >= tick.tv_sec)
				break;
			slurm_mutex_unlock(&_lock);
			t = time(NULL);
			if (sweep_at && t >= sweep_at) {
				_sweep();
				sweep_at = 0;
			}
			if (check_at && t >= check_at) {
				_check_runs();
				check_at = 0;
			}
			slurm_mutex_lock(&_lock);
		}
		now = time(NULL);
	}
	slurm_mutex_unlock(&_lock);
	mfp_conf_leave();
	return NULL;
}

void mfp_decay_prepare(void)
{
	time_t read_ran = 0;

	if (!_swept)
		_swept = g_hash_table_new(g_direct_hash, g_direct_equal);
	if (!_charged_now)
		_charged_now = g_hash_table_new(g_direct_hash, g_direct_equal);
	mfp_conf_enter();
	_decay_factor = mfp_conf.decay_factor;
	mfp_conf_leave();
	mfp_state_read(&read_ran, &_last_reset);
	if (!_last_reset)
		_last_reset = time(NULL);
	_last_ran = read_ran;
	if (!_last_ran) {
		/* nothing says up to when running jobs were charged (a first
		 * start, or the file lost and no .old): charging them from
		 * their start could charge again what the saved usage holds
		 * already, so usage counts from now */
		_last_ran = time(NULL);
		info("mfprio: usage of running jobs is charged from now (%ld) "
		     "on, not again from their start", (long) _last_ran);
	}
	mfp_charged_read(_swept, _last_ran);
	/* usage charged since slurmctld last saved it, when the controller
	 * was killed */
	mfp_record_apply(_last_ran);
}

void mfp_decay_start(void)
{
	int rc;

	if (!_swept)
		mfp_decay_prepare();
	_stop = false;
	_ready = false;
	if ((rc = pthread_create(&_thread, NULL, _decay_thread, NULL))) {
		/* without the thread there is no decay and no usage: say so
		 * loudly, but keep the controller up */
		error("mfprio: cannot start the decay thread: %s; usage is "
		      "not accrued until slurmctld restarts", strerror(rc));
		return;
	}
	slurm_mutex_lock(&_lock);
	while (!_ready)
		slurm_cond_wait(&_cond, &_lock);
	slurm_mutex_unlock(&_lock);
}

void mfp_decay_stop(void)
{
	slurm_mutex_lock(&_lock);
	if (_running)
		debug("mfprio: waiting for the decay thread to finish its "
		      "pass");
	_stop = true;
	slurm_cond_broadcast(&_cond);
	slurm_mutex_unlock(&_lock);
	if (_ready)
		pthread_join(_thread, NULL);
	if (_swept) {
		g_hash_table_destroy(_swept);
		_swept = NULL;
	}
	if (_charged_now) {
		g_hash_table_destroy(_charged_now);
		_charged_now = NULL;
	}
	mfp_runs_clear();

}

void mfp_decay_reconfig(void)
{
	slurm_mutex_lock(&_lock);
	_reconfig = true;
	slurm_mutex_unlock(&_lock);
}
