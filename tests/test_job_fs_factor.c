/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_fs_factor (job_fs_factor.h): the fair-share factor a job gets from
 * its association, under each algorithm, FairShare=parent included.
 * The tree is the spec's Figure 3 (root's total usage 1000), plus user6
 * with FairShare=parent in B.
 */
#include <math.h>

#include "fairshare.h"
#include "job_fs_factor.h"
#include "suites.h"

static const tt_row_t tree_rows[] = {
	{ "A", NULL, "root", 40, 0 },
	{ "D", NULL, "root", 60, 0 },
	{ "B", NULL, "A", 30, 0 },
	{ "C", NULL, "A", 10, 0 },
	{ "E", NULL, "D", 25, 0 },
	{ "F", NULL, "D", 35, 0 },
	{ "B", "user1", NULL, 1, 200 },
	{ "B", "user6", NULL, MF_SHARES_PARENT, 0 },
	{ "C", "user2", NULL, 1, 250 },
	{ "C", "user3", NULL, 1, 0 },
	{ "E", "user4", NULL, 1, 250 },
	{ "F", "user5", NULL, 1, 0 },
	{ "root", NULL, NULL, 1, 300 },
	{ NULL, NULL, NULL, 0, 0 },
};

START_TEST(test_classic)
{
	mf_tree_t *tree = tt_build(tree_rows);
	mf_fs_config_t cfg = { .algo = MF_FS_CLASSIC, .damp = 1 };
	mf_assoc_t *u1 = tt_get(tree, "B", "user1");
	mf_assoc_t *u6 = tt_get(tree, "B", "user6");
	mf_assoc_t *b = tt_get(tree, "B", NULL);

	mf_fairshare_compute(tree, &cfg);
	/* user1: 2^(-.3875/.3) = 0.408479 (the spec's figure) */
	ck_assert_double_eq_tol(mf_job_fs_factor(u1, cfg.algo, 1), 0.408479,
				5e-7);
	/* user6, FairShare=parent: account B's UE/S, 2^(-UE_B/.3) */
	ck_assert_double_eq_tol(mf_job_fs_factor(u6, cfg.algo, 1),
				pow(2.0, -(double)b->usage_efctv /
					 b->shares_norm), 1e-12);
	/* damping 2: 2^(-.3875/.3/2) = 0.639124 */
	ck_assert_double_eq_tol(mf_job_fs_factor(u1, cfg.algo, 2), 0.639124,
				5e-7);
	/* no association */
	ck_assert_double_eq(mf_job_fs_factor(NULL, cfg.algo, 1), 0.0);
	mf_tree_destroy(tree);
}
END_TEST

START_TEST(test_fair_tree)
{
	mf_tree_t *tree = tt_build(tree_rows);
	mf_fs_config_t cfg = { .algo = MF_FS_FAIR_TREE, .damp = 1 };
	mf_assoc_t *u1 = tt_get(tree, "B", "user1");
	mf_assoc_t *u6 = tt_get(tree, "B", "user6");

	mf_fairshare_compute(tree, &cfg);
	/* Fair Tree: the user's own rank-based factor, parent or not */
	ck_assert_double_eq(mf_job_fs_factor(u1, cfg.algo, 1), u1->fs_factor);
	ck_assert_double_eq(mf_job_fs_factor(u6, cfg.algo, 1), u6->fs_factor);
	ck_assert(u1->fs_factor > 0.0 && u1->fs_factor <= 1.0);
	/* an account's factor is unset (NAN) under Fair Tree: 0, not NaN */
	ck_assert_double_eq(mf_job_fs_factor(tt_get(tree, "B", NULL),
					     cfg.algo, 1), 0.0);
	mf_tree_destroy(tree);
}
END_TEST

Suite *make_job_fs_factor_suite(void)
{
	Suite *s = suite_create("job_fs_factor");
	TCase *tc = tcase_create("job fair-share");

	tcase_add_test(tc, test_classic);
	tcase_add_test(tc, test_fair_tree);
	suite_add_tcase(s, tc);
	return s;
}
