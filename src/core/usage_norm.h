/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_norm: normalized usage, U = usage_raw / root's usage_raw, capped at
 * 1.0 (a shorter half-life set on a live system can leave more usage than
 * the whole now holds).  With no usage anywhere every U is 0.
 *
 * Root keeps NAN: Slurm never computes it, and sshare prints it empty.
 * Account usage must already include the subtree (mf_tree_sum_usage()).
 */
#ifndef MFPRIO_USAGE_NORM_H
#define MFPRIO_USAGE_NORM_H

#include "assoc_tree.h"

/* U of one association given the root's raw usage. */
long double mf_usage_norm_of(long double usage_raw, long double root_raw);

/* U of every association except root.  Cannot fail. */
void mf_usage_norm(mf_tree_t *tree);

#endif
