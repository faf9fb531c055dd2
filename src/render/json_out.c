/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "json_out.h"

/* The depth up to which members are written one per line. */
#define _LINE_DEPTH 2

static void _member(mf_json_t *j, const char *key);

void mf_json_init(mf_json_t *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

void mf_json_write_string(FILE *out, const char *s)
{
	const char *p = s, *end = s + strlen(s);

	fputc('"', out);
	while (p < end) {
		gunichar c = g_utf8_get_char_validated(p, end - p);
		unsigned char b = (unsigned char)*p;

		if (c == (gunichar)-1 || c == (gunichar)-2) {
			fputs("\xef\xbf\xbd", out);     /* U+FFFD */
			p++;
			continue;
		}
		if (b >= 0x80) {                        /* valid multibyte */
			const char *next = g_utf8_next_char(p);

			fwrite(p, 1, (size_t)(next - p), out);
			p = next;
			continue;
		}
		switch (b) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		default:
			if (b < 0x20 || b == 0x7f)
				fprintf(out, "\\u%04x", b);
			else
				fputc(b, out);
		}
		p++;
	}
	fputc('"', out);
}

/* The separator, line break and key before a value. */
static void _member(mf_json_t *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth - 1])
			fputc(',', j->out);
		j->first[j->depth - 1] = false;
		if (j->depth <= _LINE_DEPTH)
			fprintf(j->out, "\n%*s", 2 * j->depth, "");
	}
	if (key) {
		mf_json_write_string(j->out, key);
		fputs(j->depth <= _LINE_DEPTH ? ": " : ":", j->out);
	}
}

static void _begin(mf_json_t *j, const char *key, char open)
{
	_member(j, key);
	fputc(open, j->out);
	if (j->depth < MF_JSON_MAX_DEPTH)
		j->first[j->depth] = true;
	j->depth++;
}

static void _end(mf_json_t *j, char close)
{
	bool empty = j->depth <= MF_JSON_MAX_DEPTH && j->first[j->depth - 1];

	j->depth--;
	if (!empty && j->depth < _LINE_DEPTH)
		fprintf(j->out, "\n%*s", 2 * j->depth, "");
	fputc(close, j->out);
}

void mf_json_begin_object(mf_json_t *j, const char *key)
{
	_begin(j, key, '{');
}

void mf_json_end_object(mf_json_t *j)
{
	_end(j, '}');
}

void mf_json_begin_array(mf_json_t *j, const char *key)
{
	_begin(j, key, '[');
}

void mf_json_end_array(mf_json_t *j)
{
	_end(j, ']');
}

void mf_json_string(mf_json_t *j, const char *key, const char *value)
{
	_member(j, key);
	if (value)
		mf_json_write_string(j->out, value);
	else
		fputs("null", j->out);
}

void mf_json_int(mf_json_t *j, const char *key, int64_t value)
{
	_member(j, key);
	fprintf(j->out, "%" G_GINT64_FORMAT, (gint64)value);
}

void mf_json_uint(mf_json_t *j, const char *key, uint64_t value)
{
	_member(j, key);
	fprintf(j->out, "%" G_GUINT64_FORMAT, (guint64)value);
}

void mf_json_double(mf_json_t *j, const char *key, double value)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	_member(j, key);
	if (!isfinite(value)) {
		fputs("null", j->out);
		return;
	}
	/* the fewest digits that read back as VALUE (17 always do) */
	g_ascii_formatd(buf, sizeof(buf), "%.15g", value);
	if (g_ascii_strtod(buf, NULL) != value)
		g_ascii_formatd(buf, sizeof(buf), "%.16g", value);
	if (g_ascii_strtod(buf, NULL) != value)
		g_ascii_formatd(buf, sizeof(buf), "%.17g", value);
	fputs(buf, j->out);
}

void mf_json_bool(mf_json_t *j, const char *key, bool value)
{
	_member(j, key);
	fputs(value ? "true" : "false", j->out);
}

void mf_json_null(mf_json_t *j, const char *key)
{
	_member(j, key);
	fputs("null", j->out);
}

void mf_json_finish(mf_json_t *j)
{
	fputc('\n', j->out);
}
