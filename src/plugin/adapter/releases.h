/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * adapter/releases.h: which Slurm release the plugin is built for, and
 * what each release changed that the plugin sees.  Every MFA_* switch below
 * is decided here, from slurm_version.h's SLURM_VERSION_NUMBER, and read
 * only by the files in src/plugin/adapter/; the engine (src/plugin/engine/)
 * is the same for every release.
 *
 * | release  | what changed for a priority plugin                              |
 * |----------|-----------------------------------------------------------------|
 * | 22.05    | the base: List/ListIterator, src/common/slurm_priority.h,       |
 * |          | struct job_details; job_ptr->prio_factors is a whole            |
 * |          | priority_factors_object_t; sprio's request (job ids, user ids,  |
 * |          | partitions) is passed to the plugin, which filters              |
 * | 23.02    | plugin interfaces move to src/interfaces/; list_t, list_itr_t   |
 * |          | and job_details_t names; prio_factors becomes the smaller      |
 * |          | priority_factors_t inside sprio's object; priority_p_recover()  |
 * |          | (new): slurmctld asks for a recovered job's priority            |
 * | 23.02    | job size: live nodes (active_node_record_count), 0 on a cluster |
 * |          | without nodes or CPUs, favor-small node term floored at 0       |
 * |          | (src/core/release.h); init() runs under slurmctld's write locks |
 * |          | before jobs are loaded; sprio's list under its read locks       |
 * | 23.11    | from 23.11.6 slurmctld starts the decay thread itself through   |
 * |          | priority_p_thread_start(), after it has read its state;         |
 * |          | assoc_mgr_is_user_acct_coord() takes a lock flag                |
 * | 24.05    | priority_p_get_priority_factors_list(uid): slurmctld filters    |
 * |          | sprio's request itself; per-partition priorities keep their     |
 * |          | partitions' names (job_ptr->part_prio), sorted when made anew;  |
 * |          | site_factor_g_reconfig() gone                                   |
 * | 24.11    | List/ListIterator names gone; a job may ask for several QOS     |
 * |          | (qos_list); per-partition priorities move to job_ptr->prio_mult |
 * |          | (partitions x QOS, + priority_array_names), slurmctld keeps the |
 * |          | partition list sorted; lock_state_files() moves to libslurm     |
 * | 25.05    | (nothing new for a priority plugin)                             |
 * | 25.11    | priority_p_calc_fs_factor() removed: slurmctld keeps the        |
 * |          | classic fs_factor in each association                           |
 * | 26.05    | sprio's object carries a slurm_step_id_t                        |
 *
 * MFA_FAMILY names the adapter (src/plugin/adapter/family_*.c) whose entry
 * points are compiled in: the releases between two families share one.
 */
#ifndef MFPRIO_PLUGIN_ADAPTER_RELEASES_H
#define MFPRIO_PLUGIN_ADAPTER_RELEASES_H

#include "slurm/slurm_version.h"

#define MFA_AT_LEAST(a, b, c) \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(a, b, c))

#if !MFA_AT_LEAST(22, 5, 0) || MFA_AT_LEAST(26, 6, 0)
#error "mfprio's plugin supports Slurm 22.05 to 26.05; this source is another release"
#endif

/* the adapter families, oldest first */
#define MFA_FAMILY_2205 1   /* 22.05 */
#define MFA_FAMILY_2302 2   /* 23.02, 23.11 */
#define MFA_FAMILY_2405 3   /* 24.05, 24.11, 25.05 */
#define MFA_FAMILY_2511 4   /* 25.11, 26.05 */

#if MFA_AT_LEAST(25, 11, 0)
#define MFA_FAMILY MFA_FAMILY_2511
#elif MFA_AT_LEAST(24, 5, 0)
#define MFA_FAMILY MFA_FAMILY_2405
#elif MFA_AT_LEAST(23, 2, 0)
#define MFA_FAMILY MFA_FAMILY_2302
#else
#define MFA_FAMILY MFA_FAMILY_2205
#endif

/* 23.02 */
#define MFA_HAS_INTERFACES_DIR     MFA_AT_LEAST(23, 2, 0)
#define MFA_HAS_LIST_T             MFA_AT_LEAST(23, 2, 0)
#define MFA_HAS_PRIORITY_FACTORS_T MFA_AT_LEAST(23, 2, 0)
#define MFA_HAS_RECOVER            MFA_AT_LEAST(23, 2, 0)
/* 23.11.6 */
#define MFA_HAS_THREAD_START       MFA_AT_LEAST(23, 11, 6)
/* 24.05 */
#define MFA_FACTORS_LIST_UID_ONLY  MFA_AT_LEAST(24, 5, 0)
#define MFA_HAS_PRIORITY_PARTS     MFA_AT_LEAST(24, 5, 0)
/* 24.11 */
#define MFA_HAS_PRIO_MULT          MFA_AT_LEAST(24, 11, 0)
#define MFA_HAS_QOS_LIST           MFA_AT_LEAST(24, 11, 0)
/* 25.11 */
#define MFA_HAS_CALC_FS_FACTOR     (!MFA_AT_LEAST(25, 11, 0))
/* 26.05 */
#define MFA_FACTORS_STEP_ID        MFA_AT_LEAST(26, 5, 0)

#endif
