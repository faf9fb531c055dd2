/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_decay: the thread that runs every PriorityCalcPeriod.
 *
 * One tick at time NOW (the wall clock and CLOCK_BOOTTIME read together
 * at its top, before any lock: mfp_instant_t):
 *   1. PriorityUsageResetPeriod: zero usage when a reset is due;
 *   2. in the first hold of step 3: the last tick moved by any step of
 *      slurmctld's clock since, then every association's and QOS's usage
 *      decayed by D^(NOW - last tick);
 *   3. charge running jobs for [last tick, NOW], and finished jobs that
 *      nobody charged for [last tick, their end], in slices of the job
 *      write lock (with assoc_mgr's locks inside, the documented order);
 *      last tick := NOW in the last hold (mfp_charge.h);
 *   4. fair-share of every association through the core (assoc lock);
 *   5. every pending job's priority, in slices of the job write lock
 *      (mfp_slices.h);
 *   6. StateSaveLocation/priority_last_decay_ran, then the plugin's own
 *      record of every association's and QOS's usage (mfp_record.h).
 * Between ticks it sweeps ended jobs and looks at noted runs every
 * RUNS_CHECK seconds (mfp_charge.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* pthread_cond_clockwait (glibc 2.30) */
#endif
#include <errno.h>
#include <pthread.h>
#include <sys/prctl.h>

#include "mfp_charge.h"
#include "mfp_decay.h"
#include "mfp_jobs.h"
#include "mfp_settings.h"
#include "mfp_metrics.h"
#include "mfp_record.h"
#include "mfp_slices.h"
#include "mfp_state.h"
#include "mfp_stats.h"
#include "mfp_tree.h"
#include "mfp_usage.h"

#include "src/core/decay.h"

#define THREAD_NAME "mfprio_decay"
#define RUNS_CHECK 10           /* seconds between checks of noted runs */

static pthread_t _thread;
static pthread_mutex_t _lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t _cond;         /* on CLOCK_MONOTONIC (_cond_init) */
static pthread_once_t _cond_once = PTHREAD_ONCE_INIT;
static bool _stop, _reconfig, _ready, _running;

/* Written before the thread starts, read by it. */
static bool _charged_file_stale;     /* mfprio_charged_jobs names jobs of
				      * before the last tick (decay thread) */
static time_t _last_reset;           /* as read at start (the thread keeps
				      * its own afterwards) */

static void *_decay_thread(void *arg);
static void _tick(const mfp_instant_t *at, time_t *last_reset,
		  uint16_t *reset_period);
static mf_reset_period_t _mf_reset(uint16_t p);

/* what pricing reads */
static const assoc_mgr_lock_t _price_locks = {
	.assoc = READ_LOCK, .qos = READ_LOCK };

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
	mfp_slices_t sl = { .first = _count_jobs, .visit = _visit_price,
			.arg = pass, .assoc_locks = &_price_locks };

	pass->assoc_locked = true;

	mfp_slices_walk(&sl, cycle);
	cycle->lock_prio_ms = sl.lock_ms;
	cycle->slices = sl.holds;
	cycle->jobs_total = pass->total;
}

/* WAKE := AT when AT is set and earlier. */
static void _earlier(struct timespec *wake, time_t at)
{
	if (at && at < wake->tv_sec) {
		wake->tv_sec = at;
		wake->tv_nsec = 0;
	}
}

/* CLOCK_MONOTONIC: the ticks keep their pace when slurmctld's wall clock
 * is stepped (an absolute wait on the wall clock stepped back an hour
 * would sleep an hour). */
static void _mono(struct timespec *ts)
{
	if (clock_gettime(CLOCK_MONOTONIC, ts) < 0)
		ts->tv_sec = ts->tv_nsec = 0;
}

/* _cond's timed waits are on CLOCK_MONOTONIC, on every glibc: with
 * pthread_cond_clockwait from glibc 2.30; before it (RHEL 8 has 2.28) by
 * the condition's clock attribute, which _cond is made with everywhere.
 * (Where 2.30 is there, clockwait is kept: Debian's libfaketime 0.9.10,
 * which the clock tests preload, returns at once from a timed wait on a
 * CLOCK_MONOTONIC condition; it leaves clockwait alone.) */
static void _cond_init(void)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	if (pthread_condattr_setclock(&attr, CLOCK_MONOTONIC))
		error("mfprio: the decay thread's waits cannot use "
		      "CLOCK_MONOTONIC: a step of the wall clock moves them");
	pthread_cond_init(&_cond, &attr);
	pthread_condattr_destroy(&attr);
}

/* Wait on _cond (_lock held) until WAKE on CLOCK_MONOTONIC.  Returns
 * pthread_cond_timedwait's code. */
