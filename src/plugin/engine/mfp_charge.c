/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "mfp_charge.h"
#include "mfp_record.h"
#include "mfp_runs.h"
#include "mfp_settings.h"
#include "mfp_slices.h"
#include "mfp_state.h"
#include "mfp_usage.h"

#include "src/core/clock_step.h"
#include "src/core/decay.h"

/* Guarded by slurmctld's job write lock (see mfp_charge.h). */
static time_t _last_ran;             /* the last tick, in the reckoning of
				      * slurmctld's clock now */
static time_t _last_boot;            /* CLOCK_BOOTTIME at that same moment
				      * (0: not known, before the first
				      * tick of this process) */
static time_t _step;                 /* how far _last_ran was moved since
				      * that tick: the steps of slurmctld's
				      * clock found since */
static double _decay_factor = 1.0;   /* per second */
static GHashTable *_swept;           /* job id -> end time: finished jobs
				      * charged to that end, kept while the
				      * job list has them */
static GHashTable *_swept_kept;      /* the entries of _swept whose job the
				      * pass under way met (empty between
				      * passes) */
static GHashTable *_charged_now;     /* job id -> start time: the jobs the
				      * pass under way has charged up to
				      * _pass_now (empty between passes) */
static GHashTable *_charged_last;    /* job id -> start time: the runs the
				      * last pass charged up to _last_ran */
static time_t _pass_now;             /* that pass's time; 0 between */

/* Seconds slurmctld's clock may drift from CLOCK_BOOTTIME between two
 * readings before it counts as stepped (each reading is of whole seconds,
 * both clocks read at one moment). */
#define STEP_SLACK 5

static void _charge_running(job_record_t *job_ptr, time_t now);
static void _settle_runs(time_t now);

/* what charging and the sweep write (usage, QOS and association
 * tallies) */
static const assoc_mgr_lock_t _charge_locks = {
	.assoc = WRITE_LOCK, .qos = WRITE_LOCK, .tres = READ_LOCK };

time_t mfp_last_ran(void)
{
	return _last_ran;
}

void mfp_instant_now(mfp_instant_t *at)
{
	struct timespec ts;

#ifdef CLOCK_BOOTTIME
	if (clock_gettime(CLOCK_BOOTTIME, &ts) < 0)
#endif
		if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
			ts.tv_sec = 0;
	at->wall = time(NULL);
	at->boot = ts.tv_sec;
}

/*
 * AT's reading against the last tick's: a difference of more than
 * STEP_SLACK between the time the wall clock says passed and the time that
 * did is a step of slurmctld's clock.  The last tick (and each noted run's
 * charge) is then moved with it, so that it stays in the clock's present
 * reckoning for every charge made until the next tick.  Logged once a
 * step.  Job write lock held.
 */
static void _resync(const mfp_instant_t *at)
{
	mf_reading_t last = { _last_ran, _last_boot },
		     now = { at->wall, at->boot };
	time_t d = (time_t) mf_clock_step(&last, &now, STEP_SLACK),
	       passed = at->boot - _last_boot;

	if (!d)
		return;
	info("mfprio: slurmctld's clock moved by %+ld s since the last decay "
	     "pass (%ld s ago by CLOCK_BOOTTIME): decay and usage count the "
	     "%ld s that passed", (long) d, (long) passed, (long) passed);
	_last_ran += d;
	_step += d;
	mfp_runs_shift(d);
}

/* T, a time slurmctld wrote since the last tick, in the clock's present
 * reckoning NOW: after NOW, or before the last tick as it was moved, it
 * was written before the clock was stepped since, and moves with it. */
static time_t _present(time_t t, time_t now)
{
	return (time_t) mf_clock_present(t, _last_ran, now, _step);
}

/* Where a charge of JOB_PTR's run at NOW begins: the last tick when the
 * last pass charged this very run up to it; else its start (in the
 * present reckoning), no earlier than the last tick. */
static time_t _from(job_record_t *job_ptr, time_t now)
{
	gpointer v;

	if (_charged_last &&
	    g_hash_table_lookup_extended(_charged_last,
					 GUINT_TO_POINTER(job_ptr->job_id),
					 NULL, &v) &&
	    (time_t) GPOINTER_TO_SIZE(v) == job_ptr->start_time)
		return _last_ran;
	return MAX(_last_ran, _present(job_ptr->start_time, now));
}

/* Remember that the pass under way charged JOB_PTR up to its time. */
static void _charged(job_record_t *job_ptr)
{
	g_hash_table_insert(_charged_now, GUINT_TO_POINTER(job_ptr->job_id),
			    GSIZE_TO_POINTER(job_ptr->start_time));
}

