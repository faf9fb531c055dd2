/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "age_factor.h"
#include "priority_flags.h"

double mf_age_factor(time_t accrue_time, time_t now, uint32_t max_age)
{
	uint32_t waited = 0;

	if (!accrue_time)
		return 0.0;
	/* Slurm keeps the difference in 32 bits, like this. */
	if (now > accrue_time)
		waited = (uint32_t)(now - accrue_time);
	if (waited < max_age)
		return (double)waited / (double)max_age;
	return 1.0;
}

time_t mf_job_accrue_time(uint32_t flags, time_t submit_time,
			  time_t begin_time, bool held, bool dependent,
			  bool beyond_limits, time_t now)
{
	if (flags & MF_FLAG_ACCRUE_ALWAYS)
		return submit_time;
	if (held || dependent || beyond_limits)
		return 0;
	if (!begin_time || begin_time > now)
		return 0;
	return begin_time;
}

double mf_age_crossing(double gap, double weight, uint32_t max_age,
		       double first_age, double later_age)
{
	if (gap <= 0)
		return 0.0;
	if (weight <= 0 || !max_age || first_age <= later_age ||
	    gap > weight * (first_age - later_age))
		return -1.0;
	/* the first job reaches 1 after (1 - first_age) * max_age; the later
	 * then still needs gap / weight of age factor */
	return (double) max_age * (gap / weight + (1.0 - first_age));
}
