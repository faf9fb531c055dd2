/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * level_fs: Fair Tree (Slurm's default since 19.05).
 *
 * At each level, for each association among fair-share siblings:
 *   usage_efctv = usage_raw / fs_parent's usage_raw  (0 if that is 0)
 *   level_fs    = shares_norm / usage_efctv          (local shares)
 * with level_fs = 0 when shares_norm is 0 and +inf when usage_efctv is 0.
 * A FairShare=parent user gets +inf (first among its siblings); a
 * FairShare=parent account gets MF_LEVEL_FS_UNSET and has no fair-share
 * children of its own.
 *
 * Then siblings are ranked by level_fs, highest first (users before accounts
 * on equal values), and the tree is walked depth first in that order.  The
 * n-th user met (counting from 0) gets rank N - n, N being the number of
 * user associations, unless it ties with the previous sibling (equal
 * level_fs) or is the first child of an account that tied, in which case it
 * keeps the previous rank.  fs_factor = rank / N.
 *
 * Needs shares_norm in local mode and account usage summed.  Sets
 * usage_norm too (sshare shows it).  Cannot fail.
 */
#ifndef MFPRIO_LEVEL_FS_H
#define MFPRIO_LEVEL_FS_H

#include "assoc_tree.h"

/* Slurm's NO_VAL as a level_fs: "not ranked" (root, FairShare=parent
 * accounts).  It is also what such an account sorts by. */
#define MF_LEVEL_FS_UNSET 4294967294.0L

/* level_fs of one association (its usage_efctv must be set). */
long double mf_level_fs_of(const mf_assoc_t *a);

void mf_fair_tree(mf_tree_t *tree);

#endif
