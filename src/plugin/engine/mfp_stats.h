/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_stats: the plugin measures its own decay cycles, so that an admin
 * sees what it costs the controller without a debugger.
 *
 * The decay thread fills an mfp_cycle_t during a cycle (mfp_stats_clock()
 * around each lock it holds, counters from the job pass) and hands it to
 * mfp_stats_cycle_done() after releasing every slurmctld lock.  That logs
 * one line under DebugFlags=Priority:
 *
 *   mfprio: cycle N: job write lock X ms (charge A in Q slices +
 *   priorities B in P slices, longest hold L), assoc lock F ms (tree
 *   built|kept), thread CPU C ms, wall W ms; jobs: R recomputed, K
 *   changed, S skipped, T in all
 *
 * and rewrites StateSaveLocation/mfprio_stats: "key value" lines (the last
 * cycle, and totals since slurmctld started) that `cat` or
 * `mfprio stats` print.  Failure to write is logged once and otherwise
 * ignored: measuring never stops a cycle.  Decay thread only.
 */
#ifndef MFPRIO_PLUGIN_MFP_STATS_H
#define MFPRIO_PLUGIN_MFP_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define MFP_STATS_FILE "mfprio_stats"

typedef struct {
	time_t start;              /* the cycle's time (its NOW) */
	double wall_ms;            /* the whole cycle */
	double cpu_ms;             /* the decay thread's CPU in the cycle */
	double lock_charge_ms;     /* job write lock held to charge usage
				    * (all slices) */
	uint32_t charge_slices;    /* holds to charge usage */
	double lock_prio_ms;       /* job write lock held to set priorities
				    * (all slices) */
	double lock_longest_ms;    /* the longest single hold of it */
	uint32_t slices;           /* holds to set priorities */
	double assoc_ms;           /* assoc write lock held for fair-share */
	bool fs_tree_built;        /* the association tree built anew (else
				    * the one kept from the last cycle) */
	uint64_t fs_tree_builds;   /* trees built since the plugin loaded */
	uint32_t jobs_total;       /* jobs in slurmctld's list */
	uint32_t jobs_recomputed;  /* priorities computed */
	uint32_t jobs_changed;     /* of those, priority written anew */
	uint32_t jobs_skipped;     /* held, running, powering up: left alone */
} mfp_cycle_t;

/* Milliseconds of CLOCK_MONOTONIC (which == 0) or of this thread's CPU
 * clock (which == 1). */
double mfp_stats_clock(int which);

/* A cycle has ended (no slurmctld lock held): log it, fold it into the
 * totals, rewrite the stats file. */
void mfp_stats_cycle_done(const mfp_cycle_t *c);

/* The totals since the plugin loaded, as the stats file has them. */
typedef struct {
	uint64_t cycles;
	double lock_ms_sum;      /* job write lock, every hold */
	double lock_ms_max;      /* the longest single hold */
	double cpu_ms_sum;       /* the decay thread's CPU in cycles */
} mfp_stats_totals_t;

/* Copy them into *T (decay thread). */
void mfp_stats_totals(mfp_stats_totals_t *t);

#endif
