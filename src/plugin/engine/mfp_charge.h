/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_charge: which jobs' usage is charged when, from the decay thread's
 * passes and from priority_p_job_end (what a charge books, and where:
 * mfp_usage.h).
 *
 * Usage is never lost: slurmctld calls priority_p_job_end() at a job's end
 * only with AccountingStorageEnforce=limits.  Without it, each tick's
 * charging pass charges the finished jobs, and between ticks a light sweep
 * does the same before MinJobAge can purge their records.  A finished job
 * charged to its end is remembered as long as the job list holds it, so
 * that it is charged once (even when its end time lies ahead of a clock
 * stepped back).  A running job that is requeued shows no end at all once
 * slurmctld has cleared its run: every run is noted (mfp_runs.h) as it is
 * charged at a tick and, for a run begun since, at a look between ticks
 * (mfp_charge_check_runs); a noted run the job no longer shows is charged
 * to its end, at the next tick or look (a requeued batch job cannot run
 * again before its launch credential expires, two minutes by default, so
 * a look sees it waiting, with the requeue's time as its last activity).
 *
 * Every path that charges (a tick's pass, a job's end, the sweep, the look
 * at noted runs) reads the clocks (mfp_instant_t) and takes the start and
 * end times slurmctld wrote before a step in the clock's new reckoning,
 * so that no run is charged a step or twice.  Finished jobs charged to
 * their end are remembered while the job list has them.
 *
 * Controller only.  What this module keeps (the last tick, the decay
 * factor, the jobs charged) is guarded by slurmctld's job write lock:
 * every writer and every reader holds it, or is the decay thread before
 * it starts or after it stops.
 */
#ifndef MFPRIO_PLUGIN_MFP_CHARGE_H
#define MFPRIO_PLUGIN_MFP_CHARGE_H

#include "src/plugin/access/access.h"

#include "mfp_stats.h"

/* Start charging: the last tick is LAST_RAN (0: not known, usage counts
 * from now), the jobs the state file says were charged since are read,
 * and the record of usage since slurmctld last saved it is applied. */
void mfp_charge_prepare(time_t last_ran, double decay_factor);

/* Forget what mfp_charge_prepare() read and every noted run. */
void mfp_charge_clear(void);

/* Whether mfp_charge_prepare() has run (and mfp_charge_clear() not). */
bool mfp_charge_ready(void);

/* The decay factor per second that charges use (PriorityDecayHalfLife). */
void mfp_charge_set_decay_factor(double f);

/* When usage was last charged up to (the last decay tick). */
time_t mfp_last_ran(void);

/*
 * slurmctld's wall clock and CLOCK_BOOTTIME (CLOCK_MONOTONIC where there
 * is none) read at one moment.  Every charge reads both and compares them
 * with the last tick's reading: a difference of more than a few seconds
 * is a step of the wall clock (settimeofday, NTP), and the last tick is
 * moved with it; a wait for a lock, a slow pass or an overrun moves both
 * clocks alike and is no step.  CLOCK_BOOTTIME goes on while the
 * controller's host is suspended, as the jobs on the compute nodes do, so
 * a suspended host's time is charged, as the wall clock counts it.
 */
typedef struct {
	time_t wall;            /* time(NULL) */
	time_t boot;            /* CLOCK_BOOTTIME, seconds (0: unreadable) */
} mfp_instant_t;

void mfp_instant_now(mfp_instant_t *at);

/* Charge JOB's usage since the last tick up to its end (priority_p_job_end;
 * job write lock held by the caller). */
void mfp_charge_job_end(job_record_t *job_ptr);

/*
 * A tick's charging pass at AT (read at the top of the tick, before any
 * lock): in its first hold the last tick is moved by any step of the clock
 * since and every association's and QOS's usage decays over the time that
 * passed; then every running job is charged up to AT, and what ended since
 * the last tick, in slices (mfp_slices.h); the last tick becomes AT in the
 * last hold.  While the slices run, a job that ends is charged by
 * priority_p_job_end from where this pass left it.  CYCLE gets the lock
 * times.  Returns whether the charged-jobs file must be emptied.
 */
bool mfp_charge_jobs(const mfp_instant_t *at, mfp_cycle_t *cycle);

/* Between ticks: charge jobs that ended, before MinJobAge purges them
 * (nothing with limits, or before the first tick). */
void mfp_charge_sweep(void);

/* Seconds between sweeps: often enough that MinJobAge cannot purge a job
 * before it is charged; 0 when no sweep is needed. */
uint32_t mfp_charge_sweep_interval(void);

/* Between ticks: charge the noted runs that have ended, then note every
 * run begun since the last look (nothing with limits). */
void mfp_charge_check_runs(void);

#endif