/* _decay_factor is set by the decay thread (at a reconfigure) and read by
 * slurmctld's threads that end jobs: relaxed atomics, so that neither
 * reads a torn value and TSan sees no race (the two sides hold different
 * locks) */
void mfp_charge_set_decay_factor(double f)
{
	__atomic_store(&_decay_factor, &f, __ATOMIC_RELAXED);
}

static double _factor(void)
{
	double f;

	__atomic_load(&_decay_factor, &f, __ATOMIC_RELAXED);
	return f;
}

bool mfp_charge_ready(void)
{
	return _swept != NULL;
}

static GHashTable *_ids(void)
{
	return g_hash_table_new(g_direct_hash, g_direct_equal);
}

void mfp_charge_prepare(time_t last_ran, double decay_factor)
{
	if (!_swept) {
		_swept = _ids();
		_swept_kept = _ids();
		_charged_now = _ids();
		_charged_last = _ids();
	}
	mfp_charge_set_decay_factor(decay_factor);
	_last_ran = last_ran;
	_last_boot = 0;
	_step = 0;
	if (!_last_ran) {
		mfp_instant_t at;

		/* nothing says up to when running jobs were charged (a first
		 * start, or the file lost and no .old): charging them from
		 * their start could charge again what the saved usage holds
		 * already, so usage counts from now */
		mfp_instant_now(&at);
		_last_ran = at.wall;
		_last_boot = at.boot;
		info("mfprio: usage of running jobs is charged from now (%ld) "
		     "on, not again from their start", (long) _last_ran);
	}
	mfp_charged_read(_swept, _last_ran);
	/* usage charged since slurmctld last saved it, when the controller
	 * was killed */
	mfp_record_apply(_last_ran);
}

static void _drop(GHashTable **t)
{
	if (*t) {
		g_hash_table_destroy(*t);
		*t = NULL;
	}
}

void mfp_charge_clear(void)
{
	_drop(&_swept);
	_drop(&_swept_kept);
	_drop(&_charged_now);
	_drop(&_charged_last);
	_last_boot = 0;
	_step = 0;
	mfp_runs_clear();
}

/* Up to when JOB_PTR's usage is charged at NOW: the time of the charging
 * pass under way if that pass has charged it already; else where a charge
 * begins (_from). */
static time_t _charged_until(job_record_t *job_ptr, time_t now)
{
	if (_pass_now &&
	    g_hash_table_contains(_charged_now,
				  GUINT_TO_POINTER(job_ptr->job_id)))
		return _pass_now;
	return _from(job_ptr, now);
}

void mfp_charge_job_end(job_record_t *job_ptr)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };
	mfp_instant_t at;
	time_t from, to;

	if (!mfp_conf.calc_fairshare)
		return;
	mfp_instant_now(&at);
	_resync(&at);
	from = _charged_until(job_ptr, at.wall);
	to = at.wall;
	if (job_ptr->end_time)
		to = MIN(to, _present(job_ptr->end_time, at.wall));
	/* a job that has never started ran nothing: 26.11's het-job submit
	 * ends each pending component once it has checked it against the
	 * limits.  Marked ended all the same (end_time_exp), as any end */
	if (!job_ptr->start_time)
		to = from;
	assoc_mgr_lock(&locks);
	mfp_usage_charge(job_ptr, from, MAX(from, to), true, true,
			 _factor());
	assoc_mgr_unlock(&locks);
	mfp_runs_forget(job_ptr->job_id);
	if (_swept)
		g_hash_table_remove(_swept, GUINT_TO_POINTER(job_ptr->job_id));
}

/* What _charge_finished is asked. */
typedef struct {
	time_t now;             /* the time of the pass or sweep */
	bool in_pass;           /* a tick's pass: a job that ended while it
				 * ran is charged up to NOW (the next tick
				 * charges the rest); a sweep leaves it */
	int charged;            /* jobs charged */
} finish_arg_t;

/* Charge a running job of the charging pass up to NOW (it is remembered
 * as charged so far, and its run noted). */
static void _charge_running(job_record_t *job_ptr, time_t now)
{
	if (((mfp_conf.slurm_flags & PRIORITY_FLAGS_CALCULATE_RUNNING) ||
	     !IS_JOB_PENDING(job_ptr)) && !IS_JOB_POWER_UP_NODE(job_ptr) &&
	    job_ptr->start_time && job_ptr->assoc_ptr) {
		time_t from = _from(job_ptr, now);
		double billable = mfp_usage_charge(job_ptr, from,
						   MAX(from, now), false,
						   false, _factor());

		_charged(job_ptr);
		/* with limits slurmctld reports the end of every run */
		if (billable >= 0 && !mfp_usage_limits()) {
			mfp_run_t run;

			mfp_usage_run_of(job_ptr, now, billable, &run);
			mfp_runs_note(job_ptr->job_id, &run);
		}
	}
}

