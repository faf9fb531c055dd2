/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fairshare: the whole fair-share computation for one algorithm, as
 * Slurm 22.05 selects it from PriorityFlags.
 *
 *   MF_FS_FAIR_TREE        default (neither flag below)
 *   MF_FS_CLASSIC          PriorityFlags=NO_FAIR_TREE
 *   MF_FS_DEPTH_OBLIVIOUS  PriorityFlags=DEPTH_OBLIVIOUS (wins over
 *                          NO_FAIR_TREE)
 *
 * mf_fairshare_compute() fills, for every association, the figures sshare
 * shows: shares_norm, usage_norm, usage_efctv, fs_factor, level_fs.
 * For classic and DEPTH_OBLIVIOUS, fs_factor is 2^(-(UE/S)/damp) for every
 * association, and level_fs is 0 (Slurm leaves it so).  For Fair Tree,
 * fs_factor is set for users only (accounts keep NAN).
 *
 * The tree must be finalized and account usage summed.  Cannot fail.
 */
#ifndef MFPRIO_FAIRSHARE_H
#define MFPRIO_FAIRSHARE_H

#include <stdint.h>

#include "assoc_tree.h"

typedef enum {
	MF_FS_FAIR_TREE,
	MF_FS_CLASSIC,
	MF_FS_DEPTH_OBLIVIOUS,
} mf_fs_algo_t;

typedef struct {
	mf_fs_algo_t algo;
	uint16_t damp;           /* FairShareDampeningFactor, default 1 */
} mf_fs_config_t;

/* Name of an algorithm for messages ("fair_tree", "classic", ...). */
const char *mf_fs_algo_name(mf_fs_algo_t algo);

void mf_fairshare_compute(mf_tree_t *tree, const mf_fs_config_t *cfg);

#endif
