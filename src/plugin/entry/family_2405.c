/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * family_2405: the entry points of Slurm 24.05, 24.11 and 25.05.
 *
 * As 23.11.6 and later (the decay thread starts in
 * priority_p_thread_start(), jobs' priorities without fair-share in
 * priority_p_recover()), but sprio's list is asked for with the user's id
 * only: slurmctld filters it itself, and holds the job read lock.
 */
#include "src/plugin/access/slurm.h"
#include "src/plugin/engine/mfp_entry.h"
#include "src/plugin/entry/entry_forms.h"
#include "src/plugin/engine/mfp_settings.h"
#include "src/plugin/engine/mfp_sprio.h"

/* plugin_name and the entry points every release shares: entry_common.c */

#if MFA_FAMILY == MFA_FAMILY_2405

int init(void);
int fini(void);

int init(void)
{
	return mfp_init();
}

int fini(void)
{
	mfp_fini();
	return SLURM_SUCCESS;
}

MFE_THREAD_START
MFE_RECOVER
MFE_SET_ASSOC_USAGE
MFE_CALC_FS_FACTOR
MFE_FACTORS_LIST_UID

#endif
