/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qos_factor: the QOS's Priority normalized to the highest Priority of all
 * QOS:
 *
 *   QOS_factor = Priority / max Priority     (0 when all are 0)
 *
 * PriorityFlags=NO_NORMAL_QOS: the Priority itself.
 */
#ifndef MFPRIO_QOS_FACTOR_H
#define MFPRIO_QOS_FACTOR_H

#include <stdint.h>

double mf_qos_factor(uint32_t qos_priority, uint32_t qos_max_priority,
		     uint32_t flags);

#endif
