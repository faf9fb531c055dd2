/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DEPTH_OBLIVIOUS fair-share: F = 2^(-R), R = R_parent * r_l^k, on the
 * spec's Figure 3 tree and on edge cases.  The arithmetic is beside each
 * value; ln 1.125 = 0.117783, ln 0.592593 = -0.523248.
 */
#include <math.h>

#include "fairshare.h"
#include "usage_efctv.h"
#include "suites.h"

#define TOL 5e-7


typedef struct {
	const char *acct, *user;
	double usage_efctv, fs_factor;
} do_expect_t;

static const do_expect_t expect[] = {
	/* first level: R = r = U/S, as classic */
	{ "A", NULL, 0.45, 0.458502 },     /* R = .45/.4 = 1.125; 2^-1.125 */
	{ "D", NULL, 0.25, 0.749154 },     /* R = .25/.6 = .416667 */
	/* B: R_p = 1.125; sibling ratio (.2+.25)/.4 = 1.125;
	 * r_l = (.2/.3)/1.125 = .592593; ln R_p * ln r_l < 0 so
	 * k = 1/(1+(5*.117783)^2) = .742489;
	 * R = 1.125 * .592593^.742489 = .762828; UE = R*S = .228848 */
	{ "B", NULL, 0.228848, 0.589340 },
	/* C: r_l = (.25/.1)/1.125 = 2.222222; both logs > 0 so k = 1;
	 * R = 1.125 * 2.222222 = 2.5; UE = 2.5 * .1 = .25; F = 2^-2.5 */
	{ "C", NULL, 0.25, 0.176777 },
	/* E: R_p = .416667; siblings (.25+0)/.6 = .416667;
	 * r_l = (.25/.25)/.416667 = 2.4; ln R_p < 0 < ln r_l so
	 * k = 1/(1+(5 ln .416667)^2) = 1/(1+(5*-.875469)^2) = .049600;
	 * R = .416667 * 2.4^.0496 = .435158; UE = .435158*.25 = .108790 */
	{ "E", NULL, 0.108790, 0.739613 },
	/* F: no usage, so UE = U = 0 and F = 1 */
	{ "F", NULL, 0.0, 1.0 },
	/* user1: R_p = .762828; alone: r_l = (.2/.3)/(.2/.3) = 1; k = 1;
	 * R = R_p */
	{ "B", "user1", 0.228848, 0.589340 },
	/* user2: R_p = 2.5; siblings (.25+0)/.1 = 2.5;
	 * r_l = (.25/.05)/2.5 = 2; k = 1; R = 5; UE = 5*.05 = .25;
	 * F = 2^-5 = .03125 */
	{ "C", "user2", 0.25, 0.031250 },
	/* user3: no usage: UE = 0, F = 1 (the algorithm's rule) */
	{ "C", "user3", 0.0, 1.0 },
	/* user4: alone, r_l = 1, R = R_p = .435158 */
	{ "E", "user4", 0.108790, 0.739613 },
	{ "F", "user5", 0.0, 1.0 },
};

START_TEST(test_figure3_do)
{
	mf_tree_t *tree = tt_build(tt_figure3);
	mf_fs_config_t cfg = { MF_FS_DEPTH_OBLIVIOUS, 1 };
	const do_expect_t *x = &expect[_i];
	mf_assoc_t *a;

	mf_fairshare_compute(tree, &cfg);
	a = tt_get(tree, x->acct, x->user);
	ck_assert_msg(fabsl(a->usage_efctv - x->usage_efctv) < TOL,
		      "%s/%s usage_efctv %.7Lf, expected %f", x->acct,
		      x->user ? x->user : "", a->usage_efctv, x->usage_efctv);
	ck_assert_msg(fabs(a->fs_factor - x->fs_factor) < TOL,
		      "%s/%s fs_factor %.7f, expected %f", x->acct,
		      x->user ? x->user : "", a->fs_factor, x->fs_factor);
	mf_tree_destroy(tree);
}
END_TEST

typedef struct {
	double ratio_p, ratio_l, k;
} k_case_t;

