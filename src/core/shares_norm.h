/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shares_norm: normalized shares of every association.
 *
 * MF_SHARES_PRODUCT is the spec's formula, used by classic and
 * DEPTH_OBLIVIOUS fair-share:
 *   S = (S_user / S_siblings) * (S_account / S_sibling-accounts) * ...
 * up to root, where siblings are fair-share siblings (FairShare=parent
 * associations hand their children to their own fair-share parent, and
 * count no shares).  A FairShare=parent association takes its fair-share
 * parent's value.  A zero S_siblings anywhere on the path gives 0.
 *
 * MF_SHARES_LOCAL is Fair Tree's: only the first factor, S_user/S_siblings.
 *
 * Root gets 1.0 (product) or 0.0 (local: Slurm gives root no siblings).
 * Requires a finalized tree; cannot fail.
 */
#ifndef MFPRIO_SHARES_NORM_H
#define MFPRIO_SHARES_NORM_H

#include "assoc_tree.h"

typedef enum {
	MF_SHARES_PRODUCT,
	MF_SHARES_LOCAL,
} mf_shares_mode_t;

void mf_shares_norm(mf_tree_t *tree, mf_shares_mode_t mode);

#endif
