/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

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

/* Two digits at S as a number, or -1. */
static int _two(const char *s)
{
	if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9')
		return -1;
	return (s[0] - '0') * 10 + (s[1] - '0');
}

/* The shape scontrol prints limits in, [DAYS-]HH:MM:SS (at most 5 digits
 * of days), read without the general path: its seconds, or -1 for any
 * other text (which the general path then reads, with the same result). */
static long long _scontrol_shape(const char *s)
{
	long long days = 0;
	int h, m, sec, nd = 0;
	const char *p = s;

	while (*p >= '0' && *p <= '9' && nd < 6)
		days = days * 10 + (*p++ - '0'), nd++;
	if (*p == '-' && nd >= 1 && nd <= 5)
		p++;
	else if (nd == 2 && *p == ':')
		p = s, days = 0;
	else
		return -1;
	if ((h = _two(p)) < 0 || p[2] != ':' || (m = _two(p + 3)) < 0 ||
	    p[5] != ':' || (sec = _two(p + 6)) < 0 || p[8])
		return -1;
	return days * 86400 + h * 3600 + m * 60 + sec;
}

int mf_timestr_secs(const char *s, uint32_t *secs, bool *unlimited,
		    mf_error_t *errp)
{
	unsigned long long v[4] = { 0, 0, 0, 0 }, total;
	long long quick;
	int n;

	if (s && (quick = _scontrol_shape(s)) >= 0 && quick <= 0x7fffffff) {
		*secs = (uint32_t)quick;
		*unlimited = false;
		return 0;
	}
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

/* A unit word after now+N: a prefix of one of these (at least its first
 * letter) gives its seconds; 0 if none. */
static long _unit_secs(const char *u)
{
	static const struct {
		const char *word;
		long secs;
	} units[] = {
		{ "seconds", 1 }, { "minutes", 60 }, { "hours", 3600 },
		{ "days", 86400 }, { "weeks", 604800 },
	};
	size_t n = strlen(u);

	if (!n)
		return 1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (n <= strlen(units[i].word) &&
		    !strncasecmp(u, units[i].word, n))
			return units[i].secs;
	return 0;
}

/* "now", "now+N[unit]", "now-N[unit]" (spaces allowed around the sign). */
static int _now_form(const char *s, time_t ref, time_t *out)
{
	const char *p = s + 3;
	long sign, n = 0, unit;
	char *end;

	while (*p == ' ')
		p++;
	if (!*p) {
		*out = ref;
		return 0;
	}
	if (*p != '+' && *p != '-')
		return -1;
	sign = *p == '+' ? 1 : -1;
	p++;
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	n = strtol(p, &end, 10);
	if (n > 100L * 365 * 86400)
		return -1;
	unit = _unit_secs(end);
	if (!unit)
		return -1;
	*out = ref + sign * n * unit;
	return 0;
}

/* Exactly N digits at *P into *V, moving *P on.  Returns 0 or -1. */
static int _take_digits(const char **p, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (**p < '0' || **p > '9')
			return -1;
		*v = *v * 10 + (**p - '0');
	}
	return 0;
}

int mf_time_point(const char *s, time_t ref, time_t *out, mf_error_t *errp)
{
	static const struct {
		const char *word;
		int hour;
	} hours[] = {
		{ "midnight", 0 }, { "noon", 12 }, { "fika", 15 },
		{ "teatime", 16 },
	};
	struct tm now_tm, tm;
	int y = -1, mo = 0, d = 0, h = -1, mi = 0, sec = 0;
	const char *p;

	if (!s || !*s)
		goto bad;
	if (strspn(s, "0123456789") == strlen(s)) {
		char *end;
		long long v = strtoll(s, &end, 10);

		if (v < 0 || v > 0x7fffffffLL * 4)
			goto bad;
		*out = (time_t)v;
		return 0;
	}
	if (!strncasecmp(s, "now", 3)) {
		if (_now_form(s, ref, out))
			goto bad;
		return 0;
	}
	localtime_r(&ref, &now_tm);
	p = s;
	/* the day: YYYY-MM-DD, today or tomorrow */
	if (!strncasecmp(p, "today", 5)) {
		y = now_tm.tm_year + 1900, mo = now_tm.tm_mon + 1;
		d = now_tm.tm_mday;
		p += 5;
	} else if (!strncasecmp(p, "tomorrow", 8)) {
		y = now_tm.tm_year + 1900, mo = now_tm.tm_mon + 1;
		d = now_tm.tm_mday + 1;     /* mktime carries over */
		p += 8;
	} else if (strlen(p) >= 10 && p[4] == '-' && p[7] == '-') {
		if (_take_digits(&p, 4, &y) || *p++ != '-' ||
		    _take_digits(&p, 2, &mo) || *p++ != '-' ||
		    _take_digits(&p, 2, &d) || mo < 1 || mo > 12 || d < 1 ||
		    d > 31)
			goto bad;
	}
	if (y >= 0 && (*p == 'T' || *p == ' ')) {
		if (!*++p)
			goto bad;
	} else if (y >= 0 && *p) {
		goto bad;
	}
	/* the time of day: HH:MM[:SS] or a named hour */
	for (size_t i = 0; *p && h < 0 && i < sizeof(hours) / sizeof(hours[0]);
	     i++)
		if (!strcasecmp(p, hours[i].word)) {
			h = hours[i].hour;
			p += strlen(p);
		}
	if (*p && h < 0) {
		int len = p[1] == ':' ? 1 : 2;

		if (_take_digits(&p, len, &h) || *p++ != ':' ||
		    _take_digits(&p, 2, &mi) || h > 23 || mi > 59)
			goto bad;
		if (*p == ':' && (p++, _take_digits(&p, 2, &sec) || sec > 60))
			goto bad;
		if (*p)
			goto bad;
	}
	if (y < 0 && h < 0)
		goto bad;
	if (h < 0) {
		h = 0;       /* a day alone: its start */
	} else if (y < 0) {
		/* a time alone: the next such time (today if still to come
		 * by the minute, else tomorrow), as sbatch --begin reads it */
		bool later = h > now_tm.tm_hour ||
			     (h == now_tm.tm_hour && mi > now_tm.tm_min);

		y = now_tm.tm_year + 1900, mo = now_tm.tm_mon + 1;
		d = now_tm.tm_mday + (later ? 0 : 1);
	}
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	*out = mktime(&tm);
	if (*out == (time_t)-1)
		goto bad;
	return 0;
bad:
	return mf_errprintf(errp, "'%s' is not a time (seconds since the "
			    "epoch, YYYY-MM-DD[THH:MM[:SS]], HH:MM[:SS], "
			    "now[+N[seconds|minutes|hours|days|weeks]], "
			    "today, tomorrow, midnight, noon)", s ? s : "");
}