static const k_case_t k_cases[] = {
	{ 1.125, 0.592593, 0.742489 },  /* 1/(1+(5*.117783)^2) */
	{ 2.0, 0.5, 0.076856 },         /* 1/(1+(5*.693147)^2) = 1/13.0113 */
	{ 0.5, 2.0, 0.076856 },         /* ln .5 = -ln 2: same */
	{ 2.0, 3.0, 1.0 },              /* same direction: k = 1 */
	{ 0.5, 0.25, 1.0 },             /* same direction (both below) */
	{ 1.0, 0.1, 1.0 },              /* ln R_p = 0: product 0 -> 1 */
	{ 0.0, 0.5, 1.0 },              /* R_p = 0 */
	{ 2.0, 0.0, 1.0 },              /* r_l = 0 */
};

START_TEST(test_k)
{
	const k_case_t *c = &k_cases[_i];
	double k = (double) mf_depth_oblivious_k(c->ratio_p, c->ratio_l);

	ck_assert_msg(fabs(k - c->k) < TOL, "k(%g, %g) = %f, expected %f",
		      c->ratio_p, c->ratio_l, k, c->k);
}
END_TEST

/* k = 1 at every level: R = r, each account judged on its own usage. */
START_TEST(test_on_target_parent)
{
	/* A used exactly its share: R_A = (50/100)/(1/2) = 1, ln 1 = 0 so
	 * k = 1; a: S = .25, r = .3/.25 = 1.2, siblings (.3+.2)/.5 = 1,
	 * r_l = 1.2, R = 1 * 1.2 = 1.2;
	 * F = 2^-1.2 = 0.435275 */
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 1, 0 },
		{ "B", NULL, "root", 1, 0 },
		{ "A", "a", NULL, 1, 30 },
		{ "A", "b", NULL, 1, 20 },
		{ "B", "c", NULL, 1, 50 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_DEPTH_OBLIVIOUS, 1 };

	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq_tol(tt_get(tree, "A", "a")->fs_factor, 0.435275,
				TOL);
	/* b: r = .2/.25 = .8, r_l = .8, R = .8, F = 2^-.8 = 0.574349 */
	ck_assert_double_eq_tol(tt_get(tree, "A", "b")->fs_factor, 0.574349,
				TOL);
	mf_tree_destroy(tree);
}
END_TEST

/* FairShare=parent takes the parent's UE, and is skipped in the sibling
 * sum. */
START_TEST(test_do_parent)
{
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 1, 0 },
		{ "B", NULL, "root", 1, 0 },
		{ "A", "p", NULL, MF_SHARES_PARENT, 40 },
		{ "A", "a", NULL, 1, 20 },
		{ "B", "c", NULL, 1, 40 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_DEPTH_OBLIVIOUS, 1 };
	mf_assoc_t *p = tt_get(tree, "A", "p"), *a = tt_get(tree, "A", "a");

	mf_fairshare_compute(tree, &cfg);
	/* A: U = .6, S = .5, R_A = 1.2, UE_A = .6 */
	ck_assert_double_eq_tol((double) p->usage_efctv, 0.6, 1e-12);
	ck_assert_double_eq_tol(p->fs_factor, pow(2, -1.2), 1e-12);
	/* a: S = 1/1 * .5 = .5, U = .2; sibling sum skips p: .2/.5 = .4;
	 * r_l = (.2/.5)/.4 = 1; k = 1; R = 1.2; same F as its account */
	ck_assert_double_eq_tol((double) a->usage_efctv, 0.6, 1e-12);
	mf_tree_destroy(tree);
}
END_TEST

Suite *make_depth_oblivious_suite(void)
{
	Suite *s = suite_create("depth_oblivious");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_figure3_do, 0, G_N_ELEMENTS(expect));
	tcase_add_loop_test(tc, test_k, 0, G_N_ELEMENTS(k_cases));
	tcase_add_test(tc, test_on_target_parent);
	tcase_add_test(tc, test_do_parent);
	suite_add_tcase(s, tc);
	return s;
}
