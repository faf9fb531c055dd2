/* SPDX-License-Identifier: GPL-2.0-or-later */
/* state_files (state_files.h): priority_last_decay_ran's bytes and
 * mfprio_charged_jobs' lines. */
#include <string.h>

#include "state_files.h"
#include "suites.h"

START_TEST(test_decode)
{
	/* 1700000000 = 0x6553f100, big-endian in 8 bytes; then 1 */
	const unsigned char data[16] = { 0, 0, 0, 0, 0x65, 0x53, 0xf1, 0x00,
					 0, 0, 0, 0, 0, 0, 0, 1 };
	unsigned char out[16];
	time_t ran = 7, reset = 7;

	ck_assert_int_eq(mf_state_decode(data, 16, &ran, &reset), 0);
	ck_assert_int_eq((long) ran, 1700000000L);
	ck_assert_int_eq((long) reset, 1L);
	mf_state_encode(1700000000, 1, out);
	ck_assert_int_eq(memcmp(out, data, 16), 0);
	/* short or long: refused, both 0 */
	ck_assert_int_eq(mf_state_decode(data, 15, &ran, &reset), -1);
	ck_assert_int_eq((long) ran, 0L);
	ck_assert_int_eq((long) reset, 0L);
	ck_assert_int_eq(mf_state_decode(data, 17, &ran, &reset), -1);
	ck_assert_int_eq(mf_state_decode(NULL, 16, &ran, &reset), -1);
}
END_TEST

/* LINE read as a charged-jobs line: WANT_ID and WANT_END, or refused when
 * WANT_ID is 0. */
static void _line(const char *line, size_t len, uint32_t want_id,
		  long want_end)
{
	uint32_t id = 99;
	time_t end = 99;
	int rc = mf_charged_line(line, len, &id, &end);

	if (!want_id) {
		ck_assert_msg(rc == -1, "'%s' read", line);
		ck_assert_uint_eq(id, 99);
		return;
	}
	ck_assert_msg(rc == 0, "'%s' refused", line);
	ck_assert_uint_eq(id, want_id);
	ck_assert_int_eq((long) end, want_end);
}

#define LINE(s, id, end) _line(s, strlen(s), id, end)

START_TEST(test_charged_lines)
{
	LINE("12 1700000000\n", 12, 1700000000L);
	LINE("12 1700000000", 12, 1700000000L);
	LINE("12 5 \t\r\n", 12, 5);
	LINE("4294967295 5\n", 4294967295u, 5);
	LINE("9223372036854775807 1\n", 0, 0);   /* id past 32 bits */
	LINE("4294967296 5\n", 0, 0);
	LINE("0 5\n", 0, 0);
	LINE("12 0\n", 0, 0);
	LINE("-1 5\n", 0, 0);
	LINE("12 -5\n", 0, 0);
	LINE("12  5\n", 0, 0);
	LINE(" 12 5\n", 0, 0);
	LINE("12 5x\n", 0, 0);
	LINE("12\n", 0, 0);
	LINE("12 \n", 0, 0);
	LINE("12 9223372036854775808\n", 0, 0);  /* past a 64-bit time */
	LINE("", 0, 0);
	_line("12 5\0 6\n", 8, 0, 0);             /* a NUL inside */
	_line("12 5\n", 4, 12, 5);                 /* LEN, not the NUL */
}
END_TEST

Suite *make_state_files_suite(void)
{
	Suite *s = suite_create("state_files");
	TCase *tc = tcase_create("files");

	tcase_add_test(tc, test_decode);
	tcase_add_test(tc, test_charged_lines);
	suite_add_tcase(s, tc);
	return s;
}
