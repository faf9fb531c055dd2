/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "billing.h"
#include "priority_flags.h"

double mf_billing(const mf_tres_set_t *set, const uint64_t *counts,
		  const double *weights, uint32_t flags)
{
	double node_part = 0.0, global_part = 0.0;

	if (!counts)
		return 0.0;
	if (!weights)
		return (double)counts[MF_TRES_CPU];
	for (uint32_t i = 0; i < set->cnt; i++) {
		double billed;

		if (i == MF_TRES_BILLING || counts[i] == MF_TRES_NO_CONSUME)
			continue;
		billed = (double)counts[i] * weights[i];
		if ((flags & MF_FLAG_MAX_TRES) && mf_tres_is_node_type(set, i)) {
			if (billed > node_part)
				node_part = billed;
		} else
			global_part += billed;
	}
	return node_part + global_part;
}
