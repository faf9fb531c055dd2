/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_slices: a walk over slurmctld's job list in slices of the job write
 * lock, for the decay thread's passes over every job (charging, pricing,
 * the sweeps between ticks).
 *
 * A walk stops after about SLICE_MS, lets go of the lock (the RPCs and the
 * scheduler waiting for it get it) and takes it again to go on where it
 * stopped.  It keeps its place with a list iterator, which slurmctld's
 * list keeps valid while jobs are added and removed between slices (a
 * sort would send it back to the head: visits must be harmless to
 * repeat).  The job list lives until after the plugin is unloaded, so it
 * outlives every walk.  Controller only; the caller holds no slurmctld
 * lock.
 */
#ifndef MFPRIO_PLUGIN_MFP_SLICES_H
#define MFPRIO_PLUGIN_MFP_SLICES_H

#include "src/plugin/access/access.h"

#include "mfp_stats.h"

/* A walk: what to do in the first hold, at each job, in the last hold. */
typedef struct {
	void (*first)(void *arg);       /* in the first hold, before the walk */
	void (*visit)(job_record_t *job_ptr, void *arg);
	void (*last)(void *arg);        /* in the last hold, after it */
	void *arg;
	const assoc_mgr_lock_t *assoc_locks; /* visit under these assoc_mgr
					      * locks too (NULL: none) */
	double lock_ms;         /* out: job write lock held, all holds */
	uint32_t holds;         /* out: how many holds */
} mfp_slices_t;

/* Walk every job as SL says, under the job write lock (node and partition
 * read locks) taken and let go slice by slice; the longest hold is kept in
 * CYCLE->lock_longest_ms. */
void mfp_slices_walk(mfp_slices_t *sl, mfp_cycle_t *cycle);

#endif
