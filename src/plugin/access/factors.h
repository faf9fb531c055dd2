/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access/factors: where the release built for keeps a job's weighted
 * factors and its per-partition (and, from 24.11, per-QOS) priorities,
 * and the QOS a job asked for (the table is in factors.c).
 *
 * The job owns what is stored on it (slurmctld frees it with the job);
 * the caller keeps what it passes in.  Locking: the job write lock, unless
 * said.  Nothing here fails: a job without what a function needs is left
 * as it is.
 */
#ifndef MFPRIO_PLUGIN_ACCESS_FACTORS_H
#define MFPRIO_PLUGIN_ACCESS_FACTORS_H

#include "src/plugin/access/slurm.h"

#include "src/core/priority.h"

/* Keep R's weighted factors on JOB for sprio (TRES_WEIGHTS: TRES_CNT
 * weights, or NULL for no TRES term); the site factor and nice come from
 * the job itself. */
void mfa_factors_store(job_record_t *job, const mf_prio_result_t *r,
		       const double *tres_weights, uint32_t tres_cnt);

/* Forget JOB's factors (an administrator's priority, or none computable). */
void mfa_factors_clear(job_record_t *job);

/* The QOS a job's priority can be computed with: calls FN once per QOS the
 * job asked for (24.11 and later, a job with several), in slurmctld's order,
 * else once with QOS NULL (meaning: the job's own QOS).  Caller holds the
 * assoc_mgr QOS read lock. */
typedef void (*mfa_qos_fn)(slurmdb_qos_rec_t *qos, void *arg);
void mfa_job_each_qos(job_record_t *job, mfa_qos_fn fn, void *arg);

/* Number of QOS mfa_job_each_qos() calls FN with (1 without a list). */
int mfa_job_qos_count(job_record_t *job);

/*
 * The array of JOB's per-partition (x per-QOS) priorities, N slots, in
 * partition-major order: existing values are kept when N is unchanged (for
 * PriorityFlags=INCR_ONLY), else the array is new and zeroed.  N == 0 frees
 * it (a job back to one partition and one QOS).  Returns NULL for N == 0.
 * The job's partition list is left in the order of the array: sorted by
 * PriorityTier with slurmctld's comparator (up to 23.11 at every call, in
 * 24.05 when the array is made anew; from 24.11 slurmctld keeps it sorted).
 */
uint32_t *mfa_job_prio_array(job_record_t *job, int n);

/* JOB's per-partition (x per-QOS) priorities as mfa_job_prio_array() left
 * them, read only, with their slot count in *N; NULL (*N 0) when it has
 * none (one partition and one QOS: job->priority is the only one). */
const uint32_t *mfa_job_prio_peek(job_record_t *job, int *n);

#endif
