/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The association tree: building, errors, links, display order. */
#include <string.h>

#include "fairshare.h"
#include "suites.h"

START_TEST(test_errors)
{
	mf_tree_t *tree = mf_tree_create();
	mf_error_t e = { "" };

	ck_assert_ptr_nonnull(mf_tree_add_account(tree, "A", NULL, 1, &e));
	ck_assert_ptr_null(mf_tree_add_account(tree, "A", "root", 1, &e));
	ck_assert_msg(strstr(e.text, "duplicate account 'A'"), "%s", e.text);
	ck_assert_ptr_null(mf_tree_add_account(tree, "", "root", 1, &e));
	ck_assert_ptr_null(mf_tree_add_account(tree, "S", "S", 1, &e));
	ck_assert_msg(strstr(e.text, "its own parent"), "%s", e.text);
	ck_assert_ptr_nonnull(mf_tree_add_user(tree, "u", "A", 1, &e));
	ck_assert_ptr_null(mf_tree_add_user(tree, "u", "A", 1, &e));
	ck_assert_msg(strstr(e.text, "duplicate association of user 'u'"),
		      "%s", e.text);
	ck_assert_ptr_null(mf_tree_add_user(tree, "", "A", 1, &e));
	ck_assert_ptr_nonnull(mf_tree_add_user(tree, "v", "nosuch", 1, &e));
	ck_assert_int_eq(mf_tree_finalize(tree, &e), -1);
	ck_assert_msg(strstr(e.text, "'nosuch', which does not exist"),
		      "%s", e.text);
	mf_tree_destroy(tree);
	mf_tree_destroy(NULL);
}
END_TEST

START_TEST(test_cycle)
{
	mf_tree_t *tree = mf_tree_create();
	mf_error_t e = { "" };

	ck_assert_ptr_nonnull(mf_tree_add_account(tree, "X", "Y", 1, &e));
	ck_assert_ptr_nonnull(mf_tree_add_account(tree, "Y", "X", 1, &e));
	ck_assert_int_eq(mf_tree_finalize(tree, &e), -1);
	ck_assert_msg(strstr(e.text, "cycle"), "%s", e.text);
	mf_tree_destroy(tree);
}
END_TEST

/* sshare order: depth first; users (by name) before sub-accounts (by
 * name); fair-share links skip FairShare=parent accounts. */
START_TEST(test_order_and_links)
{
	static const tt_row_t rows[] = {
		{ "zeta", NULL, "root", 1, 0 },
		{ "alpha", NULL, "root", 1, 0 },
		{ "mid", NULL, "alpha", MF_SHARES_PARENT, 0 },
		{ "alpha", "bob", NULL, 1, 5 },
		{ "alpha", "amy", NULL, 1, 7 },
		{ "mid", "kim", NULL, 1, 11 },
		{ "root", "root", NULL, 1, 0 },
		{ NULL, NULL, NULL, 0, 0 },
	};
	static const char *const want[] = {
		"root/", "root/root", "alpha/", "alpha/amy", "alpha/bob",
		"mid/", "mid/kim", "zeta/",
	};
	mf_tree_t *tree = tt_build(rows);

	ck_assert_uint_eq(tree->order->len, G_N_ELEMENTS(want));
	for (guint i = 0; i < tree->order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(tree->order, i);
		char *got = g_strdup_printf("%s/%s", a->acct,
					    a->user ? a->user : "");

		ck_assert_str_eq(got, want[i]);
		g_free(got);
	}
	ck_assert_uint_eq(tree->user_count, 4);
	ck_assert_int_eq(tt_get(tree, "mid", "kim")->depth, 3);
	/* kim's fair-share parent is alpha, not mid */
	ck_assert_ptr_eq(tt_get(tree, "mid", "kim")->fs_parent,
			 tt_get(tree, "alpha", NULL));
	/* usage sums up the direct line: mid 11, alpha 23, root 23 */
	ck_assert(tt_get(tree, "mid", NULL)->usage_raw == 11.0L);
	ck_assert(tt_get(tree, "alpha", NULL)->usage_raw == 23.0L);
	ck_assert(tree->root->usage_raw == 23.0L);
	mf_tree_destroy(tree);
}
END_TEST

/*
 * Per-partition associations: user u of account A holds one on partition
 * debug (3 shares), one without partition (1) and one on big (0); v has
 * one (4).  Each is a leaf of its own, so A's level shares are 3+1+0+4 = 8.
 * A is root's only child: shares_norm 1, usage 8/8 = 1, efctv 1.  Classic
 * (NO_FAIR_TREE): S = 1 * raw/8, n = usage/8, UE = n + (1 - n) * raw/8,
 * F = 2^(-UE/S):
 *   u/debug  S 0.375, n 6/8 = 0.75, UE 0.75 + 0.25 * 0.375 = 0.84375,
 *            F 2^-2.25 = 0.2102241038
 *   u        S 0.125, n 2/8 = 0.25, UE 0.25 + 0.75 * 0.125 = 0.34375,
 *            F 2^-2.75 = 0.1486508894
 *   u/big    S 0, n 0, UE 0, F 0 (no shares: factor 0)
 *   v        S 0.5, n 0, UE 0.5, F 2^-1 = 0.5
 * sshare lists a user's associations in one account in the order the
 * database gives them, which the tree keeps (added: debug, none, big).
 * A job's association is the one on its partition, else the one without
 * (as a live slurmctld charges it: see tests/cluster/test-part-assoc.sh).
 */
