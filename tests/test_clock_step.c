/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Steps of the wall clock from paired readings (issue 35's cases: a lock
 * wait is no step, a step back or forward is, and times written before a
 * step are taken into the new reckoning).
 */
#include "clock_step.h"
#include "suites.h"

START_TEST(test_no_step)
{
	/* a pass due at 1000 waited 20 s for the job lock: both clocks
	 * moved 80 s from the last reading (60 s period + 20 s wait) */
	mf_reading_t a = { 1000, 500 }, b = { 1080, 580 };

	ck_assert_int_eq(mf_clock_step(&a, &b, 5), 0);
	/* a drift of 5 s is within the slack, 6 s is not */
	b.wall = 1085;
	ck_assert_int_eq(mf_clock_step(&a, &b, 5), 0);
	b.wall = 1086;
	ck_assert_int_eq(mf_clock_step(&a, &b, 5), 6);
}
END_TEST

START_TEST(test_steps)
{
	/* 60 s passed (boot 500 -> 560), the wall clock went back an hour:
	 * 1000 -> 1000 + 60 - 3600 = -2540 */
	mf_reading_t a = { 1000, 500 }, back = { -2540, 560 },
		fwd = { 4660, 560 }, none = { 4660, 0 };

	ck_assert_int_eq(mf_clock_step(&a, &back, 5), -3600);
	/* forward an hour: 1000 + 60 + 3600 */
	ck_assert_int_eq(mf_clock_step(&a, &fwd, 5), 3600);
	/* no boot clock on either side: nothing can be told */
	ck_assert_int_eq(mf_clock_step(&a, &none, 5), 0);
	ck_assert_int_eq(mf_clock_step(&none, &a, 5), 0);
}
END_TEST

START_TEST(test_present)
{
	/* last tick 10000, then a step back of 3600 found at now = 6460
	 * (60 s after the tick): the tick moved to 6400 */
	int64_t since = 6400, now = 6460, step = -3600;

	/* a job that ended 30 s after the tick, before the step: its end
	 * 10030 lies ahead of now, and is 6430 in the new reckoning */
	ck_assert_int_eq(mf_clock_present(10030, since, now, step), 6430);
	/* a job that ended after the step, at 6450: as written */
	ck_assert_int_eq(mf_clock_present(6450, since, now, step), 6450);
	/* unset stays unset */
	ck_assert_int_eq(mf_clock_present(0, since, now, step), 0);
	/* no step: every time as written, even one ahead of now */
	ck_assert_int_eq(mf_clock_present(10030, since, now, 0), 10030);

	/* a step forward of 3600 at now = 13660 (60 s after the tick at
	 * 10000, moved to 13600): a job started 20 s after the tick, before
	 * the step, at 10020, started at 13620 in the new reckoning */
	ck_assert_int_eq(mf_clock_present(10020, 13600, 13660, 3600), 13620);
	/* and one that ended after the step, at 13650, as written */
	ck_assert_int_eq(mf_clock_present(13650, 13600, 13660, 3600), 13650);
}
END_TEST

Suite *make_clock_step_suite(void)
{
	Suite *s = suite_create("clock_step");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_no_step);
	tcase_add_test(tc, test_steps);
	tcase_add_test(tc, test_present);
	suite_add_tcase(s, tc);
	return s;
}
