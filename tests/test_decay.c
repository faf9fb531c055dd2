/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Half-life decay (Slurm's per-second factor D = 1 - 0.693/hl) and the
 * PriorityUsageResetPeriod clock.  Times are UTC (TZ is set in the test).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decay.h"
#include "suites.h"

START_TEST(test_factor)
{
	/* 7 days = 604800 s: D = 1 - .693/604800 = 0.999998854166667 */
	ck_assert_double_eq_tol(mf_decay_factor(604800), 0.999998854166667,
				1e-15);
	/* no decay */
	ck_assert_double_eq(mf_decay_factor(0), 1.0);
	ck_assert_double_eq(mf_decay_period_factor(0, 300), 1.0);
	/* one hour half-life, 5 minute period: (1-.693/3600)^300 =
	 * 0.943881 (exact halving per hour would give 2^(-1/12) = .943874) */
	ck_assert_double_eq_tol(mf_decay_period_factor(3600, 300), 0.943881,
				5e-7);
	/* after one half-life usage is (1-.693/604800)^604800 = 0.500073 */
	ck_assert_double_eq_tol((double) mf_decay_usage(1000.0L, 604800,
							604800.0),
				500.073, 5e-4);
}
END_TEST

START_TEST(test_over)
{
	ck_assert_double_eq(mf_decay_over(0.5, 0), 1.0);     /* no time */
	ck_assert_double_eq(mf_decay_over(0.5, -5), 1.0);    /* clock back */
	ck_assert_double_eq(mf_decay_over(0.5, 2), 0.25);
	/* a huge gap floors at DBL_MIN, never 0 */
	ck_assert(mf_decay_over(0.5, 1e9) > 0.0);
	/* half-life 0: usage never decays, whatever the gap */
	ck_assert(mf_decay_usage(42.0L, 0, 1e9) == 42.0L);
}
END_TEST

typedef struct {
	const char *text;
	int ok;
	mf_reset_period_t p;
} reset_parse_t;

static const reset_parse_t parse_cases[] = {
	{ "NONE", 1, MF_RESET_NONE }, { "now", 1, MF_RESET_NOW },
	{ "Daily", 1, MF_RESET_DAILY }, { "WEEKLY", 1, MF_RESET_WEEKLY },
	{ "MONTHLY", 1, MF_RESET_MONTHLY },
	{ "QUARTERLY", 1, MF_RESET_QUARTERLY },
	{ "YEARLY", 1, MF_RESET_YEARLY },
	/* failures */
	{ "HOURLY", 0, 0 }, { "", 0, 0 }, { "DAILYX", 0, 0 },
};

START_TEST(test_parse)
{
	const reset_parse_t *c = &parse_cases[_i];
	mf_reset_period_t p = MF_RESET_NONE;
	mf_error_t e = { "" };
	int rc = mf_reset_period_parse(c->text, &p, &e);

	if (c->ok) {
		ck_assert_msg(rc == 0, "parse '%s': %s", c->text, e.text);
		ck_assert_int_eq(p, c->p);
	} else {
		ck_assert_msg(rc == -1, "parse '%s' should fail", c->text);
		ck_assert_msg(strstr(e.text, "PriorityUsageResetPeriod"),
			      "error names the key: %s", e.text);
	}
}
END_TEST

typedef struct {
	mf_reset_period_t p;
	time_t t, boundary;
} boundary_case_t;

/* 1763640000 = Thu 2025-11-20 12:00:00 UTC (1763596800 = that day 00:00) */
static const boundary_case_t boundary_cases[] = {
	{ MF_RESET_DAILY, 1763640000, 1763596800 },
	/* on the boundary itself */
	{ MF_RESET_DAILY, 1763596800, 1763596800 },
	/* one second before: the day before, 1763596800 - 86400 */
	{ MF_RESET_DAILY, 1763596799, 1763510400 },
	/* Thursday (wday 4): Sunday 11-16 00:00 = 1763596800 - 4 x 86400 */
	{ MF_RESET_WEEKLY, 1763640000, 1763251200 },
	/* Sunday 11-23 06:00 (1763877600): that day's 00:00 = 1763856000 */
	{ MF_RESET_WEEKLY, 1763877600, 1763856000 },
	/* Sat 2025-11-01 06:00 (1761976800): Sunday 10-26 00:00 (back across
	 * a month) = 1761955200 - 6 x 86400 = 1761436800 */
	{ MF_RESET_WEEKLY, 1761976800, 1761436800 },
	/* 2025-11-01 00:00 = 1763596800 - 19 x 86400 = 1761955200 */
	{ MF_RESET_MONTHLY, 1763640000, 1761955200 },
	/* Q4 from 2025-10-01 00:00 = 1761955200 - 31 x 86400 = 1759276800 */
	{ MF_RESET_QUARTERLY, 1763640000, 1759276800 },
	/* 2025-02-10 12:00 (1739188800) is in Q1: 2025-01-01 = 1735689600 */
	{ MF_RESET_QUARTERLY, 1739188800, 1735689600 },
	{ MF_RESET_YEARLY, 1763640000, 1735689600 },
	{ MF_RESET_NONE, 1763640000, 0 },
	{ MF_RESET_NOW, 1763640000, 0 },
};

static void _utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

START_TEST(test_reset_boundary)
{
	const boundary_case_t *c = &boundary_cases[_i];
	time_t got;

	_utc();
	got = mf_reset_boundary(c->p, c->t);
	ck_assert_msg(got == c->boundary, "%s at %ld: %ld, expected %ld",
		      mf_reset_period_name(c->p), (long) c->t, (long) got,
		      (long) c->boundary);
}
END_TEST

START_TEST(test_reset_boundary_local_time)
{
	/* two hours east of UTC (POSIX sign: "XXX-2"): Thu 12:00 UTC is
	 * 14:00 local, the local midnight is 22:00 UTC the day before */
	setenv("TZ", "XXX-2", 1);
	tzset();
	ck_assert_int_eq(mf_reset_boundary(MF_RESET_DAILY, 1763640000),
			 1763596800 - 7200);
	_utc();
}
END_TEST

START_TEST(test_reset_due)
{
	time_t b = 0;

	_utc();
	/* last reset Thu 12:00; an hour later no boundary was crossed */
	ck_assert(!mf_reset_due(MF_RESET_DAILY, 1763640000, 1763643600, &b));
	/* Friday 00:00:01: due, the boundary is Friday 00:00 */
	ck_assert(mf_reset_due(MF_RESET_DAILY, 1763640000, 1763683201, &b));
	ck_assert_int_eq(b, 1763683200);
	/* after it, with that boundary as the last reset: not again */
	ck_assert(!mf_reset_due(MF_RESET_DAILY, 1763683200, 1763690000, &b));
	/* down from Thu noon to Mon 11-24 06:00 (1763964000): one reset, at
	 * the latest boundary (Mon 00:00 = 1763942400), not four */
	ck_assert(mf_reset_due(MF_RESET_DAILY, 1763640000, 1763964000, &b));
	ck_assert_int_eq(b, 1763942400);
	ck_assert(!mf_reset_due(MF_RESET_DAILY, b, 1763964000 + 60, NULL));
	/* weekly: Thursday to Monday crosses Sunday 11-23 00:00 */
	ck_assert(mf_reset_due(MF_RESET_WEEKLY, 1763640000, 1763964000, &b));
	ck_assert_int_eq(b, 1763856000);
	/* monthly: not within November */
	ck_assert(!mf_reset_due(MF_RESET_MONTHLY, 1763640000, 1763964000,
				&b));
	/* NONE is never due; NOW is the caller's (at once, not a clock) */
	ck_assert(!mf_reset_due(MF_RESET_NONE, 0, 1763964000, &b));
	ck_assert(!mf_reset_due(MF_RESET_NOW, 0, 1763964000, &b));
}
END_TEST

Suite *make_decay_suite(void)
{
	Suite *s = suite_create("decay");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_factor);
	tcase_add_test(tc, test_over);
	tcase_add_loop_test(tc, test_parse, 0, G_N_ELEMENTS(parse_cases));
	tcase_add_loop_test(tc, test_reset_boundary, 0,
			    G_N_ELEMENTS(boundary_cases));
	tcase_add_test(tc, test_reset_boundary_local_time);
	tcase_add_test(tc, test_reset_due);
	suite_add_tcase(s, tc);
	return s;
}
