/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Slurm time strings (timestr.h): every form slurm.conf accepts, minutes
 * rounded up as slurmctld rounds them, and the strings it refuses.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "suites.h"
#include "timestr.h"

typedef struct {
	const char *text;
	uint32_t secs;           /* expected seconds */
	uint32_t mins;           /* expected minutes (rounded up) */
	bool unlimited;
} time_case_t;

static const time_case_t good[] = {
	{ "0", 0, 0, false },
	{ "5", 300, 5, false },                  /* 5 min = 300 s */
	{ "90", 5400, 90, false },               /* no range check */
	{ "5:30", 330, 6, false },               /* 5*60+30 = 330; 5.5 -> 6 */
	{ "0:01", 1, 1, false },                 /* 1 s rounds up to 1 min */
	{ "2:00:00", 7200, 120, false },         /* 2*3600 */
	{ "1:02:03", 3723, 63, false },          /* 3600+120+3 = 3723 -> 62.05 -> 63 */
	{ "7-0", 604800, 10080, false },         /* 7*86400 */
	{ "14-0", 1209600, 20160, false },       /* 14*86400 */
	{ "7-", 604800, 10080, false },          /* days alone */
	{ "1-12", 129600, 2160, false },         /* 86400+12*3600 */
	{ "1-12:30", 131400, 2190, false },      /* + 30*60 */
	{ "1-00:00:30", 86430, 1441, false },    /* 86400+30 -> 1440.5 -> 1441 */
	{ "0-0:0:59", 59, 1, false },
	/* scontrol's own shape, [DAYS-]HH:MM:SS, read on a short path */
	{ "2-03:04:05", 183845, 3065, false },   /* 172800+10800+240+5; 3064.08 -> 3065 */
	{ "00:00:59", 59, 1, false },
	{ "12:00:00", 43200, 720, false },
	{ "99:59:59", 359999, 6000, false },     /* 99 h: no range check; 5999.98 -> 6000 */
	{ "00-00:01:00", 60, 1, false },
	{ "24855-03:14:07", 2147483647, 35791395, false }, /* 24855*86400+11647 = 2^31-1 */
	{ "1-00:90:00", 91800, 1530, false },    /* 86400+5400: no range check */
	{ "1-00:00:0", 86400, 1440, false },     /* not the short shape: the general path */
	{ "1-00:00:000", 86400, 1440, false },
	{ "UNLIMITED", 0, 0xffffffffU, true },
	{ "infinite", 0, 0xffffffffU, true },
	{ "-1", 0, 0xffffffffU, true },
};

START_TEST(test_good)
{
	const time_case_t *c = &good[_i];
	uint32_t secs = 1, mins = 1;
	bool unl = !c->unlimited;
	mf_error_t e;

	ck_assert_msg(!mf_timestr_secs(c->text, &secs, &unl, &e),
		      "mf_timestr_secs(\"%s\") failed: %s", c->text, e.text);
	ck_assert_msg(secs == c->secs && unl == c->unlimited,
		      "mf_timestr_secs(\"%s\") = %u%s, expected %u%s", c->text,
		      secs, unl ? " unlimited" : "", c->secs,
		      c->unlimited ? " unlimited" : "");
	ck_assert_msg(!mf_timestr_mins(c->text, &mins, &e),
		      "mf_timestr_mins(\"%s\") failed: %s", c->text, e.text);
	ck_assert_msg(mins == c->mins, "mf_timestr_mins(\"%s\") = %u, "
		      "expected %u", c->text, mins, c->mins);
}
END_TEST

static const char *const bad[] = {
	"", "abc", "7d", "1.5", "+5", "-5:00", "5:", ":5", "1-2-3",
	"1:2:3:4", "1:2-3", "7-0 ", " 7-0", "1-:30", "--", "-",
	"99999999999999999999", "30000-0",     /* beyond 2^31-1 seconds */
	"24855-03:14:08", "99999-23:59:59",    /* the short path's shape, too long */
	"1-0a:00:00", "00:00:5x", "123456-00:00:00",
};

