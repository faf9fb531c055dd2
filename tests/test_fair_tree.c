/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fair Tree: level_fs = S_local / U_local at each level, siblings ranked by
 * level_fs, users numbered depth first; fs_factor = rank / N.
 */
#include <math.h>
#include <stdio.h>

#include "fairshare.h"
#include "level_fs.h"
#include "suites.h"

#define TOL 5e-7


typedef struct {
	const char *acct, *user;
	double shares_norm, usage_efctv, level_fs, fs_factor;
} ft_expect_t;

/* N = 5 users.  Walk: root's children D (2.4) before A (.888889);
 * D: F (inf) before E (.416667): user5 rank 5, user4 rank 4;
 * A: B (1.6875) before C (.45): user1 rank 3; C: user3 (inf) rank 2,
 * user2 (.5) rank 1. */
static const ft_expect_t expect[] = {
	{ "A", NULL, 0.4, 0.45, 0.888889, NAN },   /* .4/(450/1000) */
	{ "D", NULL, 0.6, 0.25, 2.4, NAN },        /* .6/(250/1000) */
	{ "B", NULL, 0.75, 0.444444, 1.6875, NAN },/* (30/40)/(200/450) */
	{ "C", NULL, 0.25, 0.555556, 0.45, NAN },  /* (10/40)/(250/450) */
	{ "E", NULL, 0.416667, 1.0, 0.416667, NAN },/* (25/60)/(250/250) */
	{ "F", NULL, 0.583333, 0.0, INFINITY, NAN },/* (35/60)/0 */
	{ "F", "user5", 1.0, 0.0, INFINITY, 1.0 },  /* rank 5/5 */
	{ "E", "user4", 1.0, 1.0, 1.0, 0.8 },       /* rank 4/5 */
	{ "B", "user1", 1.0, 1.0, 1.0, 0.6 },       /* rank 3/5 */
	{ "C", "user3", 0.5, 0.0, INFINITY, 0.4 },  /* rank 2/5 */
	{ "C", "user2", 0.5, 1.0, 0.5, 0.2 },       /* rank 1/5 */
};

static void _check_close(const char *what, const ft_expect_t *x,
			 double got, double want)
{
	if (isnan(want)) {
		ck_assert_msg(isnan(got), "%s/%s %s %f, expected unset",
			      x->acct, x->user ? x->user : "", what, got);
		return;
	}
	if (isinf(want)) {
		ck_assert_msg(isinf(got), "%s/%s %s %f, expected inf",
			      x->acct, x->user ? x->user : "", what, got);
		return;
	}
	ck_assert_msg(fabs(got - want) < TOL, "%s/%s %s %f, expected %f",
		      x->acct, x->user ? x->user : "", what, got, want);
}

/* Every figure of association A against row X. */
static void _check_assoc(const ft_expect_t *x, const mf_assoc_t *a)
{
	_check_close("shares_norm", x, a->shares_norm, x->shares_norm);
	_check_close("usage_efctv", x, (double) a->usage_efctv,
		     x->usage_efctv);
	_check_close("level_fs", x, (double) a->level_fs, x->level_fs);
	_check_close("fs_factor", x, a->fs_factor, x->fs_factor);
}

START_TEST(test_figure3_ft)
{
	mf_tree_t *tree = tt_build(tt_figure3);
	mf_fs_config_t cfg = { MF_FS_FAIR_TREE, 1 };
	const ft_expect_t *x = &expect[_i];
	mf_assoc_t *a;

	mf_fairshare_compute(tree, &cfg);
	a = tt_get(tree, x->acct, x->user);
	_check_assoc(x, a);
	mf_tree_destroy(tree);
}
END_TEST

/* A tree kept from one computation to the next (as the plugin keeps it
 * between cycles): computed under classic first, every usage then doubled
 * (Fair Tree's figures only depend on usage within a level, so they stay
 * those of Figure 3) and the results reset; Fair Tree must then give the
 * hand-computed figures above, accounts' fs_factor unset again (classic
 * had set them). */
