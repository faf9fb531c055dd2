/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Classic fair-share (PriorityFlags=NO_FAIR_TREE): the spec's worked
 * example (Figure 3) number by number, then the edge cases.
 */
#include <math.h>
#include <string.h>

#include "fairshare.h"
#include "fs_factor.h"
#include "suites.h"

/* The spec's six decimals: half a unit of the last printed digit. */
#define TOL 5e-7


typedef struct {
	const char *acct, *user;
	double shares_norm, usage_norm, usage_efctv, fs_factor;
} fig3_expect_t;

static const fig3_expect_t fig3[] = {
	/* accounts: S from the shares at each tier; UE from the spec's
	 * bullet list; F = 2^(-UE/S) */
	{ "A", NULL, 0.40, 0.45, 0.45,
	  0.458502 },          /* 2^(-0.45/0.4) = 2^-1.125 */
	{ "D", NULL, 0.60, 0.25, 0.25,
	  0.749154 },          /* 2^(-0.25/0.6) = 2^-0.416667 */
	{ "B", NULL, 0.30, 0.20, 0.3875,
	  0.408479 },          /* .2 + (.45-.2)*30/40 = .3875; 2^(-.3875/.3) */
	{ "C", NULL, 0.10, 0.25, 0.30,
	  0.125000 },          /* .25 + (.45-.25)*10/40 = .3; 2^-3 */
	{ "E", NULL, 0.25, 0.25, 0.25,
	  0.500000 },          /* .25 + (.25-.25)*25/60 = .25; 2^-1 */
	{ "F", NULL, 0.35, 0.00, 0.145833,
	  0.749154 },          /* 0 + (.25-0)*35/60 = .145833; 2^-.416667 */
	/* users: the spec's Figure 3 list */
	{ "B", "user1", 0.30, 0.20, 0.3875,
	  0.408479 },          /* .2 + (.3875-.2)*1/1; 2^(-.3875/.3) */
	{ "C", "user2", 0.05, 0.25, 0.275,
	  0.022097 },          /* .25 + (.3-.25)*1/2; 2^(-.275/.05)=2^-5.5 */
	{ "C", "user3", 0.05, 0.00, 0.15,
	  0.125000 },          /* 0 + (.3-0)*1/2; 2^(-.15/.05) = 2^-3 */
	{ "E", "user4", 0.25, 0.25, 0.25,
	  0.500000 },          /* .25 + (.25-.25)*1/1; 2^-1 */
	{ "F", "user5", 0.35, 0.00, 0.145833,
	  0.749154 },          /* 0 + (.145833-0)*1/1; 2^(-.145833/.35) */
};

START_TEST(test_figure3)
{
	mf_tree_t *tree = tt_build(tt_figure3);
	mf_fs_config_t cfg = { MF_FS_CLASSIC, 1 };
	const fig3_expect_t *x = &fig3[_i];
	mf_assoc_t *a;

	mf_fairshare_compute(tree, &cfg);
	a = tt_get(tree, x->acct, x->user);
	ck_assert_msg(fabs(a->shares_norm - x->shares_norm) < TOL,
		      "%s/%s shares_norm %f, expected %f", x->acct,
		      x->user ? x->user : "", a->shares_norm, x->shares_norm);
	ck_assert_msg(fabsl(a->usage_norm - x->usage_norm) < TOL,
		      "%s/%s usage_norm %Lf, expected %f", x->acct,
		      x->user ? x->user : "", a->usage_norm, x->usage_norm);
	ck_assert_msg(fabsl(a->usage_efctv - x->usage_efctv) < TOL,
		      "%s/%s usage_efctv %Lf, expected %f", x->acct,
		      x->user ? x->user : "", a->usage_efctv, x->usage_efctv);
	ck_assert_msg(fabs(a->fs_factor - x->fs_factor) < TOL,
		      "%s/%s fs_factor %f, expected %f", x->acct,
		      x->user ? x->user : "", a->fs_factor, x->fs_factor);
	mf_tree_destroy(tree);
}
END_TEST

/* The spec: "if user 2 had been allocated 4 shares instead of 1, user 2
 * would have had .08 normalized shares" (4/5 * 10/40 * 40/100). */
START_TEST(test_figure3_user2_four_shares)
{
	tt_row_t rows[32];
	mf_fs_config_t cfg = { MF_FS_CLASSIC, 1 };
	mf_tree_t *tree;

	g_assert(tt_figure3_len <= G_N_ELEMENTS(rows));
	memcpy(rows, tt_figure3, tt_figure3_len * sizeof(*rows));
	rows[7].shares = 4;
	tree = tt_build(rows);
	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq_tol(tt_get(tree, "C", "user2")->shares_norm,
				0.08, 1e-12);
	ck_assert_double_eq_tol(tt_get(tree, "C", "user3")->shares_norm,
				0.02, 1e-12);     /* 1/5 * .1 */
	mf_tree_destroy(tree);
}
END_TEST

