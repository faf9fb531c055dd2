/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "timestr.h"

/* The shape check: digits, at most one '-' (and no ':' before it), at most
 * two ':', at least one digit in every field that Slurm requires. */
static bool _valid_shape(const char *s)
{
	int fields = 0, dashes = 0, colons = 0;
	bool in_digits = false;

	for (const char *p = s; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			if (!in_digits)
				fields++;
			in_digits = true;
		} else if (*p == '-') {
			if (colons)
				return false;
			dashes++;
			in_digits = false;
		} else if (*p == ':') {
			colons++;
			in_digits = false;
		} else {
			return false;
		}
	}
	if (!fields || dashes > 1 || colons > 2)
		return false;
	/* every separator needs a number on both sides */
	if (s[0] == '-' || s[0] == ':' || s[strlen(s) - 1] == ':')
		return false;
	if (s[strlen(s) - 1] == '-')      /* "7-": days alone, as Slurm */
		return !colons && fields == 1;
	return fields == dashes + colons + 1;
}

/* Read up to 4 numbers separated by SEPS into V; returns how many. */
static int _numbers(const char *s, unsigned long long v[4])
{
	int n = 0;
	const char *p = s;

	while (*p && n < 4) {
		char *end;

		v[n++] = strtoull(p, &end, 10);
		if (end - p > 12)      /* far too long for any time */
			v[n - 1] = ~0ULL >> 4;
		p = *end ? end + 1 : end;
	}
	return n;
}

int mf_timestr_secs(const char *s, uint32_t *secs, bool *unlimited,
		    mf_error_t *errp)
{
	unsigned long long v[4] = { 0, 0, 0, 0 }, total;
	int n;

	if (!s || !*s)
		return mf_errprintf(errp, "empty time string");
	if (!strcasecmp(s, "UNLIMITED") || !strcasecmp(s, "INFINITE") ||
	    !strcmp(s, "-1")) {
		*secs = 0;
		*unlimited = true;
		return 0;
	}
	if (!_valid_shape(s))
		return mf_errprintf(errp, "'%s' is not a time (MIN, MIN:SEC, "
				    "HR:MIN:SEC, DAYS-HR[:MIN[:SEC]] or "
				    "UNLIMITED)", s);
	n = _numbers(s, v);
	if (strchr(s, '-'))
		total = v[0] * 86400 + v[1] * 3600 + v[2] * 60 + v[3];
	else if (n == 3)
		total = v[0] * 3600 + v[1] * 60 + v[2];
	else
		total = v[0] * 60 + v[1];
	if (total > 0x7fffffffULL || v[0] > 0x7fffffffULL)
		return mf_errprintf(errp, "time '%s' is too long (more than "
				    "68 years)", s);
	*secs = (uint32_t)total;
	*unlimited = false;
	return 0;
}

int mf_timestr_mins(const char *s, uint32_t *mins, mf_error_t *errp)
{
	uint32_t secs;
	bool unlimited;

	if (mf_timestr_secs(s, &secs, &unlimited, errp))
		return -1;
	*mins = unlimited ? 0xffffffffU : (secs + 59) / 60;
	return 0;
}
