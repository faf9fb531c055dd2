/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "part_factor.h"
#include "priority_flags.h"

double mf_part_factor(uint16_t priority_job_factor, uint32_t part_max_priority,
		      uint32_t flags)
{
	if (flags & MF_FLAG_NO_NORMAL_PART)
		return (double)priority_job_factor;
	if (part_max_priority < 1)
		part_max_priority = 1;
	return (double)priority_job_factor / (double)part_max_priority;
}