/* FairShareDampeningFactor d: F = 2^(-UE/S/d). */
START_TEST(test_dampening)
{
	/* user1: 2^(-(.3875/.3)/2) = 2^-0.645833 = 0.639124 */
	mf_tree_t *tree = tt_build(tt_figure3);
	mf_fs_config_t cfg = { MF_FS_CLASSIC, 2 };

	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq_tol(tt_get(tree, "B", "user1")->fs_factor,
				0.639124, TOL);
	/* user2: 2^(-5.5/2) = 2^-2.75 = 0.148651 */
	ck_assert_double_eq_tol(tt_get(tree, "C", "user2")->fs_factor,
				0.148651, TOL);
	mf_tree_destroy(tree);
}
END_TEST

/* FairShare=parent: the user takes its account's S and UE, so F too. */
START_TEST(test_parent_user)
{
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 1, 0 },
		{ "Z", NULL, "root", 1, 0 },
		{ "A", "p", NULL, MF_SHARES_PARENT, 30 },
		{ "A", "q", NULL, 1, 10 },
		{ "Z", "z", NULL, 1, 60 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_CLASSIC, 1 };
	mf_assoc_t *p, *q, *a;

	mf_fairshare_compute(tree, &cfg);
	p = tt_get(tree, "A", "p");
	q = tt_get(tree, "A", "q");
	a = tt_get(tree, "A", NULL);
	/* A: S = 1/2, U = 40/100 = .4, UE = .4 (child of root),
	 * F = 2^(-.4/.5) = 2^-0.8 = 0.574349 */
	ck_assert_double_eq_tol(a->fs_factor, 0.574349, TOL);
	ck_assert_double_eq_tol(p->shares_norm, 0.5, 1e-12);
	ck_assert_double_eq_tol((double) p->usage_efctv, 0.4, 1e-12);
	ck_assert_double_eq_tol(p->fs_factor, 0.574349, TOL);
	/* q is alone among A's non-parent children: level shares 1, so
	 * S = 1/1 * 1/2 = .5; U = .1; UE = .1 + (.4 - .1) * 1/1 = .4 */
	ck_assert_double_eq_tol(q->shares_norm, 0.5, 1e-12);
	ck_assert_double_eq_tol((double) q->usage_efctv, 0.4, 1e-12);
	mf_tree_destroy(tree);
}
END_TEST

/* A FairShare=parent account hands its children to its own parent: they
 * become siblings of the account's siblings. */
START_TEST(test_parent_account)
{
	static const tt_row_t rows[] = {
		{ "top", NULL, "root", 1, 0 },
		{ "mid", NULL, "top", MF_SHARES_PARENT, 0 },
		{ "other", NULL, "top", 2, 0 },
		{ "mid", "m", NULL, 2, 50 },
		{ "other", "o", NULL, 1, 50 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_CLASSIC, 1 };
	mf_assoc_t *m = tt_get(tree, "mid", "m");
	mf_assoc_t *mid = tt_get(tree, "mid", NULL);

	mf_fairshare_compute(tree, &cfg);
	ck_assert_ptr_eq(m->fs_parent, tt_get(tree, "top", NULL));
	/* top's fair-share children: mid (parent, no shares), other (2), m
	 * (2): level shares 4.  m: S = 2/4 * 1/1 = .5; other: 2/4 = .5 */
	ck_assert_uint_eq(m->level_shares, 4);
	ck_assert_double_eq_tol(m->shares_norm, 0.5, 1e-12);
	ck_assert_double_eq_tol(tt_get(tree, "other", NULL)->shares_norm,
				0.5, 1e-12);
	/* mid takes top's S = 1 and UE = U = 1 */
	ck_assert_double_eq_tol(mid->shares_norm, 1.0, 1e-12);
	ck_assert_double_eq_tol((double) mid->usage_efctv, 1.0, 1e-12);
	/* m: U = .5, UE = .5 + (1 - .5) * 2/4 = .75; F = 2^(-.75/.5) =
	 * 2^-1.5 = 0.353553 */
	ck_assert_double_eq_tol((double) m->usage_efctv, 0.75, 1e-12);
	ck_assert_double_eq_tol(m->fs_factor, 0.353553, TOL);
	mf_tree_destroy(tree);
}
END_TEST

/* Zero shares: S = 0 gives F = 0; siblings all at zero give UE_parent. */
START_TEST(test_zero_shares)
{
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 0, 0 },
		{ "B", NULL, "root", 1, 0 },
		{ "A", "a", NULL, 0, 10 },
		{ "B", "b", NULL, 1, 30 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_CLASSIC, 1 };
	mf_assoc_t *a = tt_get(tree, "A", "a");

	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq(tt_get(tree, "A", NULL)->shares_norm, 0.0);
	ck_assert_double_eq(tt_get(tree, "A", NULL)->fs_factor, 0.0);
	/* a: level shares 0 -> UE = UE_A = U_A = 10/40 = .25; S = 0 */
	ck_assert_double_eq_tol((double) a->usage_efctv, 0.25, 1e-12);
	ck_assert_double_eq(a->shares_norm, 0.0);
	ck_assert_double_eq(a->fs_factor, 0.0);
	/* b: S = 1, U = .75, F = 2^-.75 = 0.594604 */
	ck_assert_double_eq_tol(tt_get(tree, "B", "b")->fs_factor, 0.594604,
				TOL);
	mf_tree_destroy(tree);
}
END_TEST

