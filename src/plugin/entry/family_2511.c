/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * family_2511: the entry points of Slurm 25.11, 26.05 and 26.11.
 *
 * As 24.05, without priority_p_calc_fs_factor(): the classic fair-share
 * factor of every association is kept in the association itself (the
 * engine writes it at each computation, and in
 * priority_p_set_assoc_usage()), where slurmctld and sshare read it.
 * fini() returns nothing.
 */
#include "src/plugin/access/slurm.h"
#include "src/plugin/engine/mfp_entry.h"
#include "src/plugin/entry/entry_forms.h"
#include "src/plugin/engine/mfp_sprio.h"

/* plugin_name and the entry points every release shares: entry_common.c */

#if MFA_FAMILY == MFA_FAMILY_2511

int init(void);
void fini(void);
void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc);

int init(void)
{
	return mfp_init();
}

void fini(void)
{
	mfp_fini();
}

MFE_THREAD_START
MFE_RECOVER

void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	mfp_set_assoc_usage(assoc);
	mfp_assoc_fs_factor(assoc);
}

MFE_FACTORS_LIST_UID

#endif
