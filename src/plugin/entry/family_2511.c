/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * family_2511: the entry points of Slurm 25.11 and 26.05.
 *
 * As 24.05, without priority_p_calc_fs_factor(): the classic fair-share
 * factor of every association is kept in the association itself (the
 * engine writes it at each computation, and in
 * priority_p_set_assoc_usage()), where slurmctld and sshare read it.
 * fini() returns nothing.
 */
#include "src/plugin/access/slurm.h"
#include "src/plugin/engine/mfp_entry.h"
#include "src/plugin/engine/mfp_sprio.h"

/* plugin_name and the entry points every release shares: entry_common.c */

#if MFA_FAMILY == MFA_FAMILY_2511

int init(void);
void fini(void);
uint32_t priority_p_recover(uint32_t prio_boost);
void priority_p_thread_start(void);
void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc);
list_t *priority_p_get_priority_factors_list(uid_t uid);

int init(void)
{
	return mfp_init();
}

void fini(void)
{
	mfp_fini();
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
	mfp_assoc_fs_factor(assoc);
}

list_t *priority_p_get_priority_factors_list(uid_t uid)
{
	if (!mfp_controller())
		return NULL;
	return mfp_factors_list(NULL, uid);
}

#endif
