/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_entry: what every entry point does, whatever the release: the
 * bodies that the release families' files (src/plugin/entry/) call.  The
 * top of the engine: it calls the rest of the engine, never the entry
 * files.
 *
 * Each function opens its own settings scope (mfp_settings.h).  Locks are
 * slurmctld's, as its caller holds them for that entry point, unless said.
 * In a client such as sshare (mfp_controller() false) only the fair-share
 * formula works; the rest does nothing.
 */
#ifndef MFPRIO_PLUGIN_MFP_ENTRY_H
#define MFPRIO_PLUGIN_MFP_ENTRY_H

#include "src/plugin/access/access.h"

/* Loaded: read the settings; in slurmctld, prepare fair-share.  Returns
 * SLURM_SUCCESS (a setting that cannot be used is logged and left out). */
int mfp_init(void);

/* Start the decay thread (slurmctld; a no-op without fair-share or when
 * started already). */
void mfp_thread_start(void);

/* Without fair-share there is no thread: compute every job's priority once
 * so that sprio has figures (takes the job write lock). */
void mfp_initial_priorities(void);

/* Unloaded: stop the thread, free everything. */
void mfp_fini(void);

/* priority_p_set: JOB's priority now (job write lock held). */
uint32_t mfp_set(uint32_t last_prio, job_record_t *job_ptr);

/* priority_p_reconfig: read the settings again; ASSOC_CLEAR: slurmctld
 * re-added whole time limits to the running totals. */
void mfp_reconfig(bool assoc_clear);

/* priority_p_set_assoc_usage: ASSOC's usage figures now (assoc write lock
 * held). */
void mfp_set_assoc_usage(slurmdb_assoc_rec_t *assoc);

/* priority_p_job_end: charge JOB up to its end (job write lock held). */
void mfp_job_end(job_record_t *job_ptr);

/* The classic (and DEPTH_OBLIVIOUS) fair-share factor of ASSOC (of its
 * fair-share parent for FairShare=parent) into assoc->usage->fs_factor,
 * for releases where slurmctld reads it there (25.11 and later); nothing
 * under Fair Tree.  Caller holds the assoc write lock. */
void mfp_assoc_fs_factor(slurmdb_assoc_rec_t *assoc);

/* True inside slurmctld (set by mfp_init). */
bool mfp_controller(void);

#endif
