/* SPDX-License-Identifier: GPL-2.0-or-later */
/* release (release.h): parsing and naming Slurm releases. */
#include <string.h>

#include "release.h"
#include "suites.h"

START_TEST(test_parse)
{
	mf_release_t r = 0;
	mf_error_t err;
	char buf[8];

	ck_assert_int_eq(mf_release_parse("22.05", &r, &err), 0);
	ck_assert_uint_eq(r, 2205);
	ck_assert_int_eq(mf_release_parse("23.11.11", &r, &err), 0);
	ck_assert_uint_eq(r, MF_RELEASE(23, 11));
	ck_assert_str_eq(mf_release_name(r, buf), "23.11");
	ck_assert_int_eq(mf_release_parse("26.05.3", &r, &err), 0);
	ck_assert_str_eq(mf_release_name(r, buf), "26.05");
	ck_assert_int_eq(mf_release_parse("24.5", &r, &err), 0);
	ck_assert_str_eq(mf_release_name(r, buf), "24.05");
	/* not a version: names it */
	r = 7;
	ck_assert_int_eq(mf_release_parse("latest", &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.text, "'latest' is not a Slurm release"));
	ck_assert_uint_eq(r, 7);
	ck_assert_int_eq(mf_release_parse("23.11.", &r, &err), -1);
	ck_assert_int_eq(mf_release_parse("23", &r, &err), -1);
	ck_assert_int_eq(mf_release_parse("123.05", &r, &err), -1);
	ck_assert_int_eq(mf_release_parse("23.11.1x", &r, &err), -1);
	ck_assert_int_eq(mf_release_parse("", &r, &err), -1);
	ck_assert_int_eq(mf_release_parse(NULL, &r, &err), -1);
	/* a version, but not a release mfprio knows */
	ck_assert_int_eq(mf_release_parse("21.08.8", &r, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.text, "not one mfprio knows"));
	ck_assert_int_eq(mf_release_parse("25.02", &r, &err), -1);
	ck_assert_int_eq(mf_release_parse("27.05", &r, &err), -1);
}
END_TEST

START_TEST(test_behaviour)
{
	ck_assert(!mf_release_js_guarded(0));
	ck_assert(!mf_release_js_guarded(MF_RELEASE(22, 5)));
	ck_assert(mf_release_js_guarded(MF_RELEASE(23, 2)));
	ck_assert(mf_release_js_guarded(MF_RELEASE(26, 5)));
	ck_assert(mf_release_known(MF_RELEASE_DEFAULT));
	ck_assert(!mf_release_known(0));
	/* sshare's FairShare on user rows only: 25.11's src/sshare/process.c
	 * prints NO_VAL for a row without user under every algorithm; 25.05's
	 * still computes the classic factor outside Fair Tree */
	ck_assert(!mf_release_sshare_fs_users_only(MF_RELEASE(22, 5)));
	ck_assert(!mf_release_sshare_fs_users_only(MF_RELEASE(25, 5)));
	ck_assert(mf_release_sshare_fs_users_only(MF_RELEASE(25, 11)));
	ck_assert(mf_release_sshare_fs_users_only(MF_RELEASE(26, 11)));
}
END_TEST

Suite *make_release_suite(void)
{
	Suite *s = suite_create("release");
	TCase *tc = tcase_create("release");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_behaviour);
	suite_add_tcase(s, tc);
	return s;
}
