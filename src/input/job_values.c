/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_values: the values of scontrol's job lines (job_values.h).
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "job_values.h"
#include "timestr.h"

/* N digits at S into *V.  Returns 0 or -1. */
static int _digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return 0;
}

/* The start of local hour K (YYYYMMDDHH) by mktime(), or -1 for a day
 * that does not exist (Feb 30). */
static time_t _hour_start(int y, int mo, int d, int h)
{
	struct tm tm = { 0 };
	time_t start;

	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_isdst = -1;
	start = mktime(&tm);
	return tm.tm_mday != d ? (time_t)-1 : start;
}

/*
 * "YYYY-MM-DDTHH:MM:SS" in the local time zone.  mktime() is slow and a
 * dump repeats the same hours: the start of each hour is computed once and
 * kept in a direct-mapped cache (time zones shift by whole hours or half
 * hours at the start of an hour; within an hour the seconds add up).
 * Returns 0 or -1.
 */
static int _parse_local(const char *t, time_t *out)
{
	enum { HOURS = 4096 };
	static struct {
		int64_t key;     /* YYYYMMDDHH + 1: 0 is an empty slot */
		time_t start;
	} hours[HOURS];
	int y, mo, d, h, mi, sec;
	int64_t k;
	size_t slot;

	if (strlen(t) != 19 || t[4] != '-' || t[7] != '-' || t[10] != 'T' ||
	    t[13] != ':' || t[16] != ':' || _digits(t, 4, &y) ||
	    _digits(t + 5, 2, &mo) || _digits(t + 8, 2, &d) ||
	    _digits(t + 11, 2, &h) || _digits(t + 14, 2, &mi) ||
	    _digits(t + 17, 2, &sec) || mo < 1 || mo > 12 || d < 1 ||
	    d > 31 || h > 23 || mi > 59 || sec > 60 || y < 1970)
		return -1;
	k = (((int64_t)y * 100 + mo) * 100 + d) * 100 + h + 1;
	slot = (size_t)(((uint64_t)k * 0x9E3779B97F4A7C15ULL) >> 52) &
	       (HOURS - 1);
	if (hours[slot].key != k) {
		time_t start = _hour_start(y, mo, d, h);

		if (start == (time_t)-1)
			return -1;
		hours[slot].key = k;
		hours[slot].start = start;
	}
	*out = hours[slot].start + mi * 60 + sec;
	return 0;
}

int mf_parse_slurm_time(const char *text, time_t *out)
{
	char *nend;
	long long secs;

	/* scontrol's usual form first: none of the words below has a '-'
	 * at [4] and a 'T' at [10] */
	if (text[0] >= '0' && text[0] <= '9' && text[1] && text[2] &&
	    text[3] && text[4] == '-')
		return _parse_local(text, out);
	if (!strcasecmp(text, "Unknown") || !strcasecmp(text, "None") ||
	    !strcasecmp(text, "N/A") || !strcmp(text, "0")) {
		*out = 0;
		return 0;
	}
	if (isdigit((unsigned char)text[0]) && !strchr(text, '-') &&
	    !strchr(text, ':')) {
		errno = 0;
		secs = strtoll(text, &nend, 10);
		if (*nend || errno || secs < 0)
			return -1;
		*out = (time_t)secs;
		return 0;
	}
	return _parse_local(text, out);
}

/* The N bytes at S, all digits (at least one), as a number within MAX
 * into *OUT.  Returns 0 or -1. */
int mf_jv_uint_n(const char *s, size_t n, uint64_t max,
			 uint64_t *out)
{
	uint64_t v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* A whole number (digits only) into *OUT within MAX.  Returns 0 or -1. */
int mf_jv_uint(const char *s, uint64_t max, uint64_t *out)
{
	return mf_jv_uint_n(s, strlen(s), max, out);
}

int mf_jv_int(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

/* "N" or "N-M" into LO and HI (0 when no range). */
int mf_jv_range(const char *s, uint32_t *lo, uint32_t *hi)
{
	const char *dash = strchr(s, '-');
	uint64_t a, b = 0;

	if (dash) {
		if (mf_jv_uint_n(s, (size_t)(dash - s), 0xffffffffU, &a) ||
		    mf_jv_uint(dash + 1, 0xffffffffU, &b))
			return -1;
	} else if (mf_jv_uint(s, 0xffffffffU, &a)) {
		return -1;
	}
	*lo = (uint32_t)a;
	*hi = (uint32_t)b;
	return 0;
}

