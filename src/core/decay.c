/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <float.h>
#include <math.h>
#include <strings.h>

#include "decay.h"

static const char *const _reset_names[] = {
	[MF_RESET_NONE] = "NONE",
	[MF_RESET_NOW] = "NOW",
	[MF_RESET_DAILY] = "DAILY",
	[MF_RESET_WEEKLY] = "WEEKLY",
	[MF_RESET_MONTHLY] = "MONTHLY",
	[MF_RESET_QUARTERLY] = "QUARTERLY",
	[MF_RESET_YEARLY] = "YEARLY",
};

double mf_decay_factor(uint32_t half_life)
{
	if (!half_life)
		return 1.0;
	return 1.0 - (0.693 / (double) half_life);
}

double mf_decay_over(double factor, double seconds)
{
	double d;

	if (seconds <= 0.0)
		return 1.0;
	d = pow(factor, seconds);
	return d < DBL_MIN ? DBL_MIN : d;
}

double mf_decay_period_factor(uint32_t half_life, uint32_t period)
{
	return mf_decay_over(mf_decay_factor(half_life), (double) period);
}

long double mf_decay_usage(long double usage, uint32_t half_life,
			   double seconds)
{
	double d = mf_decay_over(mf_decay_factor(half_life), seconds);

	return d == 1.0 ? usage : usage * d;
}

int mf_reset_period_parse(const char *s, mf_reset_period_t *out,
			  mf_error_t *errp)
{
	for (size_t i = 0; i < sizeof(_reset_names) / sizeof(_reset_names[0]); i++) {
		if (s && !strcasecmp(s, _reset_names[i])) {
			*out = (mf_reset_period_t) i;
			return 0;
		}
	}
	return mf_errprintf(errp, "PriorityUsageResetPeriod '%s' is not one "
			    "of NONE, NOW, DAILY, WEEKLY, MONTHLY, "
			    "QUARTERLY, YEARLY", s ? s : "");
}

const char *mf_reset_period_name(mf_reset_period_t p)
{
	if ((size_t) p < sizeof(_reset_names) / sizeof(_reset_names[0]))
		return _reset_names[p];
	return "UNKNOWN";
}

time_t mf_reset_boundary(mf_reset_period_t p, time_t t)
{
	struct tm day;
	int back_days = 0;

	if (p == MF_RESET_NONE || p == MF_RESET_NOW || !localtime_r(&t, &day))
		return 0;
	switch (p) {
	case MF_RESET_DAILY:
		break;
	case MF_RESET_WEEKLY:
		back_days = day.tm_wday;        /* Sunday is 0 */
		break;
	case MF_RESET_YEARLY:
		day.tm_mon = 0;
		day.tm_mday = 1;
		break;
	case MF_RESET_QUARTERLY:
		day.tm_mon -= day.tm_mon % 3;
		day.tm_mday = 1;
		break;
	case MF_RESET_MONTHLY:
		day.tm_mday = 1;
		break;
	default:
		return 0;
	}
	/* mktime normalises a day of month below 1 into the month before */
	day.tm_mday -= back_days;
	day.tm_hour = day.tm_min = day.tm_sec = 0;
	day.tm_isdst = -1;
	return mktime(&day);
}

bool mf_reset_due(mf_reset_period_t p, time_t last_reset, time_t now,
		  time_t *boundary)
{
	time_t b = mf_reset_boundary(p, now);

	if (!b || b <= last_reset)
		return false;
	if (boundary)
		*boundary = b;
	return true;
}
