/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rank_gap: which associations of a level to name first when not all of
 * them fit -- the same rule for `mfprio tree` (text and SVG) and the HTML
 * report.
 *
 * An association's gap is its normalised effective usage (usage_efctv,
 * sshare's EffectvUsage) minus its normalised shares (shares_norm,
 * sshare's NormShares), a figure not yet computed (NAN) counting as 0:
 * above 0 it uses more than its share, below 0 it is starved.  The rank
 * is by the gap's absolute value, largest first (over-share and starved
 * alike); equal ones by name (the user's, else the account's, in strcmp
 * order), then account, then partition (none first), so that the order
 * is total and does not depend on the input's.  Pure: reads only the
 * associations given, writes only the array it sorts.
 */
#ifndef MFPRIO_RANK_GAP_H
#define MFPRIO_RANK_GAP_H

#include <stddef.h>

#include "assoc_tree.h"

/* A's gap: usage_efctv - shares_norm, NAN read as 0.  Returns it. */
double mf_rank_gap(const mf_assoc_t *a);

/* Whether A ranks before B: below 0 before, above 0 after, 0 only when A
 * and B are the same association (or alike in gap, names and partition).
 * Returns it. */
int mf_rank_gap_cmp(const mf_assoc_t *a, const mf_assoc_t *b);

/* Sort the N associations of V in rank order, first the largest gap.
 * Returns nothing. */
void mf_rank_gap_sort(const mf_assoc_t **v, size_t n);

#endif
