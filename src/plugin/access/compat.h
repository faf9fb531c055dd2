/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access/compat: slurmctld's figures and calls whose name, place or
 * signature differs between releases (see the table in releases.h), one
 * name each.
 *
 * Locking is the caller's, as stated per function.  Nothing here fails:
 * each returns what the release has (a count of 0 where it has none).
 */
#ifndef MFPRIO_PLUGIN_ACCESS_COMPAT_H
#define MFPRIO_PLUGIN_ACCESS_COMPAT_H

#include "src/plugin/access/slurm.h"

#include "src/core/release.h"

/* The release built for, as the core names it (src/core/release.h). */
#define MFA_CORE_RELEASE MF_RELEASE(SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER), \
				    SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER))

/* The node count the job size factor divides by: the live nodes from
 * 23.02 (active_node_record_count), every node slot before. */
uint32_t mfa_node_count(void);

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

#endif
