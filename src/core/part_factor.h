/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * part_factor: the partition's PriorityJobFactor normalized to the highest
 * PriorityJobFactor of all partitions (at least 1, as slurmctld keeps it):
 *
 *   partition_factor = PriorityJobFactor / max(1, max PriorityJobFactor)
 *
 * PriorityFlags=NO_NORMAL_PART: the PriorityJobFactor itself.
 */
#ifndef MFPRIO_PART_FACTOR_H
#define MFPRIO_PART_FACTOR_H

#include <stdint.h>

double mf_part_factor(uint16_t priority_job_factor, uint32_t part_max_priority,
		      uint32_t flags);

#endif
