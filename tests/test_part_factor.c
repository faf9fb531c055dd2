/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * part_factor (part_factor.h): PriorityJobFactor over the highest one (at
 * least 1), or raw with NO_NORMAL_PART; and mf_part_max_priority.
 */
#include <math.h>

#include "part_factor.h"
#include "priority.h"
#include "priority_flags.h"
#include "suites.h"

typedef struct {
	uint16_t pjf;
	uint32_t max;
	uint32_t flags;
	double expected;
} part_case_t;

static const part_case_t cases[] = {
	{ 10, 20, 0, 0.5 },                          /* 10/20 */
	{ 20, 20, 0, 1.0 },
	{ 0, 20, 0, 0.0 },
	{ 1, 1, 0, 1.0 },                            /* all at default 1 */
	{ 0, 0, 0, 0.0 },            /* max below 1 is taken as 1: 0/1 */
	{ 3, 0, 0, 3.0 },            /* ... 3/1 (inconsistent input) */
	{ 65535, 65535, 0, 1.0 },
	{ 10, 20, MF_FLAG_NO_NORMAL_PART, 10.0 },    /* raw */
	{ 10, 20, MF_FLAG_NO_NORMAL_ALL, 10.0 },
	{ 10, 20, MF_FLAG_NO_NORMAL_QOS, 0.5 },      /* other flags: no effect */
};

START_TEST(test_part)
{
	const part_case_t *c = &cases[_i];
	double f = mf_part_factor(c->pjf, c->max, c->flags);

	ck_assert_msg(fabs(f - c->expected) < 1e-15,
		      "mf_part_factor(%u, %u, %#x) = %g, expected %g", c->pjf,
		      c->max, c->flags, f, c->expected);
}
END_TEST

START_TEST(test_max)
{
	mf_part_t parts[3] = {
		{ .name = "a", .priority_job_factor = 10 },
		{ .name = "b", .priority_job_factor = 20 },
		{ .name = "c", .priority_job_factor = 0 },
	};

	ck_assert_uint_eq(mf_part_max_priority(parts, 3), 20);
	ck_assert_uint_eq(mf_part_max_priority(parts + 2, 1), 1); /* floor 1 */
	ck_assert_uint_eq(mf_part_max_priority(NULL, 0), 1);
}
END_TEST

Suite *make_part_factor_suite(void)
{
	Suite *s = suite_create("part_factor");
	TCase *tc = tcase_create("partition");

	tcase_add_loop_test(tc, test_part, 0, G_N_ELEMENTS(cases));
	tcase_add_test(tc, test_max);
	suite_add_tcase(s, tc);
	return s;
}