static int _wait_until(const struct timespec *wake)
{
#if defined(__USE_GNU) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 30) && !defined(MFPRIO_NO_CLOCKWAIT)
	return pthread_cond_clockwait(&_cond, &_lock, CLOCK_MONOTONIC, wake);
#else
	return pthread_cond_timedwait(&_cond, &_lock, wake);
#endif
}

/* The next tick's time on CLOCK_MONOTONIC, the last one having been due at
 * TICK: a period later, or now if that is past already (a pass that
 * overran one or more periods is followed by one pass at once, not by one
 * for every period it overran). */
static void _next_tick(struct timespec *tick, uint32_t period)
{
	struct timespec now;

	tick->tv_sec += MAX(period, 1);
	_mono(&now);
	if (tick->tv_sec < now.tv_sec ||
	    (tick->tv_sec == now.tv_sec && tick->tv_nsec < now.tv_nsec)) {
		log_flag(PRIO, "mfprio: the decay pass overran its period by "
			 "%ld s: the next one starts now",
			 (long) (now.tv_sec - tick->tv_sec));
		*tick = now;
	}
}

static void _tick(const mfp_instant_t *at, time_t *last_reset,
		  uint16_t *reset_period)
{
	mf_reset_period_t rp = _mf_reset(*reset_period);
	time_t boundary, now = at->wall;
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

	/* 2. decay over the time that passed since the last tick (not over
	 * a step of slurmctld's clock), and 3. new usage, in slices */
	if (mfp_charge_jobs(at, &cycle))
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

static void *_decay_thread(void *arg)
{
	time_t last_reset;
	uint16_t reset_period;
	struct timespec tick, wake;
	mfp_instant_t at;

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

	mfp_usage_reserve_catch_up(mfp_last_ran());

	_mono(&tick);
	mfp_instant_now(&at);
	slurm_mutex_lock(&_lock);
	while (!_stop) {
		time_t sweep_at = 0, check_at = 0;

		_running = true;
		mfp_conf_leave();
		mfp_conf_enter();
		if (_reconfig) {
			mfp_charge_set_decay_factor(mfp_conf.decay_factor);
			reset_period = mfp_conf.reset_period;
			_reconfig = false;
		}
		slurm_mutex_unlock(&_lock);
		_tick(&at, &last_reset, &reset_period);
		slurm_mutex_lock(&_lock);
		_running = false;

		/* sleep to the next tick, sweeping ended jobs and checking
		 * noted runs meanwhile */
		_next_tick(&tick, mfp_conf.calc_period);
		while (!_stop) {
			uint32_t sweep = mfp_charge_sweep_interval();
			time_t t;

			_mono(&wake);
			t = wake.tv_sec;

			if (sweep && !sweep_at)
				sweep_at = t + sweep;
			if (!mfp_usage_limits() && !check_at)
				check_at = t + RUNS_CHECK;
			wake = tick;
			_earlier(&wake, sweep_at);
			_earlier(&wake, check_at);
			if (_wait_until(&wake) != ETIMEDOUT || _stop)
				break;
			if (wake.tv_sec >= tick.tv_sec)
				break;
			slurm_mutex_unlock(&_lock);
			_mono(&wake);
			t = wake.tv_sec;
			if (sweep_at && t >= sweep_at) {
				mfp_charge_sweep();
				sweep_at = 0;
			}
			if (check_at && t >= check_at) {
				mfp_charge_check_runs();
				check_at = 0;
			}
			slurm_mutex_lock(&_lock);
		}
		mfp_instant_now(&at);
	}
	slurm_mutex_unlock(&_lock);
	mfp_conf_leave();
	return NULL;
}

void mfp_decay_prepare(void)
{
	time_t read_ran = 0;
	double f;

	mfp_conf_enter();
	f = mfp_conf.decay_factor;
	mfp_conf_leave();
	mfp_state_read(&read_ran, &_last_reset);
	if (!_last_reset)
		_last_reset = time(NULL);
	mfp_charge_prepare(read_ran, f);
}

void mfp_decay_start(void)
{
	int rc;

	pthread_once(&_cond_once, _cond_init);
	if (!mfp_charge_ready())
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
	pthread_once(&_cond_once, _cond_init);
	slurm_mutex_lock(&_lock);
	if (_running)
		debug("mfprio: waiting for the decay thread to finish its "
		      "pass");
	_stop = true;
	slurm_cond_broadcast(&_cond);
	slurm_mutex_unlock(&_lock);
	if (_ready)
		pthread_join(_thread, NULL);
	mfp_charge_clear();
}

void mfp_decay_reconfig(void)
{
	slurm_mutex_lock(&_lock);
	_reconfig = true;
	slurm_mutex_unlock(&_lock);
}
