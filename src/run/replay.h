/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay: a period of a cluster's history recomputed tick by tick, as the
 * multifactor plugin computes it live (src/plugin/engine/mfp_decay.c),
 * with the core's functions (decay.h, usage_charge.h, fairshare.h).
 *
 * The schedule is taken as it happened: each job runs from its recorded
 * start to its recorded end whatever the settings; only usage, fair-share
 * and priorities are recomputed.  Ticks are at FIRST, FIRST + period, ...
 * up to LAST.  At the first tick usage is zero (the period's start) and no
 * job is charged yet: jobs are charged from the first tick on, a job that
 * started before it from the first tick.  At each tick NOW after the
 * first, PREV the tick before:
 *
 *   1. PriorityUsageResetPeriod: every usage zeroed when a boundary
 *      (decay.h mf_reset_due) was passed since the last reset (NOW resets
 *      once, at the first tick);
 *   2. every association's usage decays by D^(NOW - PREV);
 *   3. each job that ran in (PREV, NOW] is charged its billing for the
 *      part of (PREV, NOW] it ran (mf_charge_compute, weight D^S): a job
 *      still running when the tick comes is charged after the decay; a job
 *      that ended is too, unless CHARGE_AT_END (the plugin under
 *      AccountingStorageEnforce=limits charges a job when it ends, before
 *      the next tick's decay): its charge then decays with the rest;
 *   4. fair-share of the whole tree (mf_fairshare_compute), when step 5
 *      or the caller's ON_TICK reads it (usage does not depend on it);
 *   5. the priority of every job pending at NOW (eligible at or before
 *      NOW, not started by NOW, not ended) when a job starts in
 *      (NOW, NOW + period]: each job that starts then gets its priority at
 *      NOW and its rank among the jobs pending at NOW (1 + the number of
 *      them with a higher priority, or the same and a lower job id).
 *
 * Usage is charged to each job's association; accounts' usage is the sum
 * of their subtree (mf_tree_sum_usage), as Slurm charges every ancestor.
 *
 * Pure: no I/O; thread-safe over distinct trees and results (two settings
 * may replay side by side).  Ownership: the caller owns the tree, the
 * jobs, ASSOC and the results; the tree's usage and results are
 * overwritten, and when mf_replay_run() returns they hold the last tick's
 * figures.  Memory: 8 bytes per job and event (start, end, eligible), the
 * results (16 bytes a job), and per association a few numbers.
 */
#ifndef MFPRIO_REPLAY_H
#define MFPRIO_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "assoc_tree.h"
#include "decay.h"
#include "fairshare.h"
#include "sacct_input.h"

typedef struct {
	uint32_t calc_period;    /* PriorityCalcPeriod, seconds (>= 1) */
	uint32_t half_life;      /* PriorityDecayHalfLife, seconds (0: none) */
	mf_reset_period_t reset; /* PriorityUsageResetPeriod */
	time_t last_reset;       /* the last reset before FIRST (0: FIRST) */
	bool charge_at_end;      /* AccountingStorageEnforce=limits */
	mf_fs_config_t fs;
} mf_replay_conf_t;

/* Where a job stood at the last tick before it started. */
typedef struct {
	uint32_t priority;       /* 0: no tick saw it pending */
	uint32_t rank;           /* 1 is first; 0: as priority */
	uint32_t pending;        /* jobs pending beside it then */
	float fs;                /* its fair-share factor then */
} mf_replay_out_t;

/*
 * The priority of job J (an index into the jobs) at NOW given its
 * fair-share factor FS (the caller's mf_priority_compute()); NULL: no
 * priorities are computed (outputs stay 0).
 */
typedef uint32_t (*mf_replay_price_fn)(const mf_replay_job_t *j, double fs,
				       time_t now, void *arg);

/* Called after the fair-share (step 4) of every SAMPLE_EVERY-th tick
 * (the first included) and of the last, with the tree's figures of that
 * tick; may be NULL. */
typedef void (*mf_replay_tick_fn)(time_t now, uint32_t tick,
				  const mf_tree_t *tree, void *arg);

typedef struct {
	const mf_replay_conf_t *conf;
	mf_tree_t *tree;             /* finalized */
	mf_assoc_t *const *assoc;    /* job.assoc -> the association charged
				      * (a user, or an account); no NULL */
	uint32_t assoc_cnt;
	const mf_replay_job_t *jobs;
	size_t job_cnt;
	time_t first, last;          /* the ticks: FIRST + k * period <= LAST */
	mf_replay_price_fn price;
	mf_replay_tick_fn on_tick;
	uint32_t sample_every;       /* ON_TICK every this many ticks (and at
				      * the last); 0 or 1: every tick */
	void *arg;                   /* passed to both */
} mf_replay_t;

/*
 * Replay R: fills OUT (job_cnt entries, zeroed here).  Returns the number
 * of ticks, or -1 with errp filled (period of 0, LAST before FIRST, an
 * association index out of range, an association not in the tree).
 */
long mf_replay_run(const mf_replay_t *r, mf_replay_out_t *out,
		   mf_error_t *errp);

/* The job's fair-share factor from its association after
 * mf_fairshare_compute() (job_fs_factor.h). */
double mf_replay_job_fs(const mf_assoc_t *assoc, const mf_fs_config_t *fs);

#endif
