/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_fs_factor: the fair-share factor of a job, from the association it
 * runs under (its account and user), after mf_fairshare_compute():
 *
 *   Fair Tree                    the user association's fs_factor (also
 *                                with FairShare=parent: Fair Tree ranks
 *                                the user itself)
 *   classic, DEPTH_OBLIVIOUS     2^(-(UE/S)/FairShareDampeningFactor) of
 *                                the association, or, for FairShare=parent,
 *                                of the nearest ancestor that is not
 *
 * A missing association, an unset value (NAN) or S <= 0 give 0.
 */
#ifndef MFPRIO_JOB_FS_FACTOR_H
#define MFPRIO_JOB_FS_FACTOR_H

#include <stdint.h>

#include "assoc_tree.h"
#include "fairshare.h"

double mf_job_fs_factor(const mf_assoc_t *assoc, mf_fs_algo_t algo,
			uint16_t damp);

#endif