START_TEST(test_bad)
{
	uint32_t secs = 42, mins = 42;
	bool unl = false;
	mf_error_t e = { "" };

	ck_assert_msg(mf_timestr_secs(bad[_i], &secs, &unl, &e) == -1,
		      "mf_timestr_secs(\"%s\") should fail", bad[_i]);
	ck_assert_msg(strstr(e.text, bad[_i]) || !*bad[_i],
		      "the error for \"%s\" names it: %s", bad[_i], e.text);
	ck_assert_msg(secs == 42, "no output on failure for \"%s\"", bad[_i]);
	ck_assert_msg(mf_timestr_mins(bad[_i], &mins, NULL) == -1,
		      "mf_timestr_mins(\"%s\") should fail", bad[_i]);
	ck_assert_int_eq(mins, 42);
}
END_TEST

START_TEST(test_null)
{
	uint32_t secs;
	bool unl;

	ck_assert_int_eq(mf_timestr_secs(NULL, &secs, &unl, NULL), -1);
}
END_TEST

/* Points in time (mf_time_point) in UTC, "now" being 1700000000 =
 * 2023-11-14T22:13:20 (a Tuesday); that day starts at 1700000000 - 80000
 * = 1699920000, the next at 1700006400. */
static const struct {
	const char *text;
	time_t at;
} points[] = {
	{ "1700000000", 1700000000 },
	{ "2023-11-14T22:13:20", 1700000000 },
	{ "2023-11-14T22:13", 1699999980 },
	{ "2023-11-14", 1699920000 },
	{ "2023-11-15T00:00:00", 1700006400 },
	{ "now", 1700000000 },
	{ "now+90", 1700000090 },
	{ "now+3m", 1700000180 },
	{ "now+2hours", 1700007200 },
	{ "now-1d", 1699913600 },
	{ "NOW+1week", 1700604800 },
	{ "today", 1699920000 },
	{ "tomorrow", 1700006400 },
	{ "midnight", 1700006400 },              /* the next one */
	{ "noon", 1700049600 },                  /* 22:13 is past noon */
	{ "23:00", 1700002800 },                 /* still to come today */
	{ "22:14:05", 1700000045 },
	{ "22:13", 1700086380 },                 /* not later by the minute */
	{ "9:30", 1700040600 },                  /* tomorrow 9:30 */
	{ "today 12:00", 1699963200 },
};

static const char *const bad_points[] = {
	"", "yesterday", "now+", "now+5parsecs", "now*2", "2023-13-01",
	"25:00", "12:3", "2023-11-14T", "noonish", "-5", "1700000000s",
};

START_TEST(test_point)
{
	time_t t = 0;
	mf_error_t e = { "" };

	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert_msg(mf_time_point(points[_i].text, 1700000000, &t, &e) == 0,
		      "mf_time_point(\"%s\"): %s", points[_i].text, e.text);
	ck_assert_msg(t == points[_i].at, "mf_time_point(\"%s\") gives %lld, "
		      "not %lld", points[_i].text, (long long)t,
		      (long long)points[_i].at);
}
END_TEST

START_TEST(test_bad_point)
{
	time_t t = 42;
	mf_error_t e = { "" };

	ck_assert_msg(mf_time_point(bad_points[_i], 1700000000, &t, &e) == -1,
		      "mf_time_point(\"%s\") should fail", bad_points[_i]);
	ck_assert_msg(strstr(e.text, "is not a time"),
		      "the error for \"%s\" says what it is: %s",
		      bad_points[_i], e.text);
}
END_TEST

Suite *make_timestr_suite(void)
{
	Suite *s = suite_create("timestr");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_good, 0, G_N_ELEMENTS(good));
	tcase_add_loop_test(tc, test_bad, 0, G_N_ELEMENTS(bad));
	tcase_add_test(tc, test_null);
	tcase_add_loop_test(tc, test_point, 0, G_N_ELEMENTS(points));
	tcase_add_loop_test(tc, test_bad_point, 0, G_N_ELEMENTS(bad_points));
	suite_add_tcase(s, tc);
	return s;
}
