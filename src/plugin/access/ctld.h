/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access/ctld: everything the plugin takes from slurmctld itself (and from
 * no library), one accessor each.
 *
 * The same .so is loaded by slurmctld, by the sshare client (which calls
 * the fair-share formula, and from 23.11 loads every priority plugin at
 * start), and by programs that stand in for the controller the way
 * Slurm's own test programs do (they define cluster_cpus and job_list,
 * link slurmctld's locks, and nothing else of the controller).  In the
 * last two slurmctld's globals and functions are partly or wholly absent,
 * and a load with every symbol bound at once (-z now, RTLD_NOW) must not
 * fail: so each of them is a weak reference, made weak in ctld.c alone,
 * and each accessor below checks its own symbol before it reads or calls
 * it, and falls back to what a process without it means.  No other file
 * of the plugin names those symbols: a reference made anywhere else would
 * be a strong one, which tests/build/plugin-symbols.sh reports (it is
 * defined by no library of Slurm's).
 *
 * Locking is the caller's, as each says; the fallbacks take no lock.
 */
#ifndef MFPRIO_PLUGIN_ACCESS_CTLD_H
#define MFPRIO_PLUGIN_ACCESS_CTLD_H

#include "src/plugin/access/slurm.h"

/* True when the process is slurmctld or stands in for it: it defines
 * cluster_cpus and has set it (upstream's plugin asks the same).  False in
 * a client such as sshare, where init must start nothing. */
bool mfa_in_controller(void);

/* slurmctld's CPU count, as it is (0 where there is none). */
uint32_t mfa_cluster_cpus(void);

/* The job list (NULL where there is none: no jobs). */
list_t *mfa_job_list(void);

/* The job of JOB_ID (job read lock held): find_job_record, or a walk of
 * the job list where that is absent; NULL when none. */
job_record_t *mfa_find_job(uint32_t job_id);

/* Tell slurmctld that a job's record changed at NOW (its job list is
 * sent anew); nothing where it has no such time. */
void mfa_jobs_changed(time_t now);

/* slurmctld's locks; nothing where they are absent (a process without
 * them has no other thread that takes them). */
void mfa_ctld_lock(slurmctld_lock_t locks);
void mfa_ctld_unlock(slurmctld_lock_t locks);

/* The number of TRES in slurmctld's job arrays: slurmctld_tres_cnt, or
 * assoc_mgr's count where slurmctld's is absent (the associations' arrays
 * are of that size). */
int mfa_tres_cnt(void);

/* AccountingStorageEnforce's flags (0 where absent: nothing enforced). */
uint16_t mfa_accounting_enforce(void);

/* The accounting connection (NULL where absent). */
void *mfa_acct_db_conn(void);

/* JOB's billable TRES from START (assoc_mgr's locks as ASSOC_LOCKED
 * says): slurmctld's calculation, or the job's allocated CPUs where it is
 * absent (what billing is without TRESBillingWeights). */
double mfa_job_billable(job_record_t *job, time_t start, bool assoc_locked);

/* The partition named NAME (part read lock held); NULL where absent. */
part_record_t *mfa_find_part(const char *name);

/* The highest PriorityJobFactor of the partitions (1 where absent or 0). */
uint16_t mfa_part_max_priority(void);

/* When a partition last changed (0 where absent). */
time_t mfa_last_part_update(void);

/* Is UID an operator (false where that cannot be asked)? */
bool mfa_is_operator(uid_t uid);

/* slurmctld's load_assoc_usage() (QOS: load_qos_usage()) run as with
 * slurmctld -i, so that a file missing, short or of another version is
 * the error it returns (what the caller then does) and never slurmctld's
 * fatal(), which from 25.05 a missing assoc_usage is. */
int mfa_load_usage(bool qos);

/* slurmctld's lock around StateSaveLocation's files (a library's from
 * 24.11); nothing where absent. */
void mfa_state_files_lock(void);
void mfa_state_files_unlock(void);

#if MFA_HAS_PRIORITY_PARTS
/* The used limits of ACCT's and UID's entries within a QOS (created when
 * missing, as slurmctld does); NULL where slurmctld's calls are absent. */
slurmdb_used_limits_t *mfa_qos_acct_used(list_t **list, char *acct);
slurmdb_used_limits_t *mfa_qos_user_used(list_t **list, uint32_t uid);

/* "p1,p2" of the partitions of LIST, xmalloc'd (NULL where absent). */
char *mfa_part_list_names(list_t *list);
#endif

#endif
