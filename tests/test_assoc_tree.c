/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The association tree: building, errors, links, display order. */
#include <string.h>

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

Suite *make_assoc_tree_suite(void)
{
	Suite *s = suite_create("assoc_tree");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_cycle);
	tcase_add_test(tc, test_order_and_links);
	suite_add_tcase(s, tc);
	return s;
}
