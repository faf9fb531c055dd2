/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * billing: the billable TRES of a job (or a partition's totals), what
 * fair-share usage is charged in, from a partition's TRESBillingWeights:
 *
 *   default         SUM over TRES of count * weight
 *   MAX_TRES        MAX over the node TRES (cpu, mem, node, gres/...) of
 *                   count * weight, plus the SUM over the global ones
 *                   (energy, fs/disk, vmem, pages, license/..., bb/...)
 *   no weights      the CPU count
 *
 * The billing TRES itself and counts not consumed (MF_TRES_NO_CONSUME)
 * are left out.  Memory counts are in MB; a weight written Mem=0.25G is
 * 0.25/1024 per MB (mf_tres_weights_parse).  slurmctld stores the result
 * truncated to an integer in the job's billing TRES.
 */
#ifndef MFPRIO_BILLING_H
#define MFPRIO_BILLING_H

#include <stdint.h>

#include "tres.h"

/*
 * COUNTS and WEIGHTS have set->cnt entries; COUNTS NULL gives 0, WEIGHTS
 * NULL gives the CPU count; FLAGS are the PriorityFlags (MAX_TRES).
 */
double mf_billing(const mf_tres_set_t *set, const uint64_t *counts,
		  const double *weights, uint32_t flags);

#endif
