/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Check suites of the core, one per module; check_main runs them all. */
#ifndef MFPRIO_TEST_SUITES_H
#define MFPRIO_TEST_SUITES_H

#include <check.h>

#include "assoc_tree.h"

Suite *make_assoc_tree_suite(void);
Suite *make_shares_norm_suite(void);
Suite *make_fairshare_classic_suite(void);
Suite *make_depth_oblivious_suite(void);
Suite *make_fair_tree_suite(void);
Suite *make_decay_suite(void);
Suite *make_clock_step_suite(void);
Suite *make_usage_charge_suite(void);
Suite *make_timestr_suite(void);
Suite *make_hostlist_suite(void);
Suite *make_tres_suite(void);
Suite *make_release_suite(void);
Suite *make_age_factor_suite(void);
Suite *make_job_size_factor_suite(void);
Suite *make_part_factor_suite(void);
Suite *make_qos_factor_suite(void);
Suite *make_assoc_factor_suite(void);
Suite *make_tres_factor_suite(void);
Suite *make_billing_suite(void);
Suite *make_job_fs_factor_suite(void);
Suite *make_priority_suite(void);
Suite *make_priority_conf_suite(void);
Suite *make_json_out_suite(void);
Suite *make_usage_record_suite(void);
Suite *make_state_files_suite(void);
Suite *make_replay_suite(void);
Suite *make_metrics_suite(void);

/* A row of a test tree: an account (user NULL) or a user. */
typedef struct {
	const char *acct;
	const char *user;
	const char *parent;      /* accounts only; NULL means root */
	uint32_t shares;
	double usage;            /* users: raw usage; accounts: own usage */
} tt_row_t;

/* The spec's Figure 3 (see check_main.c); tt_figure3_len rows with the
 * terminator. */
extern const tt_row_t tt_figure3[];
extern const size_t tt_figure3_len;

/* Build, finalize and sum a tree from ROWS (ending with acct == NULL);
 * fails the test on any error. */
mf_tree_t *tt_build(const tt_row_t *rows);

/* The association (acct, user) of TREE, failing the test if absent. */
mf_assoc_t *tt_get(mf_tree_t *tree, const char *acct, const char *user);

#endif
