/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>

#include "suites.h"

/*
 * The spec's Figure 3.  Usage is given so that root's total is 1000: the
 * spec speaks of fractions "of the machine", and users 1, 2 and 4 used 0.2,
 * 0.25 and 0.25 of it; the remaining 0.3 was used by nobody listed, so root
 * carries 300 of its own (as usage of a removed association stays on root).
 */
const tt_row_t tt_figure3[] = {
	{ "A", NULL, "root", 40, 0 },
	{ "D", NULL, "root", 60, 0 },
	{ "B", NULL, "A", 30, 0 },
	{ "C", NULL, "A", 10, 0 },
	{ "E", NULL, "D", 25, 0 },
	{ "F", NULL, "D", 35, 0 },
	{ "B", "user1", NULL, 1, 200 },
	{ "C", "user2", NULL, 1, 250 },
	{ "C", "user3", NULL, 1, 0 },
	{ "E", "user4", NULL, 1, 250 },
	{ "F", "user5", NULL, 1, 0 },
	{ "root", NULL, NULL, 1, 300 },
	{ NULL, NULL, NULL, 0, 0 },
};
const size_t tt_figure3_len = sizeof(tt_figure3) / sizeof(tt_figure3[0]);

mf_tree_t *tt_build(const tt_row_t *rows)
{
	mf_tree_t *tree = mf_tree_create();
	mf_error_t e;

	for (const tt_row_t *r = rows; r->acct; r++) {
		mf_assoc_t *a = r->user ?
			mf_tree_add_user(tree, r->user, r->acct, r->shares, &e) :
			mf_tree_add_account(tree, r->acct, r->parent,
					    r->shares, &e);

		ck_assert_msg(a, "adding %s/%s: %s", r->acct,
			      r->user ? r->user : "", e.text);
		a->usage_raw = r->usage;
	}
	ck_assert_msg(!mf_tree_finalize(tree, &e), "finalize: %s", e.text);
	mf_tree_sum_usage(tree);
	return tree;
}

mf_assoc_t *tt_get(mf_tree_t *tree, const char *acct, const char *user)
{
	mf_assoc_t *a = user ? mf_tree_find_user(tree, acct, user)
			     : mf_tree_find_account(tree, acct);

	ck_assert_msg(a, "no association %s/%s", acct, user ? user : "");
	return a;
}

int main(void)
{
	SRunner *sr = srunner_create(make_assoc_tree_suite());
	int failed;

	srunner_add_suite(sr, make_shares_norm_suite());
	srunner_add_suite(sr, make_fairshare_classic_suite());
	srunner_add_suite(sr, make_depth_oblivious_suite());
	srunner_add_suite(sr, make_fair_tree_suite());
	srunner_add_suite(sr, make_decay_suite());
	srunner_add_suite(sr, make_clock_step_suite());
	srunner_add_suite(sr, make_usage_charge_suite());
	srunner_add_suite(sr, make_timestr_suite());
	srunner_add_suite(sr, make_hostlist_suite());
	srunner_add_suite(sr, make_tres_suite());
	srunner_add_suite(sr, make_release_suite());
	srunner_add_suite(sr, make_age_factor_suite());
	srunner_add_suite(sr, make_job_size_factor_suite());
	srunner_add_suite(sr, make_part_factor_suite());
	srunner_add_suite(sr, make_qos_factor_suite());
	srunner_add_suite(sr, make_assoc_factor_suite());
	srunner_add_suite(sr, make_tres_factor_suite());
	srunner_add_suite(sr, make_billing_suite());
	srunner_add_suite(sr, make_job_fs_factor_suite());
	srunner_add_suite(sr, make_priority_suite());
	srunner_add_suite(sr, make_priority_conf_suite());
	srunner_add_suite(sr, make_json_out_suite());
	srunner_add_suite(sr, make_usage_record_suite());
	srunner_add_suite(sr, make_state_files_suite());
	srunner_add_suite(sr, make_replay_suite());
	srunner_add_suite(sr, make_metrics_suite());

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
