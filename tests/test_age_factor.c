/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * age_factor (age_factor.h): waited / PriorityMaxAge, capped at 1.0; and
 * when a what-if job starts to accrue age (ACCRUE_ALWAYS, dependencies,
 * limits, holds, begin times).
 */
#include <math.h>

#include "age_factor.h"
#include "priority_flags.h"
#include "suites.h"

#define T0 1700000000        /* an arbitrary "now" */

typedef struct {
	time_t accrue;
	time_t now;
	uint32_t max_age;
	double expected;
} age_case_t;

static const age_case_t age_cases[] = {
	{ T0 - 3600, T0, 86400, 3600.0 / 86400 },      /* 1 h of 1 day = .041667 */
	{ T0 - 43200, T0, 86400, 0.5 },                /* 12 h of 24 h */
	{ T0 - 604800, T0, 604800, 1.0 },              /* exactly max: 1.0 */
	{ T0 - 604799, T0, 604800, 604799.0 / 604800 },/* 1 s short */
	{ T0 - 9999999, T0, 604800, 1.0 },             /* beyond: capped */
	{ 0, T0, 604800, 0.0 },                        /* not accruing */
	{ T0 + 100, T0, 604800, 0.0 },                 /* accrue in future */
	{ T0, T0, 604800, 0.0 },                       /* just now */
	{ T0 - 1, T0, 0, 1.0 },                        /* MaxAge 0: 1.0 */
	{ T0, T0, 0, 1.0 },                            /* even at 0 s */
	/* UNLIMITED MaxAge as slurmctld keeps it: 4294967236 s;
	 * one week of it = 604800/4294967236 = 1.40815e-4 */
	{ T0 - 604800, T0, 4294967236U, 604800.0 / 4294967236.0 },
};

START_TEST(test_age)
{
	const age_case_t *c = &age_cases[_i];
	double f = mf_age_factor(c->accrue, c->now, c->max_age);

	ck_assert_msg(fabs(f - c->expected) < 1e-12,
		      "mf_age_factor(%ld, %ld, %u) = %.12f, expected %.12f",
		      (long)c->accrue, (long)c->now, c->max_age, f,
		      c->expected);
}
END_TEST

typedef struct {
	uint32_t flags;
	time_t submit, begin;
	bool held, dependent, beyond;
	time_t expected;
} accrue_case_t;

static const accrue_case_t accrue_cases[] = {
	/* eligible: its begin (eligible) time */
	{ 0, T0 - 100, T0 - 50, false, false, false, T0 - 50 },
	/* waiting on a dependency, held, beyond a limit: no age */
	{ 0, T0 - 100, T0 - 50, false, true, false, 0 },
	{ 0, T0 - 100, T0 - 50, true, false, false, 0 },
	{ 0, T0 - 100, T0 - 50, false, false, true, 0 },
	/* begin time in the future or unset: none yet */
	{ 0, T0 - 100, T0 + 50, false, false, false, 0 },
	{ 0, T0 - 100, 0, false, false, false, 0 },
	/* ACCRUE_ALWAYS: the submit time, whatever holds the job */
	{ MF_FLAG_ACCRUE_ALWAYS, T0 - 100, T0 - 50, false, false, false,
	  T0 - 100 },
	{ MF_FLAG_ACCRUE_ALWAYS, T0 - 100, T0 + 50, true, true, true,
	  T0 - 100 },
};

START_TEST(test_accrue)
{
	const accrue_case_t *c = &accrue_cases[_i];
	time_t t = mf_job_accrue_time(c->flags, c->submit, c->begin, c->held,
				      c->dependent, c->beyond, T0);

	ck_assert_msg(t == c->expected, "case %d: accrue %ld, expected %ld",
		      _i, (long)t, (long)c->expected);
}
END_TEST

Suite *make_age_factor_suite(void)
{
	Suite *s = suite_create("age_factor");
	TCase *tc = tcase_create("age");

	tcase_add_loop_test(tc, test_age, 0, G_N_ELEMENTS(age_cases));
	tcase_add_loop_test(tc, test_accrue, 0, G_N_ELEMENTS(accrue_cases));
	suite_add_tcase(s, tc);
	return s;
}
