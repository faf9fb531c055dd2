/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tres_factor: one factor per TRES, the job's count relative to what its
 * partition has:
 *
 *   TRES_factor_<type> = job's <type> / partition's <type>
 *
 * The partition's node TRES (cpu, mem, node, gres/...) are its nodes'
 * sums; its global TRES (license/..., bb/...) are the whole cluster's; its
 * billing is its totals weighted by its TRESBillingWeights.  A count of 0
 * on either side gives 0.  PriorityFlags=NO_NORMAL_TRES: the job's count
 * itself.  A count the job does not consume (MF_TRES_NO_CONSUME) is 0.
 */
#ifndef MFPRIO_TRES_FACTOR_H
#define MFPRIO_TRES_FACTOR_H

#include <stdint.h>

/*
 * Fill FACTORS (CNT entries) from the job's counts JOB_TRES (NULL: all 0)
 * and the partition's totals PART_TRES (NULL: no partition).
 */
void mf_tres_factors(const uint64_t *job_tres, const uint64_t *part_tres,
		     uint32_t cnt, uint32_t flags, double *factors);

/*
 * Weigh FACTORS by WEIGHTS (PriorityWeightTRES, CNT entries) into WEIGHTED
 * (may be FACTORS itself).  Returns their sum.
 */
double mf_tres_weigh(const double *factors, const double *weights,
		     uint32_t cnt, double *weighted);

#endif