START_TEST(test_partition_leaves)
{
	mf_tree_t *tree = mf_tree_create();
	mf_error_t e = { "" };
	mf_fs_config_t cfg = { MF_FS_CLASSIC, 1 };
	mf_assoc_t *ud, *u, *ub, *v;
	static const char *const want[] = {
		"root//", "A//", "A/u/debug", "A/u/", "A/u/big", "A/v/",
		"A/w/big",
	};

	ck_assert_ptr_nonnull(mf_tree_add_account(tree, "A", NULL, 1, &e));
	ud = mf_tree_add_user_part(tree, "u", "A", "debug", 3, &e);
	u = mf_tree_add_user_part(tree, "u", "A", "", 1, &e);
	ub = mf_tree_add_user_part(tree, "u", "A", "big", 0, &e);
	v = mf_tree_add_user(tree, "v", "A", 4, &e);
	ck_assert_ptr_nonnull(ud);
	ck_assert_ptr_nonnull(u);
	ck_assert_ptr_nonnull(ub);
	ck_assert_ptr_nonnull(v);
	/* w: on partition big only */
	ck_assert_ptr_nonnull(mf_tree_add_user_part(tree, "w", "A", "big", 0,
						    &e));
	ck_assert_ptr_null(mf_tree_add_user_part(tree, "u", "A", "debug", 1,
						 &e));
	ck_assert_msg(strstr(e.text, "duplicate association of user 'u' in "
			     "account 'A' on partition 'debug'"), "%s",
		      e.text);
	ck_assert_ptr_null(mf_tree_add_user(tree, "u", "A", 1, &e));
	ck_assert_msg(strstr(e.text, "user 'u' in account 'A'") &&
		      !strstr(e.text, "partition"), "%s", e.text);
	ck_assert_str_eq(ud->partition, "debug");
	ck_assert_ptr_null(u->partition);
	ck_assert_ptr_null(v->partition);
	ud->usage_raw = 6;
	u->usage_raw = 2;
	ck_assert_int_eq(mf_tree_finalize(tree, &e), 0);
	ck_assert_uint_eq(tree->user_count, 5);

	ck_assert_uint_eq(tree->order->len, G_N_ELEMENTS(want));
	for (guint i = 0; i < tree->order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(tree->order, i);
		char *got = g_strdup_printf("%s/%s/%s", a->acct,
					    a->user ? a->user : "",
					    a->partition ? a->partition : "");

		ck_assert_str_eq(got, want[i]);
		g_free(got);
	}

	/* exact lookups */
	ck_assert_ptr_eq(mf_tree_find_user(tree, "A", "u"), u);
	ck_assert_ptr_eq(mf_tree_find_user_part(tree, "A", "u", "debug"), ud);
	ck_assert_ptr_eq(mf_tree_find_user_part(tree, "A", "u", ""), u);
	ck_assert_ptr_null(mf_tree_find_user_part(tree, "A", "v", "debug"));
	ck_assert_ptr_null(mf_tree_find_user(tree, "A", "w"));
	/* a job's association */
	ck_assert_ptr_eq(mf_tree_find_job_assoc(tree, "A", "u", "debug"), ud);
	ck_assert_ptr_eq(mf_tree_find_job_assoc(tree, "A", "u", "big"), ub);
	ck_assert_ptr_eq(mf_tree_find_job_assoc(tree, "A", "u", "other"), u);
	ck_assert_ptr_eq(mf_tree_find_job_assoc(tree, "A", "u", NULL), u);
	ck_assert_ptr_eq(mf_tree_find_job_assoc(tree, "A", "v", "debug"), v);
	ck_assert_ptr_null(mf_tree_find_job_assoc(tree, "A", "w", "debug"));
	ck_assert_ptr_nonnull(mf_tree_find_job_assoc(tree, "A", "w", "big"));

	mf_tree_sum_usage(tree);
	ck_assert(tree->root->usage_raw == 8.0L);
	mf_fairshare_compute(tree, &cfg);
	ck_assert_double_eq_tol(ud->shares_norm, 0.375, 1e-12);
	ck_assert_double_eq_tol(u->shares_norm, 0.125, 1e-12);
	ck_assert_double_eq_tol(v->shares_norm, 0.5, 1e-12);
	ck_assert_double_eq_tol(ub->shares_norm, 0.0, 1e-12);
	ck_assert_double_eq_tol((double) ud->usage_efctv, 0.84375, 1e-12);
	ck_assert_double_eq_tol((double) u->usage_efctv, 0.34375, 1e-12);
	ck_assert_double_eq_tol((double) v->usage_efctv, 0.5, 1e-12);
	ck_assert_double_eq_tol(ud->fs_factor, 0.2102241038, 1e-9);
	ck_assert_double_eq_tol(u->fs_factor, 0.1486508894, 1e-9);
	ck_assert_double_eq_tol(ub->fs_factor, 0.0, 1e-12);
	ck_assert_double_eq_tol(v->fs_factor, 0.5, 1e-12);
	mf_tree_destroy(tree);
}
END_TEST

Suite *make_assoc_tree_suite(void)
{
	Suite *s = suite_create("assoc_tree");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_cycle);
	tcase_add_test(tc, test_order_and_links);
	tcase_add_test(tc, test_partition_leaves);
	suite_add_tcase(s, tc);
	return s;
}
