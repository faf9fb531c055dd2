/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access: the accessors into slurmctld's structures, each hiding one
 * difference between Slurm releases behind one name.  The bottom of the
 * plugin: the files here call nothing of the engine or the entry points
 * above them (where the engine must act per item, it passes a function,
 * as to mfa_job_each_qos()).
 *
 * The plugin's layers, from the top:
 *   - src/plugin/entry/: family_*.c export one release family's whole
 *     surface (entry_common.c what every release shares) and call the
 *     engine's mfp_entry.h;
 *   - src/plugin/engine/: what is computed, when, and under which locks,
 *     the same for every release;
 *   - src/plugin/access/ (this directory), the only code besides the
 *     entry files that knows the release it is built for (releases.h, from
 *     SLURM_VERSION_NUMBER):
 *       - factors.c keeps a job's weighted factors and its per-partition
 *         (and, from 24.11, per-QOS) priorities where that release's
 *         slurmctld and sprio read them;
 *       - sprio.c (sprio.h) makes sprio's objects in that release's shape;
 *       - compat.c wraps the few slurmctld calls whose name or signature
 *         moved;
 *   - src/core/: the formulas, with no Slurm header.
 *
 * Locking is the caller's, as stated per function; nothing here takes a
 * slurmctld lock except where said.  Nothing here fails: a job without
 * what a function needs is left as it is.
 */
#ifndef MFPRIO_PLUGIN_ACCESS_ACCESS_H
#define MFPRIO_PLUGIN_ACCESS_ACCESS_H

#include "src/plugin/access/slurm.h"

#include "src/core/priority.h"

/* The release built for, as the core names it (src/core/release.h). */
#define MFA_CORE_RELEASE MF_RELEASE(SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER), \
				    SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER))

/* The node count the job size factor divides by: the live nodes from
 * 23.02 (active_node_record_count), every node slot before. */
uint32_t mfa_node_count(void);

/* --- a job's factors and priorities (job write lock held) --- */

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

/* --- usage accounting (assoc_mgr QOS write lock held) --- */

/* A running total of TRES-seconds reserved for running jobs, which usage
 * accounting drains as the jobs use them; WHAT qualifies it in messages. */
typedef struct {
	uint64_t *run;           /* one per TRES */
	const char *what;
} mfa_run_total_t;
#define MFA_RUN_TOTALS_MAX 3

/* The running totals of QOS that JOB draws on, into TOTALS (at most
 * MFA_RUN_TOTALS_MAX): the QOS's own, and from 24.05 the job's account's
 * and user's within the QOS (MaxTRESRunMinsPerAccount/User), which
 * slurmctld keeps from then.  Returns how many; 0 from 24.05 for a job
 * without an association (its release leaves the QOS's TRES alone then). */
int mfa_qos_run_totals(slurmdb_qos_rec_t *qos, job_record_t *job,
		       mfa_run_total_t *totals);

/* --- calls that moved --- */

/* PrivateData=jobs: may UID see JOB? (job read lock held) */
bool mfa_job_visible(job_record_t *job, uid_t uid);

/* The site_factor plugin: load, unload, and (where the release has it)
 * reconfigure. */
void mfa_site_factor_init(void);
void mfa_site_factor_fini(void);
void mfa_site_factor_reconfig(void);

/* slurmctld's lock around StateSaveLocation files. */
void mfa_state_files_lock(void);
void mfa_state_files_unlock(void);

#endif
