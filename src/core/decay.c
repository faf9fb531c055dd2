/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <float.h>
#include <math.h>
#include <strings.h>

#include "decay.h"

#define MF_DAY  (24 * 60 * 60)
#define MF_WEEK (7 * MF_DAY)

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

time_t mf_next_reset(mf_reset_period_t p, time_t last_reset, time_t now)
{
	struct tm tm;
	time_t t;

	if (!localtime_r(&last_reset, &tm))
		return 0;
	tm.tm_sec = tm.tm_min = tm.tm_hour = 0;
	tm.tm_isdst = -1;

	switch (p) {
	case MF_RESET_DAILY:
		t = mktime(&tm) + MF_DAY;
		while (t + MF_DAY < now)
			t += MF_DAY;
		return t;
	case MF_RESET_WEEKLY:
		t = mktime(&tm) + (time_t) MF_DAY * (7 - tm.tm_wday);
		while (t + MF_WEEK < now)
			t += MF_WEEK;
		return t;
	case MF_RESET_MONTHLY:
		tm.tm_mday = 1;
		if (++tm.tm_mon > 11) {
			tm.tm_mon = 0;
			tm.tm_year++;
		}
		break;
	case MF_RESET_QUARTERLY:
		tm.tm_mday = 1;
		tm.tm_mon = (tm.tm_mon / 3 + 1) * 3;
		if (tm.tm_mon > 11) {
			tm.tm_mon = 0;
			tm.tm_year++;
		}
		break;
	case MF_RESET_YEARLY:
		tm.tm_mday = 1;
		tm.tm_mon = 0;
		tm.tm_year++;
		break;
	default:
		return 0;
	}
	tm.tm_isdst = -1;
	return mktime(&tm);
}