START_TEST(test_kept_tree)
{
	mf_tree_t *tree = tt_build(tt_figure3);
	mf_fs_config_t classic = { MF_FS_CLASSIC, 1 };
	mf_fs_config_t ft = { MF_FS_FAIR_TREE, 1 };

	mf_fairshare_compute(tree, &classic);
	for (guint i = 0; i < tree->input_order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(tree->input_order, i);

		ck_assert(!isnan(a->fs_factor));
		a->usage_raw *= 2;
	}
	mf_tree_reset_results(tree);
	mf_fairshare_compute(tree, &ft);
	for (size_t k = 0; k < G_N_ELEMENTS(expect); k++) {
		const ft_expect_t *x = &expect[k];
		mf_assoc_t *a = tt_get(tree, x->acct, x->user);

		_check_assoc(x, a);
	}
	mf_tree_destroy(tree);
}
END_TEST

/* Equal level_fs: tied users share a rank, and the next untied user
 * still gets the rank its place gives. */
START_TEST(test_tied_users)
{
	/* one account, users a, b, c with 1 share each; a and b used 10
	 * each, c 20.  level_fs: a = (1/3)/(10/40) = 1.333333 = b;
	 * c = (1/3)/(20/40) = .666667.  N = 3: a rank 3, b tied -> 3,
	 * c rank 1 (3 - 2).  F: 1, 1, 1/3 */
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 1, 0 },
		{ "A", "a", NULL, 1, 10 },
		{ "A", "b", NULL, 1, 10 },
		{ "A", "c", NULL, 1, 20 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_FAIR_TREE, 1 };

	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq_tol(tt_get(tree, "A", "a")->fs_factor, 1.0, 1e-12);
	ck_assert_double_eq_tol(tt_get(tree, "A", "b")->fs_factor, 1.0, 1e-12);
	ck_assert_double_eq_tol(tt_get(tree, "A", "c")->fs_factor, 1.0 / 3,
				1e-12);
	mf_tree_destroy(tree);
}
END_TEST

/* Tied accounts: the first user of the second account keeps the rank of
 * the last user before it (Slurm 22.05 passes the tie down). */
START_TEST(test_tied_accounts)
{
	/* X and Y, 1 share each, 50 usage each: level_fs .5/.5 = 1 both.
	 * N = 4.  X first (input order): x1 (10 of 50: (1/2)/(.2) = 2.5)
	 * rank 4, x2 ((1/2)/(.8) = .625) rank 3; Y tied: y1 (2.5) keeps
	 * rank 3; y2 (.625) rank 1. */
	static const tt_row_t rows[] = {
		{ "X", NULL, "root", 1, 0 },
		{ "Y", NULL, "root", 1, 0 },
		{ "X", "x1", NULL, 1, 10 },
		{ "X", "x2", NULL, 1, 40 },
		{ "Y", "y1", NULL, 1, 10 },
		{ "Y", "y2", NULL, 1, 40 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_FAIR_TREE, 1 };

	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq_tol(tt_get(tree, "X", "x1")->fs_factor, 1.0, 1e-12);
	ck_assert_double_eq_tol(tt_get(tree, "X", "x2")->fs_factor, 0.75,
				1e-12);
	ck_assert_double_eq_tol(tt_get(tree, "Y", "y1")->fs_factor, 0.75,
				1e-12);
	ck_assert_double_eq_tol(tt_get(tree, "Y", "y2")->fs_factor, 0.25,
				1e-12);
	mf_tree_destroy(tree);
}
END_TEST

/* A user and an account tie: the user goes first. */
START_TEST(test_user_before_account_on_tie)
{
	/* root children: user u (1 share, 50) and account A (1 share, 50
	 * via a).  Both level_fs (1/2)/(1/2) = 1; u ranks first: 2/2 = 1;
	 * A is tied, so a keeps rank 2: 1. */
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 1, 0 },
		{ "A", "a", NULL, 1, 50 },
		{ "root", "u", NULL, 1, 50 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_FAIR_TREE, 1 };

	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq(tt_get(tree, "root", "u")->fs_factor, 1.0);
	ck_assert_double_eq(tt_get(tree, "A", "a")->fs_factor, 1.0);
	mf_tree_destroy(tree);
}
END_TEST

/* FairShare=parent user: level_fs inf, first in its account; zero-share
 * user: level_fs 0, last. */
