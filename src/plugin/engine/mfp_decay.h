/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_decay: the background thread that runs every PriorityCalcPeriod
 * (when jobs are charged: mfp_charge.h).  The tick's steps are listed at
 * the top of mfp_decay.c.
 *
 * Controller only.  The thread owns what mfp_decay_prepare() read until
 * mfp_decay_stop() frees it.  Nothing here fails to its caller: a state
 * file that cannot be read or written is logged, and the thread goes on.
 */
#ifndef MFPRIO_PLUGIN_MFP_DECAY_H
#define MFPRIO_PLUGIN_MFP_DECAY_H

#include "src/plugin/access/access.h"

/* Read the state files (the last decay, the jobs charged since) and the
 * decay factor, so that a job ending before the thread starts is charged
 * from the right time (slurmctld may hold its own locks: takes only the
 * state-file lock). */
void mfp_decay_prepare(void);

/* Start the thread (mfp_decay_prepare() first if it has not run).
 * Returns once the thread runs. */
void mfp_decay_start(void);

/* Stop and join it, and free what mfp_decay_prepare() read. */
void mfp_decay_stop(void);

/* Ask the thread to reread its settings at its next pass. */
void mfp_decay_reconfig(void);

/* Recompute fair-share now (assoc WRITE lock taken inside).  Returns how
 * long it held that lock, in milliseconds; *BUILT (may be NULL) whether
 * the association tree was built anew rather than reused, *BUILDS (may be
 * NULL) how many were built since the plugin loaded. */
double mfp_fairshare_recompute(bool *built, uint64_t *builds);

#endif
