/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assoc_factor: the association's Priority (sacctmgr ... set priority=N)
 * normalized to the highest Priority of all associations:
 *
 *   assoc_factor = Priority / max Priority    (0 when all are 0)
 *
 * An unset Priority (Slurm's INFINITE, 0xffffffff) counts as 0.
 * PriorityFlags=NO_NORMAL_ASSOC: the Priority itself.
 */
#ifndef MFPRIO_ASSOC_FACTOR_H
#define MFPRIO_ASSOC_FACTOR_H

#include <stdint.h>

double mf_assoc_factor(uint32_t assoc_priority, uint32_t assoc_max_priority,
		       uint32_t flags);

#endif