START_TEST(test_parent_and_zero)
{
	/* N = 3 in A: p (parent) inf -> 3/3; a (1 share, 10 of 30:
	 * (1/1)/(1/3) = 3) -> 2/3; z (0 shares) level 0 -> 1/3 */
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 1, 0 },
		{ "A", "a", NULL, 1, 10 },
		{ "A", "p", NULL, MF_SHARES_PARENT, 10 },
		{ "A", "z", NULL, 0, 10 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_FAIR_TREE, 1 };
	mf_assoc_t *p = tt_get(tree, "A", "p");

	mf_fairshare_compute(tree, &cfg);
	ck_assert(isinf((double) p->level_fs));
	ck_assert_double_eq(p->shares_norm, 1.0);   /* A's: 1/1 */
	ck_assert_double_eq_tol(p->fs_factor, 1.0, 1e-12);
	ck_assert_double_eq_tol(tt_get(tree, "A", "a")->fs_factor, 2.0 / 3,
				1e-12);
	ck_assert_double_eq(tt_get(tree, "A", "z")->level_fs, 0.0);
	ck_assert_double_eq_tol(tt_get(tree, "A", "z")->fs_factor, 1.0 / 3,
				1e-12);
	mf_tree_destroy(tree);
}
END_TEST

/* Zero usage everywhere: all level_fs inf, all tied: every user rank N. */
START_TEST(test_zero_usage_all_tied)
{
	static const tt_row_t rows[] = {
		{ "A", NULL, "root", 1, 0 },
		{ "B", NULL, "root", 2, 0 },
		{ "A", "a", NULL, 1, 0 },
		{ "B", "b", NULL, 1, 0 },
		{ "B", "c", NULL, 1, 0 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	mf_tree_t *tree = tt_build(rows);
	mf_fs_config_t cfg = { MF_FS_FAIR_TREE, 1 };

	mf_fairshare_compute(tree, &cfg);
	for (guint i = 0; i < tree->order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(tree->order, i);

		if (a->user)
			ck_assert_double_eq(a->fs_factor, 1.0);
	}
	mf_tree_destroy(tree);
}
END_TEST

/* A deep chain and a wide level: shapes that must not break the walk. */
START_TEST(test_deep_and_wide)
{
	mf_tree_t *tree = mf_tree_create();
	mf_fs_config_t cfg = { MF_FS_FAIR_TREE, 1 };
	char name[32], parent[32] = "root";
	mf_error_t e;

	for (int i = 0; i < 2000; i++) {         /* deep: 2000 levels */
		snprintf(name, sizeof(name), "d%d", i);
		ck_assert(mf_tree_add_account(tree, name, parent, 1, &e));
		g_strlcpy(parent, name, sizeof(parent));
	}
	ck_assert(mf_tree_add_user(tree, "deep", parent, 1, &e));
	for (int i = 0; i < 5000; i++) {         /* wide: 5000 users */
		snprintf(name, sizeof(name), "w%d", i);
		mf_assoc_t *w = mf_tree_add_user(tree, name, "root", 1, &e);

		ck_assert_ptr_nonnull(w);
		w->usage_raw = i;
	}
	ck_assert(!mf_tree_finalize(tree, &e));
	mf_tree_sum_usage(tree);
	mf_fairshare_compute(tree, &cfg);
	/* w0 and deep have no usage: inf, tied at the top: rank N = 5001 */
	ck_assert_double_eq(tt_get(tree, parent, "deep")->fs_factor, 1.0);
	ck_assert_double_eq(tt_get(tree, "root", "w0")->fs_factor, 1.0);
	/* w4999 used the most: the last rank, 1/5001 */
	ck_assert_double_eq_tol(tt_get(tree, "root", "w4999")->fs_factor,
				1.0 / 5001, 1e-15);
	cfg.algo = MF_FS_CLASSIC;
	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq(tt_get(tree, parent, "deep")->fs_factor, 1.0);
	cfg.algo = MF_FS_DEPTH_OBLIVIOUS;
	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq(tt_get(tree, parent, "deep")->fs_factor, 1.0);
	mf_tree_destroy(tree);
}
END_TEST

Suite *make_fair_tree_suite(void)
{
	Suite *s = suite_create("fair_tree");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_figure3_ft, 0, G_N_ELEMENTS(expect));
	tcase_add_test(tc, test_kept_tree);
	tcase_add_test(tc, test_tied_users);
	tcase_add_test(tc, test_tied_accounts);
	tcase_add_test(tc, test_user_before_account_on_tie);
	tcase_add_test(tc, test_parent_and_zero);
	tcase_add_test(tc, test_zero_usage_all_tied);
	tcase_add_test(tc, test_deep_and_wide);
	suite_add_tcase(s, tc);
	return s;
}
