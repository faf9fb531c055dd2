/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_efctv: effective usage under an account hierarchy.
 *
 * Classic (the spec's "Slurm fair-share formula"):
 *   UE = UA_child + (UE_parent - UA_child) * S_child / S_all_siblings
 * where UA is usage_norm, UE_parent is the fair-share parent's effective
 * usage, and S are raw shares among fair-share siblings.  Children of root
 * take UE = UA.  If the siblings hold no shares, UE = UE_parent.
 *
 * DEPTH_OBLIVIOUS (second spec document): UE is stored as R * S so that
 * 2^(-UE/S) = 2^(-R), with
 *   R = R_parent * r_l^k,  R_parent = UE_parent / S_parent,
 *   r_l = (U/S) / (sum of siblings' U / S_parent),
 *   k = 1 / (1 + (5 ln R_parent)^2)  when ln R_parent * ln r_l < 0,
 *   k = 1                            otherwise (and when R_parent or r_l
 *                                    is 0).
 * When S, S_parent, UE_parent or U is 0, UE = U.
 *
 * In both, a FairShare=parent association takes its fair-share parent's UE.
 * The functions walk top-down; usage_norm and shares_norm (product mode)
 * must already be set.  Root's UE is 1 (the whole machine's usage, as
 * Slurm sets it when the plugin starts).  Cannot fail.
 */
#ifndef MFPRIO_USAGE_EFCTV_H
#define MFPRIO_USAGE_EFCTV_H

#include "assoc_tree.h"

/* One association, classic.  Its fs_parent must already be done. */
void mf_usage_efctv_classic_one(mf_assoc_t *a);

/* One association, DEPTH_OBLIVIOUS.  Its fs_parent must already be done. */
void mf_usage_efctv_depth_oblivious_one(mf_assoc_t *a);

void mf_usage_efctv_classic(mf_tree_t *tree);
void mf_usage_efctv_depth_oblivious(mf_tree_t *tree);

/* The exponent k of DEPTH_OBLIVIOUS for R_parent and r_l. */
long double mf_depth_oblivious_k(long double ratio_p, long double ratio_l);

#endif
