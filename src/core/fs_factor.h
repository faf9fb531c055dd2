/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs_factor: the classic fair-share factor F = 2^(-(UE/S)/d), d being
 * FairShareDampeningFactor.  S <= 0 gives 0; an unset UE (NAN) gives 0.
 * A damp of 0 is taken as 1 (Slurm refuses 0 in slurm.conf).
 */
#ifndef MFPRIO_FS_FACTOR_H
#define MFPRIO_FS_FACTOR_H

#include <stdint.h>

double mf_fs_factor(long double usage_efctv, long double shares_norm,
		    uint16_t damp);

#endif
