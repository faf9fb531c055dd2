/* SPDX-License-Identifier: GPL-2.0-or-later */
/* qos_factor (qos_factor.h): Priority over the highest QOS Priority. */
#include <math.h>

#include "priority_flags.h"
#include "qos_factor.h"
#include "suites.h"

typedef struct {
	uint32_t prio, max, flags;
	double expected;
} qos_case_t;

static const qos_case_t cases[] = {
	{ 100, 1000, 0, 0.1 },                       /* 100/1000 */
	{ 1000, 1000, 0, 1.0 },
	{ 0, 1000, 0, 0.0 },
	{ 0, 0, 0, 0.0 },                            /* no QOS has one */
	{ 4294967295U, 4294967295U, 0, 1.0 },
	{ 100, 1000, MF_FLAG_NO_NORMAL_QOS, 100.0 }, /* raw */
	{ 100, 0, MF_FLAG_NO_NORMAL_QOS, 100.0 },
	{ 100, 1000, MF_FLAG_NO_NORMAL_ALL, 100.0 },
	{ 100, 1000, MF_FLAG_NO_NORMAL_PART, 0.1 },
};

START_TEST(test_qos)
{
	const qos_case_t *c = &cases[_i];
	double f = mf_qos_factor(c->prio, c->max, c->flags);

	ck_assert_msg(fabs(f - c->expected) < 1e-15,
		      "mf_qos_factor(%u, %u, %#x) = %g, expected %g", c->prio,
		      c->max, c->flags, f, c->expected);
}
END_TEST

Suite *make_qos_factor_suite(void)
{
	Suite *s = suite_create("qos_factor");
	TCase *tc = tcase_create("qos");

	tcase_add_loop_test(tc, test_qos, 0, G_N_ELEMENTS(cases));
	suite_add_tcase(s, tc);
	return s;
}
