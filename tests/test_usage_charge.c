/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a job owes for a stretch of its run, and the reservation it gives
 * back.  Every expected figure below is worked out by hand in the comment
 * beside it.
 */
#include <math.h>

#include "suites.h"
#include "usage_charge.h"

#define CNT 3

typedef struct {
	mf_charge_t c;
	long double tres[2 * CNT];
	uint64_t released[CNT];
} charge_buf_t;

static void _bind(charge_buf_t *b)
{
	mf_charge_bind(&b->c, CNT, b->tres, b->released);
}

/* cpu 4, nothing of the second TRES, mem 1024 */
static const uint64_t held[CNT] = { 4, 0, 1024 };

static mf_charge_job_t _job(void)
{
	mf_charge_job_t j = {
		.start = 1000, .reserved_until = 1000 + 600,
		.expected_end = 1000 + 600, .billable = 3.0,
		.usage_factor = 2.0, .tres = held, .tres_cnt = CNT,
	};
	return j;
}

START_TEST(test_running_stretch)
{
	charge_buf_t b;
	mf_charge_job_t j = _job();

	_bind(&b);
	/* [1100, 1102]: S = 2 s, D = 0.5 so w = 0.25, F = 2 */
	mf_charge_compute(&j, 1100, 1102, 0.5, &b.c);
	ck_assert_double_eq(b.c.seconds, 2.0);
	ck_assert_double_eq(b.c.weight, 0.25);
	/* wall: 2 x 0.25 x 2 = 1 decayed, 2 x 2 = 4 plain */
	ck_assert_double_eq(b.c.wall[MF_CHARGE_DECAYED], 1.0);
	ck_assert_double_eq(b.c.wall[MF_CHARGE_PLAIN], 4.0);
	/* raw: x billable 3 */
	ck_assert(b.c.raw[MF_CHARGE_DECAYED] == 3.0L);
	ck_assert(b.c.raw[MF_CHARGE_PLAIN] == 12.0L);
	/* TRES: wall x count */
	ck_assert(b.c.tres[MF_CHARGE_DECAYED][0] == 4.0L);
	ck_assert(b.c.tres[MF_CHARGE_DECAYED][1] == 0.0L);
	ck_assert(b.c.tres[MF_CHARGE_DECAYED][2] == 1024.0L);
	ck_assert(b.c.tres[MF_CHARGE_PLAIN][0] == 16.0L);
	ck_assert(b.c.tres[MF_CHARGE_PLAIN][2] == 4096.0L);
	/* reservation: 2 s x F 2 = 4 s, x counts */
	ck_assert_uint_eq(b.c.released[0], 16);
	ck_assert_uint_eq(b.c.released[1], 0);
	ck_assert_uint_eq(b.c.released[2], 4096);
}
END_TEST

START_TEST(test_before_start_and_at_end)
{
	charge_buf_t b;
	mf_charge_job_t j = _job();

	_bind(&b);
	j.usage_factor = -1.0;          /* unset: 1 */
	/* the stretch opens before the job: [1000, 1060] = 60 s, no decay */
	mf_charge_compute(&j, 900, 1060, 1.0, &b.c);
	ck_assert_double_eq(b.c.seconds, 60.0);
	ck_assert_double_eq(b.c.wall[MF_CHARGE_DECAYED], 60.0);
	ck_assert(b.c.raw[MF_CHARGE_DECAYED] == 180.0L);
	ck_assert_uint_eq(b.c.released[0], 240);
	/* a charge at its end stops at the end: [1000, 1030] */
	j.end = 1030;
	mf_charge_compute(&j, 900, 1060, 1.0, &b.c);
	ck_assert_double_eq(b.c.seconds, 30.0);
	ck_assert(b.c.raw[MF_CHARGE_PLAIN] == 90.0L);
	/* NaN usage factor: 1 */
	j.usage_factor = NAN;
	mf_charge_compute(&j, 900, 1060, 1.0, &b.c);
	ck_assert_double_eq(b.c.wall[MF_CHARGE_PLAIN], 30.0);
}
END_TEST

