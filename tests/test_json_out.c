/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JSON writer of mfprio's --json output (src/render/json_out.h): string
 * escapes as RFC 8259 spells them, numbers that read back exactly, NaN
 * and infinities as null, and the layout (members of the top two levels
 * one per line, deeper ones on one line).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "src/render/json_out.h"

typedef struct {
	const char *in;
	const char *out;         /* the literal, quotes included */
} str_case_t;

static const str_case_t strings[] = {
	{ "plain", "\"plain\"" },
	{ "", "\"\"" },
	{ "q\"uote", "\"q\\\"uote\"" },
	{ "back\\slash", "\"back\\\\slash\"" },
	{ "a\tb\nc\rd", "\"a\\tb\\nc\\rd\"" },
	{ "\b\f", "\"\\b\\f\"" },
	{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
	{ "/", "\"/\"" },                         /* need not be escaped */
	{ "\xc3\xbc-ser", "\"\xc3\xbc-ser\"" },   /* U+00FC as is */
	{ "\xe2\x82\xac", "\"\xe2\x82\xac\"" },   /* U+20AC as is */
	{ "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },  /* 4 bytes */
	/* not UTF-8: each bad byte becomes U+FFFD (EF BF BD) */
	{ "bad\xff", "\"bad\xef\xbf\xbd\"" },
	{ "\xc3(", "\"\xef\xbf\xbd(\"" },         /* cut sequence */
	{ "\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"" },   /* overlong '/' */
	{ "\xe2\x82", "\"\xef\xbf\xbd\xef\xbf\xbd\"" },   /* cut at the end */
};

typedef struct {
	double v;
	const char *out;
} num_case_t;

static const num_case_t numbers[] = {
	{ 0.0, "0" },
	{ 1.0, "1" },
	{ -2.5, "-2.5" },
	{ 0.1, "0.1" },                           /* 15 digits do */
	{ 1.0 / 3.0, "0.3333333333333333" },      /* 16 needed */
	{ 2.0 / 3.0, "0.6666666666666666" },
	{ 0.1 + 0.2, "0.30000000000000004" },     /* 17 needed */
	{ 4294967295.0, "4294967295" },
	{ 1e300, "1e+300" },
	{ 5e-324, "4.94065645841247e-324" },      /* the smallest: 15 do */
	{ NAN, "null" },
	{ INFINITY, "null" },
	{ -INFINITY, "null" },
};

/* What F wrote into a memory stream, as a new string. */
static char *_written(void (*f)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	f(out, arg);
	fclose(out);
	return buf;
}

static void _write_string(FILE *out, const void *arg)
{
	mf_json_write_string(out, arg);
}

static void _write_double(FILE *out, const void *arg)
{
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_double(&j, NULL, *(const double *)arg);
}

START_TEST(test_string)
{
	const str_case_t *c = &strings[_i];
	char *got = _written(_write_string, c->in);

	ck_assert_msg(!strcmp(got, c->out),
		      "mf_json_write_string(case %d) wrote '%s', want '%s'",
		      _i, got, c->out);
	free(got);
}
END_TEST

START_TEST(test_number)
{
	const num_case_t *c = &numbers[_i];
	char *got = _written(_write_double, &c->v);

	ck_assert_msg(!strcmp(got, c->out),
		      "mf_json_double(%.17g) wrote '%s', want '%s'", c->v, got,
		      c->out);
	if (isfinite(c->v))
		ck_assert_msg(strtod(got, NULL) == c->v,
			      "'%s' does not read back as %.17g", got, c->v);
	free(got);
}
END_TEST

static void _write_doc(FILE *out, const void *arg)
{
	mf_json_t j;

	(void)arg;
	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "s", NULL);
	mf_json_begin_object(&j, "o");
	mf_json_int(&j, "i", -3);
	mf_json_uint(&j, "u", 18446744073709551615ULL);
	mf_json_begin_object(&j, "deep");
	mf_json_bool(&j, "t", true);
	mf_json_begin_array(&j, "a");
	mf_json_null(&j, NULL);
	mf_json_bool(&j, NULL, false);
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_end_object(&j);
	mf_json_begin_array(&j, "rows");
	mf_json_begin_object(&j, NULL);
	mf_json_int(&j, "x", 1);
	mf_json_string(&j, "y", "z");
	mf_json_end_object(&j);
	mf_json_begin_array(&j, NULL);
	mf_json_end_array(&j);
	mf_json_end_array(&j);
	mf_json_begin_array(&j, "empty");
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}

START_TEST(test_layout)
{
	static const char want[] =
		"{\n"
		"  \"s\": null,\n"
		"  \"o\": {\n"
		"    \"i\": -3,\n"
		"    \"u\": 18446744073709551615,\n"
		"    \"deep\": {\"t\":true,\"a\":[null,false]}\n"
		"  },\n"
		"  \"rows\": [\n"
		"    {\"x\":1,\"y\":\"z\"},\n"
		"    []\n"
		"  ],\n"
		"  \"empty\": []\n"
		"}\n";
	char *got = _written(_write_doc, NULL);

	ck_assert_msg(!strcmp(got, want), "the document:\n%s\nwant:\n%s", got,
		      want);
	free(got);
}
END_TEST

Suite *make_json_out_suite(void)
{
	Suite *s = suite_create("json_out");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_string, 0, G_N_ELEMENTS(strings));
	tcase_add_loop_test(tc, test_number, 0, G_N_ELEMENTS(numbers));
	tcase_add_test(tc, test_layout);
	suite_add_tcase(s, tc);
	return s;
}
