/* SPDX-License-Identifier: GPL-2.0-or-later */
/* usage_record (usage_record.h): the plugin's record of usage, written and
 * read back, and every way a record can be wrong. */
#include <string.h>

#include "usage_record.h"
#include "suites.h"

/* A record of cluster "c1" at 1700000060 with 3 TRES: association 7 with
 * 1.5 raw (an exact binary fraction), 90 wall seconds and TRES 1 at 2.25;
 * association 9 with a third (not exact in decimal); QOS 1 with 4 raw. */
static char *_sample(size_t *len)
{
	mf_usage_record_t r;
	long double *t;
	uint32_t ids[] = { 1, 7, 9 };
	char *text;

	mf_usage_record_init(&r, "c1", 1700000060, 3);
	r.assoc_total = 3;
	r.assoc_hash = mf_usage_ids_hash(ids, 3);
	t = mf_usage_record_add(&r, 0, 7, 1.5L, 90.0);
	t[1] = 2.25L;
	(void) mf_usage_record_add(&r, 0, 9, 1.0L / 3.0L, 0.5);
	t = mf_usage_record_add(&r, 1, 1, 4.0L, 10.0);
	t[0] = 8.0L;
	t[2] = 1e-300L;
	text = mf_usage_record_format(&r, len);
	mf_usage_record_clear(&r);
	return text;
}

START_TEST(test_round_trip)
{
	size_t len;
	char *text = _sample(&len);
	mf_usage_record_t r;
	mf_error_t err;
	const mf_rec_entry_t *e;
	uint32_t ids[] = { 9, 1, 7 };

	ck_assert_uint_eq(strlen(text), len);
	ck_assert_ptr_nonnull(strstr(text, "mfprio-usage-record 1\ncluster c1\n"
				     "time 1700000060\ntres 3\nassocs 3 "));
	ck_assert_int_eq(mf_usage_record_parse(text, len, &r, &err), 0);
	ck_assert_str_eq(r.cluster, "c1");
	ck_assert_int_eq((long) r.time, 1700000060L);
	ck_assert_uint_eq(r.tres_cnt, 3);
	ck_assert_uint_eq(r.assoc_total, 3);
	/* the same ids in another order hash the same */
	ck_assert(r.assoc_hash == mf_usage_ids_hash(ids, 3));
	ck_assert_uint_eq(r.assocs->len, 2);
	ck_assert_uint_eq(r.qos->len, 1);
	e = &g_array_index(r.assocs, mf_rec_entry_t, 0);
	ck_assert_uint_eq(e->id, 7);
	ck_assert(e->raw == 1.5L && e->wall == 90.0);
	ck_assert(e->tres[0] == 0.0L && e->tres[1] == 2.25L &&
		  e->tres[2] == 0.0L);
	/* exactly a third again: hex floats lose nothing */
	e = &g_array_index(r.assocs, mf_rec_entry_t, 1);
	ck_assert(e->raw == 1.0L / 3.0L && e->wall == 0.5);
	e = &g_array_index(r.qos, mf_rec_entry_t, 0);
	ck_assert(e->id == 1 && e->raw == 4.0L && e->tres[0] == 8.0L &&
		  e->tres[2] == 1e-300L);
	mf_usage_record_clear(&r);
	g_free(text);
}
END_TEST

START_TEST(test_ids_hash)
{
	uint32_t a[] = { 1, 2, 3 }, b[] = { 3, 1, 2 }, c[] = { 1, 2, 4 };

	ck_assert(mf_usage_ids_hash(a, 3) == mf_usage_ids_hash(b, 3));
	ck_assert(mf_usage_ids_hash(a, 3) != mf_usage_ids_hash(c, 3));
	ck_assert(mf_usage_ids_hash(a, 2) != mf_usage_ids_hash(a, 3));
	ck_assert(mf_usage_ids_hash(a, 0) == 0);
}
END_TEST

/* TEXT must be refused, with an error holding WANT. */
static void _refused(const char *text, size_t len, const char *want)
{
	mf_usage_record_t r;
	mf_error_t err;

	ck_assert_int_eq(mf_usage_record_parse(text, len, &r, &err), -1);
	ck_assert_msg(strstr(err.text, want), "'%s' lacks '%s'", err.text,
		      want);
	ck_assert_ptr_null(r.cluster);
	ck_assert_ptr_null(r.assocs);
}

