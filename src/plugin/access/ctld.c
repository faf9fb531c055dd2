/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld: slurmctld's own globals and functions, each a weak reference made
 * weak here and nowhere else, each read or called only after a check of
 * its own address (the contract is in ctld.h).
 */
#include "src/plugin/access/ctld.h"

#if MFA_HAS_PRIORITY_PARTS
#include "src/slurmctld/acct_policy.h"
#endif
#if MFA_STATE_LOCK_IN_LIBSLURM
/* from 24.11 the state files' lock is libslurm's (the header maps the old
 * name onto it): a library symbol, not weak */
#include "src/common/slurm_xlator.h"
#include "src/common/state_save.h"
#endif

/* libslurm's: slurmctld's -i (read_config.c) */
#pragma weak ignore_state_errors

/* Data that only slurmctld defines. */
#pragma weak acct_db_conn
#pragma weak accounting_enforce
#pragma weak cluster_cpus
#pragma weak job_list
#pragma weak last_job_update
#pragma weak last_part_update
#pragma weak part_max_priority
#pragma weak slurmctld_tres_cnt

/* Functions that only slurmctld defines. */
#pragma weak calc_job_billable_tres
#pragma weak find_job_record
#pragma weak find_part_record
#pragma weak lock_slurmctld
#pragma weak unlock_slurmctld
#pragma weak validate_operator
#if !MFA_STATE_LOCK_IN_LIBSLURM
#pragma weak lock_state_files
#pragma weak unlock_state_files
#endif
#if MFA_HAS_PRIORITY_PARTS
#pragma weak acct_policy_get_acct_used_limits
#pragma weak acct_policy_get_user_used_limits
#pragma weak part_list_to_xstr
#endif

bool mfa_in_controller(void)
{
	return &cluster_cpus && cluster_cpus != NO_VAL;
}

uint32_t mfa_cluster_cpus(void)
{
	return &cluster_cpus ? cluster_cpus : 0;
}

list_t *mfa_job_list(void)
{
	return &job_list ? job_list : NULL;
}

static int _job_has_id(void *x, void *key)
{
	return ((job_record_t *) x)->job_id == *(uint32_t *) key;
}

job_record_t *mfa_find_job(uint32_t job_id)
{
	list_t *jobs;

	if (find_job_record)
		return find_job_record(job_id);
	if (!(jobs = mfa_job_list()))
		return NULL;
	return list_find_first(jobs, _job_has_id, &job_id);
}

void mfa_jobs_changed(time_t now)
{
	if (&last_job_update)
		last_job_update = now;
}

void mfa_ctld_lock(slurmctld_lock_t locks)
{
	if (lock_slurmctld && unlock_slurmctld)
		lock_slurmctld(locks);
}

void mfa_ctld_unlock(slurmctld_lock_t locks)
{
	if (lock_slurmctld && unlock_slurmctld)
		unlock_slurmctld(locks);
}

int mfa_tres_cnt(void)
{
	if (&slurmctld_tres_cnt)
		return slurmctld_tres_cnt;
	return (int) g_tres_count;
}

uint16_t mfa_accounting_enforce(void)
{
	return &accounting_enforce ? accounting_enforce : 0;
}

void *mfa_acct_db_conn(void)
{
	return &acct_db_conn ? acct_db_conn : NULL;
}

double mfa_job_billable(job_record_t *job, time_t start, bool assoc_locked)
{
	if (calc_job_billable_tres)
		return calc_job_billable_tres(job, start, assoc_locked);
	return (double) job->total_cpus;
}

part_record_t *mfa_find_part(const char *name)
{
	if (!find_part_record || !name)
		return NULL;
	return find_part_record((char *) name);
}

uint16_t mfa_part_max_priority(void)
{
	if (!&part_max_priority || !part_max_priority)
		return 1;
	return part_max_priority;
}

time_t mfa_last_part_update(void)
{
	return &last_part_update ? last_part_update : 0;
}

bool mfa_is_operator(uid_t uid)
{
	return validate_operator ? validate_operator(uid) : false;
}

int mfa_load_usage(bool qos)
{
	bool was;
	int rc;

	if (!&ignore_state_errors)
		return qos ? load_qos_usage() : load_assoc_usage();
	/* as slurmctld -i does: a missing, short or foreign file is an
	 * error to return, not a fatal() (from 25.05 a missing assoc_usage
	 * is fatal too) */
	was = ignore_state_errors;
	ignore_state_errors = true;
	rc = qos ? load_qos_usage() : load_assoc_usage();
	ignore_state_errors = was;
	return rc;
}

void mfa_state_files_lock(void)
{
#if MFA_STATE_LOCK_IN_LIBSLURM
	lock_state_files();
#else
	if (lock_state_files && unlock_state_files)
		lock_state_files();
#endif
}

void mfa_state_files_unlock(void)
{
#if MFA_STATE_LOCK_IN_LIBSLURM
	unlock_state_files();
#else
	if (lock_state_files && unlock_state_files)
		unlock_state_files();
#endif
}

#if MFA_HAS_PRIORITY_PARTS
slurmdb_used_limits_t *mfa_qos_acct_used(list_t **list, char *acct)
{
	if (!acct_policy_get_acct_used_limits)
		return NULL;
	return acct_policy_get_acct_used_limits(list, acct);
}

slurmdb_used_limits_t *mfa_qos_user_used(list_t **list, uint32_t uid)
{
	if (!acct_policy_get_user_used_limits)
		return NULL;
	return acct_policy_get_user_used_limits(list, uid);
}

char *mfa_part_list_names(list_t *list)
{
	if (!part_list_to_xstr || !list)
		return NULL;
	return part_list_to_xstr(list);
}
#endif
