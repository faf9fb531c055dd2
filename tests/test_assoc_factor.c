/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assoc_factor (assoc_factor.h): association Priority over the highest;
 * an unset Priority (INFINITE) is 0.
 */
#include <math.h>

#include "assoc_factor.h"
#include "priority_flags.h"
#include "suites.h"

typedef struct {
	uint32_t prio, max, flags;
	double expected;
} assoc_case_t;

static const assoc_case_t cases[] = {
	{ 5, 20, 0, 0.25 },                          /* 5/20 */
	{ 20, 20, 0, 1.0 },
	{ 0, 20, 0, 0.0 },
	{ 0, 0, 0, 0.0 },                            /* none has one */
	{ 0xffffffffU, 20, 0, 0.0 },                 /* unset: 0 */
	{ 5, 20, MF_FLAG_NO_NORMAL_ASSOC, 5.0 },     /* raw */
	{ 0xffffffffU, 20, MF_FLAG_NO_NORMAL_ASSOC, 0.0 },
	{ 5, 20, MF_FLAG_NO_NORMAL_ALL, 5.0 },
	{ 5, 20, MF_FLAG_NO_NORMAL_TRES, 0.25 },
};

START_TEST(test_assoc)
{
	const assoc_case_t *c = &cases[_i];
	double f = mf_assoc_factor(c->prio, c->max, c->flags);

	ck_assert_msg(fabs(f - c->expected) < 1e-15,
		      "mf_assoc_factor(%u, %u, %#x) = %g, expected %g",
		      c->prio, c->max, c->flags, f, c->expected);
}
END_TEST

Suite *make_assoc_factor_suite(void)
{
	Suite *s = suite_create("assoc_factor");
	TCase *tc = tcase_create("assoc");

	tcase_add_loop_test(tc, test_assoc, 0, G_N_ELEMENTS(cases));
	suite_add_tcase(s, tc);
	return s;
}