/* The sample with FROM replaced by TO, sum line kept as it was. */
static char *_changed(const char *from, const char *to)
{
	size_t len;
	char *text = _sample(&len), *at = strstr(text, from), *out;

	ck_assert_ptr_nonnull(at);
	out = g_strdup_printf("%.*s%s%s", (int) (at - text), text, to,
			      at + strlen(from));
	g_free(text);
	return out;
}

START_TEST(test_refused)
{
	size_t len;
	char *text = _sample(&len), *s;
	const char *sum_line = strstr(text, "sum ");

	_refused("", 0, "empty");
	_refused("mfprio-usage-record 2\n", 22, "line 1: not an mfprio usage record");
	_refused("1700000000 1\n", 13, "line 1: not an mfprio usage record");
	/* cut in the middle of a line, and just before the sum */
	_refused(text, len - 10, "cut short");
	_refused(text, (size_t) (sum_line - text), "no 'sum' line");
	_refused(text, 30, "line 2: cut short");
	/* any byte changed: the sum no longer matches */
	s = _changed("a 7 ", "a 8 ");
	_refused(s, strlen(s), "line 9: the sum does not match");
	g_free(s);
	s = g_strdup_printf("%sa 1 0x1p+0 0x0p+0\n", text);
	_refused(s, strlen(s), "text after the sum");
	g_free(s);
	g_free(text);
}
END_TEST

/* Records with a good sum but a bad line: built by hand, summed here. */
static void _refused_summed(const char *body, const char *want)
{
	char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, body, -1);
	char *text = g_strdup_printf("%ssum %s\n", body, sum);

	_refused(text, strlen(text), want);
	g_free(text);
	g_free(sum);
}

#define HEAD "mfprio-usage-record 1\ncluster c\ntime 5\ntres 2\nassocs 1 00000000000000ab\n"

START_TEST(test_bad_lines)
{
	_refused_summed(HEAD "a 1 0x1p+0 0x0p+0\na 1 0x1p+0 0x0p+0\n",
			"line 7: the id appears twice");
	_refused_summed(HEAD "a 1 -1 0\n", "line 6: the raw usage");
	_refused_summed(HEAD "a 1 1 nan\n", "line 6: the wall time");
	/* a long double, but no double: the wall time is one */
	_refused_summed(HEAD "a 1 1 0x1p+2000\n", "line 6: the wall time");
	_refused_summed(HEAD "a 1 1 1 2:5\n", "line 6: a TRES index beyond");
	_refused_summed(HEAD "a 1 1 1 1:inf\n", "line 6: a TRES usage");
	_refused_summed(HEAD "x 1 1 1\n", "line 6: an entry");
	_refused_summed(HEAD "a x 1 1\n", "line 6: an id is expected");
	_refused_summed("mfprio-usage-record 1\ncluster a b\n",
			"line 2: 'cluster NAME' expected");
	_refused_summed("mfprio-usage-record 1\ncluster c\ntime 0\n",
			"line 3: the time is not a positive");
	_refused_summed("mfprio-usage-record 1\ncluster c\ntime 5\ntres 5000\n",
			"line 4: the TRES count");
	_refused_summed("mfprio-usage-record 1\ncluster c\ntime 5\ntres 2\n"
			"assocs 1 xyz\n", "line 5: the association hash");
	/* a QOS and an association may share an id */
	{
		const char *body = HEAD "a 1 0x1p+0 0x0p+0\nq 1 0x1p+0 0x0p+0\n";
		char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256,
							  body, -1);
		char *text = g_strdup_printf("%ssum %s\n", body, sum);
		mf_usage_record_t r;
		mf_error_t err;

		ck_assert_int_eq(mf_usage_record_parse(text, strlen(text), &r,
						       &err), 0);
		ck_assert_uint_eq(r.assoc_hash, 0xab);
		mf_usage_record_clear(&r);
		g_free(text);
		g_free(sum);
	}
}
END_TEST

Suite *make_usage_record_suite(void)
{
	Suite *s = suite_create("usage_record");
	TCase *tc = tcase_create("record");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_ids_hash);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_bad_lines);
	suite_add_tcase(s, tc);
	return s;
}
