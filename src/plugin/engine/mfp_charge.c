/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "mfp_charge.h"
#include "mfp_record.h"
#include "mfp_runs.h"
#include "mfp_settings.h"
#include "mfp_slices.h"
#include "mfp_state.h"
#include "mfp_usage.h"

/* Guarded by slurmctld's job write lock (see mfp_charge.h). */
static time_t _last_ran;
static time_t _last_mono;            /* CLOCK_MONOTONIC at the last tick of
				      * this process (0: none yet) */
static double _decay_factor = 1.0;   /* per second */
static GHashTable *_swept;           /* job id -> end time charged */
static GHashTable *_charged_now;     /* ids of the jobs the charging pass
				      * running now has charged up to
				      * _pass_now (empty between passes) */
static time_t _pass_now;             /* that pass's time; 0 between */
static time_t _pass_step;            /* the step of the clock that pass
				      * found (mfp_charge_stepped), or 0 */

/* Seconds slurmctld's clock may drift from the monotonic clock between two
 * ticks before it counts as stepped (a tick's own delays show on both). */
#define STEP_SLACK 5

static void _charge_running(job_record_t *job_ptr, time_t now);
static int _charge_finished(void *x, void *arg);
static void _settle_runs(time_t now);

/* what charging and the sweep write (usage, QOS and association
 * tallies) */
static const assoc_mgr_lock_t _charge_locks = {
	.assoc = WRITE_LOCK, .qos = WRITE_LOCK, .tres = READ_LOCK };

time_t mfp_last_ran(void)
{
	return _last_ran;
}

/* CLOCK_MONOTONIC in seconds: a step of the wall clock does not move it. */
static time_t _mono(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return 0;
	return ts.tv_sec;
}

time_t mfp_charge_stepped(time_t now)
{
	time_t mono = _mono(), d;

	if (!_last_mono || !_last_ran || !mono)
		return 0;
	d = (now - _last_ran) - (mono - _last_mono);
	return (d > STEP_SLACK || d < -STEP_SLACK) ? d : 0;
}

time_t mfp_charge_since(time_t now)
{
	return _last_ran + mfp_charge_stepped(now);
}

void mfp_charge_set_decay_factor(double f)
{
	_decay_factor = f;
}

double mfp_charge_decay_factor(void)
{
	return _decay_factor;
}

bool mfp_charge_ready(void)
{
	return _swept != NULL;
}

void mfp_charge_prepare(time_t last_ran, double decay_factor)
{
	if (!_swept)
		_swept = g_hash_table_new(g_direct_hash, g_direct_equal);
	if (!_charged_now)
		_charged_now = g_hash_table_new(g_direct_hash, g_direct_equal);
	_decay_factor = decay_factor;
	_last_ran = last_ran;
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

void mfp_charge_clear(void)
{
	if (_swept) {
		g_hash_table_destroy(_swept);
		_swept = NULL;
	}
	if (_charged_now) {
		g_hash_table_destroy(_charged_now);
		_charged_now = NULL;
	}
	_last_mono = 0;
	mfp_runs_clear();
}

/* Where a charge of JOB_PTR up to NOW begins, the last tick being FROM in
 * NOW's clock: a job whose start is after NOW started before the clock was
 * stepped back by STEP (< 0), at START + STEP in the clock's new reckoning
 * (mfp_usage_charge charges such a job from FROM on). */
static time_t _from_of(job_record_t *job_ptr, time_t from, time_t now,
		       time_t step)
{
	if (step < 0 && job_ptr->start_time > now)
		return MAX(from, job_ptr->start_time + step);
	return from;
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
	time_t now = time(NULL), from = _charged_until(job_ptr);

	if (!mfp_conf.calc_fairshare)
		return;
	/* the last tick as the clock now has it, if it was stepped since */
	if (from == _last_ran) {
		time_t step = mfp_charge_stepped(now);

		from = _from_of(job_ptr, _last_ran + step, now, step);
	}
	assoc_mgr_lock(&locks);
	mfp_usage_charge(job_ptr, from, now, true, true, _decay_factor);
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
		double billable = mfp_usage_charge(job_ptr,
						   _from_of(job_ptr, _last_ran,
							    now, _pass_step),
						   now,
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

/* --- step 3: usage of running jobs, and of jobs that ended --- */

typedef struct {
	time_t now;
	bool forget;            /* the charged-jobs file is to be emptied */
} charge_pass_t;

static void _charge_first(void *arg)
{
	charge_pass_t *cp = arg;
	time_t step = mfp_charge_stepped(cp->now);

	/* slurmctld's clock was stepped since the last tick: the last tick
	 * is moved with it, so that the pass charges the time that passed */
	if (step) {
		info("mfprio: slurmctld's clock moved by %+ld s between two "
		     "decay passes %ld s apart: decay and usage count the "
		     "%ld s", (long) step, (long) (cp->now - _last_ran),
		     (long) (cp->now - _last_ran - step));
		_last_ran += step;
	}
	_pass_step = step;
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
	_last_mono = _mono();
	_pass_now = 0;
	_pass_step = 0;
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
bool mfp_charge_jobs(time_t now, mfp_cycle_t *cycle)
{
	charge_pass_t cp = { .now = now };
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

void mfp_charge_sweep(void)
{
	sweep_t sw = { .record = NULL };
	mfp_slices_t sl = { .visit = _visit_sweep, .last = _sweep_last,
			.arg = &sw, .assoc_locks = &_charge_locks };
	mfp_cycle_t unused = { 0 };

	if (mfp_usage_limits() || !_last_ran)
		return;
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

void mfp_charge_check_runs(void)
{
	time_t now = time(NULL);
	mfp_slices_t sl = { .first = _check_first, .visit = _visit_note,
			.arg = &now, .assoc_locks = &_charge_locks };
	mfp_cycle_t unused = { 0 };

	if (mfp_usage_limits() || !_last_ran)
		return;
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
