/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host list expansion (hostlist.h), as NodeName= and Nodes= write them. */
#include <string.h>

#include "hostlist.h"
#include "suites.h"

typedef struct {
	const char *text;
	const char *expanded;    /* names joined by ' ', NULL: must fail */
} hl_case_t;

static const hl_case_t cases[] = {
	{ "n1", "n1" },
	{ "n1,n2", "n1 n2" },
	{ "n[1-3]", "n1 n2 n3" },
	{ "n[01-03,7]", "n01 n02 n03 n7" },    /* padding per range */
	{ "n[9-10]", "n9 n10" },
	{ "r[1-2]-n[1-2]", "r1-n1 r1-n2 r2-n1 r2-n2" },
	{ "a,b[1-2],c", "a b1 b2 c" },
	{ " x , y ", "x y" },
	/* the largest unsigned long, and a range ending there: once the
	 * loop wrapped to 0 and ran to the name limit (the fuzzer's
	 * 13-s timeout) */
	{ "n[18446744073709551615]", "n18446744073709551615" },
	{ "n[18446744073709551614-18446744073709551615]",
	  "n18446744073709551614 n18446744073709551615" },
	/* failures */
	{ "n[1-3", NULL }, { "n1-3]", NULL }, { "n[3-1]", NULL },
	{ "n[a-b]", NULL }, { "n[]", NULL }, { "n[0-9999999]", NULL },
	/* past unsigned long (the fuzzer's finding a[2...3]-,=) */
	{ "a[200000000000000000003]-,=", NULL }, { "n[1-200000000000000000003]", NULL },
	/* three brackets in one name, the last fastest */
	{ "r[1-2]n[1-2][7]", "r1n17 r1n27 r2n17 r2n27" },
	{ "a[[1]]", NULL }, { "n[1-2]]", NULL }, { "n[-1]", NULL },
	/* more names than the limit (262,144) as a product of brackets each
	 * under it: refused before any is made.  The first was the fuzzer's
	 * 10-s timeout (913 x 913 names made one by one, then refused) */
	{ "n[80-992][000]-ibn[80-992][000]-ib", NULL },
	{ "a[1-999999][1-999999][1-999999]", NULL },
	{ "a[1-200000],b[1-200000]", NULL },
};

START_TEST(test_expand)
{
	const hl_case_t *c = &cases[_i];
	mf_error_t e = { "" };
	GPtrArray *names = mf_hostlist_expand(c->text, &e);

	if (!c->expanded) {
		ck_assert_msg(!names, "mf_hostlist_expand(\"%s\") should fail",
			      c->text);
		ck_assert_msg(strstr(e.text, c->text), "error names the list: "
			      "%s", e.text);
		return;
	}
	ck_assert_msg(names, "mf_hostlist_expand(\"%s\"): %s", c->text,
		      e.text);
	g_ptr_array_add(names, NULL);
	{
		char *joined = g_strjoinv(" ", (char **)names->pdata);

		ck_assert_msg(!strcmp(joined, c->expanded),
			      "mf_hostlist_expand(\"%s\") = \"%s\", expected "
			      "\"%s\"", c->text, joined, c->expanded);
		g_free(joined);
	}
	g_ptr_array_unref(names);
}
END_TEST

Suite *make_hostlist_suite(void)
{
	Suite *s = suite_create("hostlist");
	TCase *tc = tcase_create("expand");

	tcase_add_loop_test(tc, test_expand, 0, G_N_ELEMENTS(cases));
	suite_add_tcase(s, tc);
	return s;
}
