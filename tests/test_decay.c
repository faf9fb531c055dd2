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
	time_t last, now, next;
} reset_case_t;

/* 1763640000 = Thu 2025-11-20 12:00:00 UTC */
static const reset_case_t reset_cases[] = {
	/* the midnight after: Fri 2025-11-21 00:00 = 1763683200 */
	{ MF_RESET_DAILY, 1763640000, 1763640000, 1763683200 },
	/* down until Mon 11-24 06:00 (1763964000): from 11-21 00:00 step a
	 * day while the day after is still before now: 11-22, 11-23, 11-24
	 * 00:00 = 1763942400 (11-25 is after now) */
	{ MF_RESET_DAILY, 1763640000, 1763964000, 1763942400 },
	/* Thursday (wday 4): next Sunday 2025-11-23 00:00 = 1763856000 */
	{ MF_RESET_WEEKLY, 1763640000, 1763640000, 1763856000 },
	/* 2025-12-01 00:00 = 1764547200 */
	{ MF_RESET_MONTHLY, 1763640000, 1763640000, 1764547200 },
	/* from December: 2026-01-01 00:00 = 1767225600 */
	{ MF_RESET_MONTHLY, 1764590400, 1764590400, 1767225600 },
	/* Q4 -> 2026-01-01 */
	{ MF_RESET_QUARTERLY, 1763640000, 1763640000, 1767225600 },
	/* 2025-02-10 12:00 (1739188800) -> 2025-04-01 00:00 = 1743465600 */
	{ MF_RESET_QUARTERLY, 1739188800, 1739188800, 1743465600 },
	{ MF_RESET_YEARLY, 1763640000, 1763640000, 1767225600 },
	{ MF_RESET_NONE, 1763640000, 1763640000, 0 },
	{ MF_RESET_NOW, 1763640000, 1763640000, 0 },
};

START_TEST(test_next_reset)
{
	const reset_case_t *c = &reset_cases[_i];
	time_t got;

	setenv("TZ", "UTC", 1);
	tzset();
	got = mf_next_reset(c->p, c->last, c->now);
	ck_assert_msg(got == c->next, "%s after %ld (now %ld): %ld, "
		      "expected %ld", mf_reset_period_name(c->p),
		      (long) c->last, (long) c->now, (long) got,
		      (long) c->next);
}
END_TEST

Suite *make_decay_suite(void)
{
	Suite *s = suite_create("decay");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_factor);
	tcase_add_test(tc, test_over);
	tcase_add_loop_test(tc, test_parse, 0, G_N_ELEMENTS(parse_cases));
	tcase_add_loop_test(tc, test_next_reset, 0,
			    G_N_ELEMENTS(reset_cases));
	suite_add_tcase(s, tc);
	return s;
}
