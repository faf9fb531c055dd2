/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_jobs: a job's priority through the core (src/core/priority.h), and
 * what sprio and the metrics need to know of a job.
 *
 * The core's settings are the ones in force (mfp_settings.h), handed to it
 * as they are with the cluster's live figures (CPUs, nodes, highest
 * partition, QOS and association priorities) beside them.  Where a release
 * keeps the factors and per-partition (per-QOS) priorities that come out
 * is the accessors' business (mfa_factors_store, mfa_job_prio_array):
 * this module only hands them over.
 *
 * Locks: the caller holds slurmctld's job lock as said per function; the
 * assoc_mgr locks are taken inside unless the caller says it holds them
 * (mfp_pass_t.assoc_locked).  Nothing here fails: a job that cannot be
 * priced (no details) gets priority 0 and no factors, with an error line.
 */
#ifndef MFPRIO_PLUGIN_MFP_JOBS_H
#define MFPRIO_PLUGIN_MFP_JOBS_H

#include "src/plugin/access/access.h"

/* The priority of JOB now, with its factors and per-partition priorities
 * updated (job write lock held by the caller). */
uint32_t mfp_job_priority(job_record_t *job_ptr, time_t now);

/* A pass over the job list setting priorities: its time, and what it did
 * (for mfp_stats). */
typedef struct {
	time_t now;
	uint32_t recomputed;     /* priorities computed */
	uint32_t changed;        /* written anew */
	uint32_t skipped;        /* held, running, powering up: left alone */
	uint32_t total;          /* jobs in slurmctld's list */
	bool assoc_locked;       /* the walker holds assoc_mgr's assoc and
				  * QOS read locks */
} mfp_pass_t;

/* Does the decay pass price JOB (not held, not powering up; pending, or
 * running under CALCULATE_RUNNING)?  Job lock held. */
bool mfp_job_priced(job_record_t *job_ptr);

/* Re-prioritise JOB in a pass (list_for_each callback; ARG is an
 * mfp_pass_t, whose counters it updates).  Job write lock held.  Returns
 * 0 (go on). */
int mfp_job_reprioritize(void *job, void *arg);

/* Does sprio list JOB at NOW (pending, or running under
 * CALCULATE_RUNNING; eligible; not held; in a partition)?  FLAGS are the
 * settings' PriorityFlags (mfp_conf.slurm_flags, read once per list by the
 * caller).  Visibility to the asking user is the accessors'
 * (mfa_job_visible). */
bool mfp_job_listed(job_record_t *job_ptr, time_t now, uint32_t flags);

/*
 * sprio's figures of a multi-partition job in PART_PTR, or with one of its
 * QOS: the weighted partition term into *W_PART and, when W_TRES is given,
 * the weighted TRES terms into W_TRES (TRES_CNT of them, each taken anew
 * against this partition: a TRES the partition lacks gives 0); with QOS
 * (not NULL) of non-zero priority, the weighted QOS term into *W_QOS.
 * PART_PTR NULL leaves *W_PART and W_TRES alone.  Job read lock held.
 */
void mfp_job_part_terms(job_record_t *job_ptr, part_record_t *part_ptr,
			slurmdb_qos_rec_t *qos, double *w_part, double *w_qos,
			double *w_tres, uint32_t tres_cnt);

#endif
