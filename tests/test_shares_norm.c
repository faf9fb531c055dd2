/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Normalized shares, product (classic, DEPTH_OBLIVIOUS) and local (Fair
 * Tree) modes. */
#include "shares_norm.h"
#include "suites.h"

static const tt_row_t rows[] = {
	{ "A", NULL, "root", 40, 0 },
	{ "D", NULL, "root", 60, 0 },
	{ "A1", NULL, "A", 1, 0 },
	{ "A2", NULL, "A", 3, 0 },
	{ "A2", "u", NULL, 2, 0 },
	{ "A2", "v", NULL, 6, 0 },
	{ "A2", "w", NULL, MF_SHARES_PARENT, 0 },
	{ NULL, NULL, NULL, 0, 0 },
};

typedef struct {
	const char *acct, *user;
	double product, local;
} sn_case_t;

static const sn_case_t cases[] = {
	{ "A", NULL, 0.4, 0.4 },                /* 40/100 */
	{ "D", NULL, 0.6, 0.6 },                /* 60/100 */
	{ "A1", NULL, 0.1, 0.25 },              /* 1/4 * .4; 1/4 */
	{ "A2", NULL, 0.3, 0.75 },              /* 3/4 * .4; 3/4 */
	{ "A2", "u", 0.075, 0.25 },             /* 2/8 * .3; 2/8 */
	{ "A2", "v", 0.225, 0.75 },             /* 6/8 * .3; 6/8 */
	{ "A2", "w", 0.3, 0.75 },               /* parent: A2's */
};

START_TEST(test_modes)
{
	mf_tree_t *tree = tt_build(rows);
	const sn_case_t *c = &cases[_i];

	mf_shares_norm(tree, MF_SHARES_PRODUCT);
	ck_assert_double_eq_tol(tt_get(tree, c->acct, c->user)->shares_norm,
				c->product, 1e-12);
	ck_assert_double_eq(tree->root->shares_norm, 1.0);
	mf_shares_norm(tree, MF_SHARES_LOCAL);
	ck_assert_double_eq_tol(tt_get(tree, c->acct, c->user)->shares_norm,
				c->local, 1e-12);
	ck_assert_double_eq(tree->root->shares_norm, 0.0);
	mf_tree_destroy(tree);
}
END_TEST

Suite *make_shares_norm_suite(void)
{
	Suite *s = suite_create("shares_norm");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_modes, 0, G_N_ELEMENTS(cases));
	suite_add_tcase(s, tc);
	return s;
}
