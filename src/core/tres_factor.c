/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "priority_flags.h"
#include "tres.h"
#include "tres_factor.h"

void mf_tres_factors(const uint64_t *job_tres, const uint64_t *part_tres,
		     uint32_t cnt, uint32_t flags, double *factors)
{
	for (uint32_t i = 0; i < cnt; i++) {
		uint64_t value = job_tres ? job_tres[i] : 0;

		factors[i] = 0.0;
		if (value == MF_TRES_NO_CONSUME)
			value = 0;
		if (flags & MF_FLAG_NO_NORMAL_TRES)
			factors[i] = (double)value;
		else if (value && part_tres && part_tres[i])
			factors[i] = (double)value / (double)part_tres[i];
	}
}

double mf_tres_weigh(const double *factors, const double *weights,
		     uint32_t cnt, double *weighted)
{
	double sum = 0.0;

	for (uint32_t i = 0; i < cnt; i++) {
		weighted[i] = factors[i] * weights[i];
		sum += weighted[i];
	}
	return sum;
}