/* When a noted run of JOB_PTR ended, as the job's record tells it (in the
 * present reckoning NOW), or 0: its end time while the requeued job
 * completes, then the time of the requeue, which slurmctld keeps as the
 * job's last activity until it runs again; either only after the run's
 * last charge and before the job's next run (or NOW). */
static time_t _run_end(job_record_t *job_ptr, const mfp_run_t *run,
		       time_t now)
{
	time_t t[2] = { job_ptr->end_time, job_ptr->time_last_active };

	for (int i = 0; i < 2; i++) {
		time_t at = _present(t[i], now);

		if (at <= run->charged_to)
			continue;
		if (job_ptr->start_time ? at < _present(job_ptr->start_time,
							now) :
		    at <= now)
			return at;
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
		mfp_usage_charge_run(job_ptr, run, MIN(end, now),
				     _factor());
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
 * A job that ended after the last tick and that slurmctld did not report
 * (no limits enforcement): charge it up to its end, once, as FIN says.
 * Its end and start are taken in the present reckoning, so
 * that a job that ended before a step of the clock is charged its run,
 * not the step, and a job charged already for this very end (_swept,
 * kept while the job list has it) never again.
 */
static int _charge_finished(job_record_t *job_ptr, finish_arg_t *fin)
{
	gpointer key = GUINT_TO_POINTER(job_ptr->job_id);
	time_t end, from, to;

	if (mfp_usage_limits() || !job_ptr->assoc_ptr || !job_ptr->start_time ||
	    !job_ptr->end_time || job_ptr->end_time_exp == (time_t) NO_VAL)
		return 0;
	if (!IS_JOB_FINISHED(job_ptr) && !IS_JOB_COMPLETING(job_ptr))
		return 0;
	/* charged already for this very end; a requeued job that ended
	 * again has another end time and its new run is charged */
	if (g_hash_table_lookup(_swept, key) ==
	    GSIZE_TO_POINTER(job_ptr->end_time))
		return 0;
	end = _present(job_ptr->end_time, fin->now);
	if (end <= _last_ran)
		return 0;               /* charged up to its end at a tick */
	if (end > fin->now && !fin->in_pass)
		return 0;               /* the next pass charges it */
	from = _from(job_ptr, fin->now);
	to = MAX(from, MIN(end, fin->now));
	mfp_usage_charge(job_ptr, from, to, true, false, _factor());
	if (to == end) {
		g_hash_table_insert(_swept, key,
				    GSIZE_TO_POINTER(job_ptr->end_time));
		mfp_runs_forget(job_ptr->job_id);
	}
	fin->charged++;
	return 0;
}

/* --- step 3: usage of running jobs, and of jobs that ended --- */

typedef struct {
	mfp_instant_t at;       /* the tick's reading of both clocks */
	bool forget;            /* the charged-jobs file is to be emptied */
} charge_pass_t;

static void _charge_first(void *arg)
{
	charge_pass_t *cp = arg;
	time_t now = cp->at.wall;

	/* a step of slurmctld's clock since the last tick moves the last
	 * tick with it: decay and charges count the time that passed */
	_resync(&cp->at);
	/* 2. decay over that time, before anything is charged */
	if (now > _last_ran) {
		double f = mf_decay_over(_factor(),
					 difftime(now, _last_ran));

		log_flag(PRIO, "mfprio: decay over %ld s: %.15f",
			 (long) (now - _last_ran), f);
		mfp_usage_age_locked(f);
	}
	site_factor_g_update();
	/* before any run is noted anew: a job requeued and started again
	 * since the last tick shows its new run */
	_settle_runs(now);
	_pass_now = now;
}

/* A finished job the pass meets keeps its entry in _swept. */
static void _keep_swept(job_record_t *job_ptr)
{
	gpointer key = GUINT_TO_POINTER(job_ptr->job_id), end;

	if (g_hash_table_lookup_extended(_swept, key, NULL, &end))
		g_hash_table_insert(_swept_kept, key, end);
}

static void _visit_charge(job_record_t *job_ptr, void *arg)
{
	charge_pass_t *cp = arg;

	if (g_hash_table_contains(_charged_now,
				  GUINT_TO_POINTER(job_ptr->job_id)))
		return;                 /* met again after a list sort */
	if (IS_JOB_FINISHED(job_ptr) || IS_JOB_COMPLETING(job_ptr)) {
		finish_arg_t fin = { .now = cp->at.wall, .in_pass = true };

		/* (with limits slurmctld reported its end: nothing here) */
		(void) _charge_finished(job_ptr, &fin);
		if (fin.charged)
			_charged(job_ptr);
		_keep_swept(job_ptr);
		return;
	}
	if (IS_JOB_PENDING(job_ptr) &&
	    !((mfp_conf.slurm_flags & PRIORITY_FLAGS_CALCULATE_RUNNING) &&
	      job_ptr->start_time))
		return;
	_charge_running(job_ptr, cp->at.wall);
}

/* *TO := *FROM, the pass's table, and *FROM := the old *TO, emptied for
 * the next pass. */
static void _hand_over(GHashTable **to, GHashTable **from)
{
	GHashTable *t = *to;

	*to = *from;
	*from = t;
	g_hash_table_remove_all(t);
}

/* The last tick becomes the pass's time, in both clocks; what the pass
 * charged is what the next one starts from. */
static void _charge_last(void *arg)
{
	charge_pass_t *cp = arg;

	_last_ran = cp->at.wall;
	_last_boot = cp->at.boot;
	_step = 0;
	_pass_now = 0;
	_hand_over(&_charged_last, &_charged_now);
	cp->forget = g_hash_table_size(_swept) > 0;
	_hand_over(&_swept, &_swept_kept);
}

/*
 * Decay, then charge every running job up to AT, and what ended since the
 * last tick.  While the slices run, a job that ends is charged by
 * priority_p_job_end from where this pass left it (_charged_until).
 * Returns whether the charged-jobs file must be emptied.
 */
bool mfp_charge_jobs(const mfp_instant_t *at, mfp_cycle_t *cycle)
{
	charge_pass_t cp = { .at = *at };
	mfp_slices_t sl = { .first = _charge_first, .visit = _visit_charge,
			.last = _charge_last, .arg = &cp,
			.assoc_locks = &_charge_locks };

	mfp_slices_walk(&sl, cycle);
	cycle->lock_charge_ms = sl.lock_ms;
	cycle->charge_slices = sl.holds;
	return cp.forget;
}

/* --- between ticks: jobs that ended, before MinJobAge purges them --- */

typedef struct {
	mfp_instant_t at;
	finish_arg_t fin;
	GArray *record;         /* the charged jobs to write down, or NULL */
} sweep_t;

static void _sweep_first(void *arg)
{
	sweep_t *sw = arg;

	_resync(&sw->at);
}

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

void mfp_charge_sweep(void)
{
	sweep_t sw = { .record = NULL };
	mfp_slices_t sl = { .first = _sweep_first, .visit = _visit_sweep,
			.last = _sweep_last, .arg = &sw,
			.assoc_locks = &_charge_locks };
	mfp_cycle_t unused = { 0 };

	if (mfp_usage_limits() || !_swept)
		return;
	mfp_instant_now(&sw.at);
	sw.fin.now = sw.at.wall;
	mfp_slices_walk(&sl, &unused);
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
	mfp_instant_t *at = arg;

	_resync(at);
	_settle_runs(at->wall);
}

static void _visit_note(job_record_t *job_ptr, void *arg)
{
	const mfp_instant_t *at = arg;
	const mfp_run_t *had;
	mfp_run_t run;

	if (!IS_JOB_RUNNING(job_ptr) || !job_ptr->start_time ||
	    !job_ptr->assoc_ptr)
		return;
	had = mfp_runs_get(job_ptr->job_id);
	if (had && had->start == job_ptr->start_time)
		return;
	mfp_usage_run_of(job_ptr, _from(job_ptr, at->wall),
			 mfa_job_billable(job_ptr, job_ptr->start_time,
					  true), &run);
	mfp_runs_note(job_ptr->job_id, &run);
}

void mfp_charge_check_runs(void)
{
	mfp_instant_t at;
	mfp_slices_t sl = { .first = _check_first, .visit = _visit_note,
			.arg = &at, .assoc_locks = &_charge_locks };
	mfp_cycle_t unused = { 0 };

	if (mfp_usage_limits() || !_swept)
		return;
	mfp_instant_now(&at);
	mfp_slices_walk(&sl, &unused);
}

/* Seconds between sweeps: often enough that MinJobAge cannot purge a job
 * before it is charged; 0 when no sweep is needed. */
uint32_t mfp_charge_sweep_interval(void)
{
	uint32_t age = slurm_conf.min_job_age, period = mfp_conf.calc_period;

	if (mfp_usage_limits() || !age)
		return 0;
	if (age / 2 >= period)
		return 0;
	return MAX(age / 2, 5);
}