/* No usage anywhere: every U and UE is 0 and every F is 1. */
START_TEST(test_zero_usage)
{
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 3, 0 },
		{ "A", "a", NULL, 1, 0 },
		{ "A", "b", NULL, 1, 0 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_CLASSIC, 1 };

	mf_fairshare_compute(tree, &cfg);
	for (guint i = 1; i < tree->order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(tree->order, i);

		ck_assert_double_eq((double) a->usage_norm, 0.0);
		ck_assert_double_eq((double) a->usage_efctv, 0.0);
		ck_assert_double_eq(a->fs_factor, 1.0);
	}
	ck_assert_msg(isnan((double) tree->root->usage_norm),
		      "root's usage_norm stays unset, as in Slurm");
	mf_tree_destroy(tree);
}
END_TEST

/* One lone user who used everything: S = 1, U = 1, F = 1/2. */
START_TEST(test_lone_user)
{
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 1, 0 },
		{ "A", "only", NULL, 1, 12345 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_CLASSIC, 1 };

	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq_tol(tt_get(tree, "A", "only")->fs_factor, 0.5,
				1e-12);
	mf_tree_destroy(tree);
}
END_TEST

/* usage_norm is capped at 1 (more usage below than root holds). */
START_TEST(test_usage_norm_cap)
{
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 1, 0 },
		{ "A", "a", NULL, 1, 10 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_CLASSIC, 1 };

	tree->root->usage_raw = 5;      /* half of what a alone has */
	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq((double) tt_get(tree, "A", "a")->usage_norm, 1.0);
	mf_tree_destroy(tree);
}
END_TEST

/* The classic factor itself. */
START_TEST(test_fs_factor_formula)
{
	ck_assert_double_eq(mf_fs_factor(0.0L, 0.5L, 1), 1.0);
	ck_assert_double_eq(mf_fs_factor(0.5L, 0.5L, 1), 0.5);   /* 2^-1 */
	ck_assert_double_eq(mf_fs_factor(1.0L, 0.5L, 1), 0.25);  /* 2^-2 */
	ck_assert_double_eq(mf_fs_factor(1.0L, 0.5L, 2), 0.5);   /* 2^-1 */
	ck_assert_double_eq(mf_fs_factor(0.3L, 0.0L, 1), 0.0);   /* S = 0 */
	ck_assert_double_eq(mf_fs_factor(0.3L, -1.0L, 1), 0.0);
	ck_assert_double_eq(mf_fs_factor(NAN, 0.5L, 1), 0.0);
	ck_assert_double_eq(mf_fs_factor(0.5L, 0.5L, 0), 0.5);   /* d 0->1 */
}
END_TEST

Suite *make_fairshare_classic_suite(void)
{
	Suite *s = suite_create("fairshare_classic");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_figure3, 0, G_N_ELEMENTS(fig3));
	tcase_add_test(tc, test_figure3_user2_four_shares);
	tcase_add_test(tc, test_dampening);
	tcase_add_test(tc, test_parent_user);
	tcase_add_test(tc, test_parent_account);
	tcase_add_test(tc, test_zero_shares);
	tcase_add_test(tc, test_zero_usage);
	tcase_add_test(tc, test_lone_user);
	tcase_add_test(tc, test_usage_norm_cap);
	tcase_add_test(tc, test_fs_factor_formula);
	suite_add_tcase(s, tc);
	return s;
}
