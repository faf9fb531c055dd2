/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_out: a small streaming writer of JSON (RFC 8259) for mfprio's
 * --json output.  Written here rather than taken from json-glib: the output
 * needs a dozen calls, a fixed number format and two rules of its own (no
 * NaN or infinity, no invalid UTF-8), which are easier to state and keep
 * in 150 lines than through another library's generator; the tests parse
 * the output with an independent parser (Python's json module).
 *
 * The rules:
 *   - strings are escaped: '"' and '\' with a backslash, control
 *     characters (U+0000 to U+001F, and U+007F) as \n, \t, \r, \b, \f or
 *     \u00XX; other UTF-8 passes as is; bytes that are not valid UTF-8 are
 *     replaced by U+FFFD each (the input files are not checked for UTF-8);
 *     a NULL string is written as null;
 *   - numbers: integers in full; doubles in the first of %.15g, %.16g
 *     and %.17g that reads back as the same double (always in the "C"
 *     locale); a double that is NaN or infinite is written as null;
 *   - layout: the members of the top-level value and of the containers
 *     directly inside it are written one per line (two spaces of indent
 *     per level), anything deeper on one line: so each row of a "rows"
 *     array is one line.
 *
 * Every call takes KEY: the member name inside an object, NULL inside an
 * array or at the top.  Calls must nest properly (begin/end pairs); the
 * writer does not check that beyond MF_JSON_MAX_DEPTH.
 */
#ifndef MFPRIO_JSON_OUT_H
#define MFPRIO_JSON_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MF_JSON_MAX_DEPTH 16

typedef struct {
	FILE *out;
	int depth;                        /* containers open */
	bool first[MF_JSON_MAX_DEPTH];    /* nothing written in it yet */
} mf_json_t;

/* Start writing one JSON value to OUT. */
void mf_json_init(mf_json_t *j, FILE *out);

void mf_json_begin_object(mf_json_t *j, const char *key);
void mf_json_end_object(mf_json_t *j);
void mf_json_begin_array(mf_json_t *j, const char *key);
void mf_json_end_array(mf_json_t *j);

/* A string (VALUE NULL: null). */
void mf_json_string(mf_json_t *j, const char *key, const char *value);
void mf_json_int(mf_json_t *j, const char *key, int64_t value);
void mf_json_uint(mf_json_t *j, const char *key, uint64_t value);
/* A double; NaN and infinities are written as null. */
void mf_json_double(mf_json_t *j, const char *key, double value);
void mf_json_bool(mf_json_t *j, const char *key, bool value);
void mf_json_null(mf_json_t *j, const char *key);

/* Write S to OUT as a JSON string literal, quotes included (the rules
 * above; S not NULL). */
void mf_json_write_string(FILE *out, const char *s);

/* End the value with a newline (call after the last end). */
void mf_json_finish(mf_json_t *j);

#endif
