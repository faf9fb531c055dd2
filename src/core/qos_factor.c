/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "priority_flags.h"
#include "qos_factor.h"

double mf_qos_factor(uint32_t qos_priority, uint32_t qos_max_priority,
		     uint32_t flags)
{
	if (flags & MF_FLAG_NO_NORMAL_QOS)
		return (double)qos_priority;
	if (!qos_max_priority)
		return 0.0;
	return (double)qos_priority / (double)qos_max_priority;
}
