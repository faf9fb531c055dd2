/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "assoc_factor.h"
#include "priority_flags.h"

double mf_assoc_factor(uint32_t assoc_priority, uint32_t assoc_max_priority,
		       uint32_t flags)
{
	if (assoc_priority == 0xffffffffU)
		assoc_priority = 0;
	if (flags & MF_FLAG_NO_NORMAL_ASSOC)
		return (double)assoc_priority;
	if (!assoc_max_priority || assoc_max_priority == 0xffffffffU)
		return 0.0;
	return (double)assoc_priority / (double)assoc_max_priority;
}
