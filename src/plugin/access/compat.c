/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compat: slurmctld calls whose name or signature differs between releases
 * (see the table in releases.h).
 */
#include "src/plugin/access/compat.h"

#include "src/plugin/access/ctld.h"

bool mfa_job_visible(job_record_t *job, uid_t uid)
{
	int mcs;

	if (!(slurm_conf.private_data & PRIVATE_DATA_JOBS) ||
	    job->user_id == uid || mfa_is_operator(uid))
		return true;
	mcs = slurm_mcs_get_privatedata();
	if (mcs == 0) {
#if MFA_COORD_CHECK_LOCKED_ARG
		return assoc_mgr_is_user_acct_coord(mfa_acct_db_conn(), uid,
						    job->account, false);
#else
		return assoc_mgr_is_user_acct_coord(mfa_acct_db_conn(), uid,
						    job->account);
#endif
	}
	if (mcs == 1)
		return mcs_g_check_mcs_label(uid, job->mcs_label, false) == 0;
	return true;
}

void mfa_site_factor_init(void)
{
#if MFA_HAS_INTERFACES_DIR
	(void) site_factor_g_init();
#else
	(void) site_factor_plugin_init();
#endif
}

void mfa_site_factor_fini(void)
{
#if MFA_HAS_INTERFACES_DIR
	(void) site_factor_g_fini();
#else
	(void) site_factor_plugin_fini();
#endif
}

void mfa_site_factor_reconfig(void)
{
#if !MFA_SITE_FACTOR_SELF_RELOAD
	site_factor_g_reconfig();
#endif
	/* 24.05 and later: slurmctld reloads site_factor itself */
}

uint32_t mfa_node_count(void)
{
#if MFA_HAS_ACTIVE_NODE_COUNT
	return active_node_record_count > 0 ?
		(uint32_t) active_node_record_count : 0;
#else
	return node_record_count > 0 ? (uint32_t) node_record_count : 0;
#endif
}

int mfa_qos_run_totals(slurmdb_qos_rec_t *qos, job_record_t *job,
		       mfa_run_total_t *totals)
{
	int n = 0;
#if MFA_HAS_QOS_USED_LISTS
	slurmdb_used_limits_t *used;

	if (!job->assoc_ptr)
		return 0;
#endif
	totals[n++] = (mfa_run_total_t) {
		.run = qos->usage->grp_used_tres_run_secs, .what = "" };
#if MFA_HAS_QOS_USED_LISTS
	/* both make the entry when it is missing, as slurmctld does */
	used = mfa_qos_acct_used(&qos->usage->acct_limit_list,
				 job->assoc_ptr->acct);
	if (used && used->tres_run_secs)
		totals[n++] = (mfa_run_total_t) {
			.run = used->tres_run_secs, .what = " (account)" };
	used = mfa_qos_user_used(&qos->usage->user_limit_list,
				 job->user_id);
	if (used && used->tres_run_secs)
		totals[n++] = (mfa_run_total_t) {
			.run = used->tres_run_secs, .what = " (user)" };
#endif
	return n;
}
