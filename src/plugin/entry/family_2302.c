/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * family_2302: the entry points of Slurm 23.02 and 23.11.
 *
 * New: priority_p_recover(), which slurmctld calls once it has recovered
 * its jobs (without fair-share, every job's priority is computed there,
 * not in init()); from 23.11.6, priority_p_thread_start(), where the decay
 * thread starts (before it, init() starts it).  slurmctld holds the job
 * read lock around sprio's list.
 */
#include "src/plugin/access/slurm.h"
#include "src/plugin/engine/mfp_entry.h"
#include "src/plugin/entry/entry_forms.h"
#include "src/plugin/engine/mfp_settings.h"
#include "src/plugin/engine/mfp_sprio.h"

/* plugin_name and the entry points every release shares: entry_common.c */

#if MFA_FAMILY == MFA_FAMILY_2302

int init(void);
int fini(void);
list_t *priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid);

int init(void)
{
	int rc = mfp_init();

#if !MFA_HAS_THREAD_START
	mfp_thread_start();
#endif
	return rc;
}

int fini(void)
{
	mfp_fini();
	return SLURM_SUCCESS;
}

#if MFA_HAS_THREAD_START
MFE_THREAD_START
#endif
MFE_RECOVER
MFE_SET_ASSOC_USAGE
MFE_CALC_FS_FACTOR

list_t *priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid)
{
	if (!mfp_controller())
		return NULL;
	return mfp_factors_list(req_msg, uid);
}

#endif
