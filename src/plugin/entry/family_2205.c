/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * family_2205: the entry points of Slurm 22.05's priority plugins.
 *
 * init() starts the decay thread (or, without fair-share, computes every
 * job's priority once); sprio's list takes sprio's request and the plugin
 * takes the job read lock for it.
 */
#include "src/plugin/access/slurm.h"
#include "src/plugin/engine/mfp_entry.h"
#include "src/plugin/entry/entry_forms.h"
#include "src/plugin/engine/mfp_settings.h"
#include "src/plugin/engine/mfp_sprio.h"

/* plugin_name and the entry points every release shares: entry_common.c */

#if MFA_FAMILY == MFA_FAMILY_2205

int init(void);
int fini(void);
List priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid);

int init(void)
{
	int rc = mfp_init();

	mfp_thread_start();
	mfp_initial_priorities();
	return rc;
}

int fini(void)
{
	mfp_fini();
	return SLURM_SUCCESS;
}

MFE_SET_ASSOC_USAGE
MFE_CALC_FS_FACTOR

List priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid)
{
	if (!mfp_controller() || !req_msg)
		return NULL;
	return mfp_factors_list(req_msg, uid);
}

#endif