START_TEST(test_ended_gives_back_the_rest)
{
	charge_buf_t b;
	mf_charge_job_t j = _job();

	_bind(&b);
	/* an hour reserved from 1000; it ran [1200, 1300] since the last
	 * tick and ended: charged 100 s, gives back 4600 - 1200 = 3400 s,
	 * x F 1 */
	j.usage_factor = 1.0;
	j.reserved_until = j.expected_end = 1000 + 3600;
	j.end = 1300;
	j.ended = true;
	mf_charge_compute(&j, 1200, 2000, 1.0, &b.c);
	ck_assert_double_eq(b.c.seconds, 100.0);
	ck_assert(b.c.raw[MF_CHARGE_DECAYED] == 300.0L);
	ck_assert_uint_eq(b.c.released[0], 3400 * 4);
	ck_assert_uint_eq(b.c.released[2], 3400 * 1024);
	/* the reservation used up already: nothing to give back */
	mf_charge_compute(&j, 4700, 4800, 1.0, &b.c);
	ck_assert_uint_eq(b.c.released[0], 0);
}
END_TEST

START_TEST(test_past_reservation)
{
	charge_buf_t b;
	mf_charge_job_t j = _job();

	_bind(&b);
	j.usage_factor = 1.0;
	/* reserved [1000, 1600]; the stretch [1500, 1700] runs over its
	 * limit: 200 s charged, only 100 s given back */
	mf_charge_compute(&j, 1500, 1700, 1.0, &b.c);
	ck_assert_double_eq(b.c.seconds, 200.0);
	ck_assert_uint_eq(b.c.released[0], 400);
	/* wholly past it: charged, nothing given back */
	mf_charge_compute(&j, 1700, 1800, 1.0, &b.c);
	ck_assert_double_eq(b.c.seconds, 100.0);
	ck_assert_uint_eq(b.c.released[2], 0);
	/* an expected end before the reservation's end stops it earlier:
	 * [1500, 1550] of [1500, 1700] */
	j.expected_end = 1550;
	mf_charge_compute(&j, 1500, 1700, 1.0, &b.c);
	ck_assert_uint_eq(b.c.released[0], 200);
}
END_TEST

START_TEST(test_fractional_factor_and_empty)
{
	charge_buf_t b;
	mf_charge_job_t j = _job();

	_bind(&b);
	/* F 0.5 over 3 s: 1.5 s of reservation, cut to 1 s, x counts */
	j.usage_factor = 0.5;
	mf_charge_compute(&j, 1100, 1103, 1.0, &b.c);
	ck_assert_double_eq(b.c.wall[MF_CHARGE_PLAIN], 1.5);
	ck_assert(b.c.raw[MF_CHARGE_PLAIN] == 4.5L);
	ck_assert_uint_eq(b.c.released[0], 4);
	ck_assert_uint_eq(b.c.released[2], 1024);
	/* a clock that went back: an empty stretch */
	mf_charge_compute(&j, 1200, 1100, 0.5, &b.c);
	ck_assert_double_eq(b.c.seconds, 0.0);
	ck_assert_double_eq(b.c.weight, 1.0);
	ck_assert(b.c.raw[MF_CHARGE_DECAYED] == 0.0L);
	ck_assert_uint_eq(b.c.released[0], 0);
	/* no TRES array: usage without TRES */
	j.tres = NULL;
	mf_charge_compute(&j, 1100, 1102, 1.0, &b.c);
	ck_assert(b.c.raw[MF_CHARGE_PLAIN] == 3.0L);
	ck_assert(b.c.tres[MF_CHARGE_PLAIN][0] == 0.0L);
	ck_assert_uint_eq(b.c.released[0], 0);
}
END_TEST

START_TEST(test_used_reserve)
{
	mf_charge_job_t j = _job();
	uint64_t r[CNT];

	/* started 1000, reservation to 4600, slurmctld restarted: up to the
	 * last tick 1900 it used 900 s, x F 2 = 1800 s */
	j.reserved_until = j.expected_end = 4600;
	mf_charge_used_reserve(&j, 1900, r);
	ck_assert_uint_eq(r[0], 1800 * 4);
	ck_assert_uint_eq(r[1], 0);
	ck_assert_uint_eq(r[2], 1800 * 1024);
	/* never more than was reserved: 3600 s x 2 */
	mf_charge_used_reserve(&j, 9000, r);
	ck_assert_uint_eq(r[0], 7200 * 4);
	/* a last tick before the start: nothing */
	mf_charge_used_reserve(&j, 900, r);
	ck_assert_uint_eq(r[2], 0);
}
END_TEST

Suite *make_usage_charge_suite(void)
{
	Suite *s = suite_create("usage_charge");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_running_stretch);
	tcase_add_test(tc, test_before_start_and_at_end);
	tcase_add_test(tc, test_ended_gives_back_the_rest);
	tcase_add_test(tc, test_past_reservation);
	tcase_add_test(tc, test_fractional_factor_and_empty);
	tcase_add_test(tc, test_used_reserve);
	suite_add_tcase(s, tc);
	return s;
}
