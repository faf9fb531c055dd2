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
#include "src/plugin/engine/mfp_settings.h"
#include "src/plugin/engine/mfp_sprio.h"

/* plugin_name and the entry points every release shares: entry_common.c */

#if MFA_FAMILY == MFA_FAMILY_2405

int init(void);
int fini(void);
uint32_t priority_p_recover(uint32_t prio_boost);
void priority_p_thread_start(void);
void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc);
double priority_p_calc_fs_factor(long double usage_efctv,
				 long double shares_norm);
list_t *priority_p_get_priority_factors_list(uid_t uid);

int init(void)
{
	return mfp_init();
}

int fini(void)
{
	mfp_fini();
	return SLURM_SUCCESS;
}

void priority_p_thread_start(void)
{
	mfp_thread_start();
}

uint32_t priority_p_recover(uint32_t prio_boost)
{
	mfp_initial_priorities();
	return 0;
}

void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	mfp_set_assoc_usage(assoc);
}

double priority_p_calc_fs_factor(long double usage_efctv,
				 long double shares_norm)
{
	return mfp_calc_fs_factor(usage_efctv, shares_norm);
}

list_t *priority_p_get_priority_factors_list(uid_t uid)
{
	if (!mfp_controller())
		return NULL;
	return mfp_factors_list(NULL, uid);
}

#endif
