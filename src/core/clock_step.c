/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "clock_step.h"

int64_t mf_clock_step(const mf_reading_t *a, const mf_reading_t *b,
		      int64_t slack)
{
	int64_t d;

	if (!a->boot || !b->boot)
		return 0;
	d = (b->wall - a->wall) - (b->boot - a->boot);
	return (d > slack || d < -slack) ? d : 0;
}

int64_t mf_clock_present(int64_t t, int64_t since, int64_t now, int64_t step)
{
	if (step && t && (t > now || t < since))
		return t + step;
	return t;
}
