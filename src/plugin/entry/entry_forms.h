/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * entry_forms: the entry points that several release families export in
 * one and the same form (signature and body), each written once here as a
 * macro that declares and defines it.  A family file names the ones it
 * exports, one line each, beside the ones it writes out itself, so that
 * its exported surface is still read whole in that file.  Included only by
 * src/plugin/entry/family_*.c.
 */
#ifndef MFPRIO_PLUGIN_ENTRY_FORMS_H
#define MFPRIO_PLUGIN_ENTRY_FORMS_H

#include "src/plugin/access/slurm.h"
#include "src/plugin/engine/mfp_entry.h"
#include "src/plugin/engine/mfp_sprio.h"

/* from 23.11.6: slurmctld starts the decay thread here, after its state */
#define MFE_THREAD_START                                                \
	void priority_p_thread_start(void);                             \
	void priority_p_thread_start(void)                              \
	{                                                               \
		mfp_thread_start();                                     \
	}

/* from 23.02: slurmctld has recovered its jobs (prio_boost unused) */
#define MFE_RECOVER                                                     \
	uint32_t priority_p_recover(uint32_t prio_boost);               \
	uint32_t priority_p_recover(uint32_t prio_boost)                \
	{                                                               \
		mfp_initial_priorities();                               \
		return 0;                                               \
	}

/* up to 25.05: usage set from outside (no fair-share factor stored in the
 * association: priority_p_calc_fs_factor() gives it) */
#define MFE_SET_ASSOC_USAGE                                             \
	void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc);    \
	void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)     \
	{                                                               \
		mfp_set_assoc_usage(assoc);                             \
	}

/* up to 25.05: the classic factor of a usage and a share */
#define MFE_CALC_FS_FACTOR                                              \
	double priority_p_calc_fs_factor(long double usage_efctv,       \
					 long double shares_norm);      \
	double priority_p_calc_fs_factor(long double usage_efctv,       \
					 long double shares_norm)       \
	{                                                               \
		return mfp_calc_fs_factor(usage_efctv, shares_norm);    \
	}

/* from 24.05: sprio's list asked for with the user's id only (slurmctld
 * filters it) */
#define MFE_FACTORS_LIST_UID                                            \
	list_t *priority_p_get_priority_factors_list(uid_t uid);        \
	list_t *priority_p_get_priority_factors_list(uid_t uid)         \
	{                                                               \
		if (!mfp_controller())                                  \
			return NULL;                                    \
		return mfp_factors_list(NULL, uid);                     \
	}

#endif
