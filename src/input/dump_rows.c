/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_rows: the rows of a '|'-separated dump (dump_rows.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dump_rows.h"

void mf_drow_free(gpointer p)
{
	mf_drow_t *r = p;

	g_strfreev(r->fields);
	g_free(r);
}

/* LINE, a data line, split into a row of NFIELDS fields (one trailing
 * empty field, of a trailing '|', dropped); the fields not stripped. */
mf_drow_t *mf_drow_new(const char *l, guint nfields, int line)
{
	mf_drow_t *r = g_new0(mf_drow_t, 1);

	r->line = line;
	r->fields = g_strsplit(l, "|", -1);
	r->n = g_strv_length(r->fields);
	if (r->n == nfields + 1 && !*r->fields[nfields]) {
		g_free(r->fields[nfields]);
		r->fields[nfields] = NULL;
		r->n = nfields;
	}
	return r;
}

/* mf_errprintf() of "PATH:LINE: " and FMT for row R, saying too that the
 * file ends in the middle of R when it does.  Returns -1. */
int mf_drow_error(const mf_drow_t *r, const char *path, mf_error_t *errp,
		      const char *fmt, ...)
{
	char *where = g_strdup_printf("%s:%d: ", path, r->line);
	va_list ap;

	va_start(ap, fmt);
	mf_verrprintf(errp, where, fmt, ap);
	va_end(ap);
	g_free(where);
	if (r->cut)
		mf_dump_note_cut(errp, "this line");
	return -1;
}

/*
 * Read PATH as '|'-separated rows of as many fields as KIND has titles (one
 * optional trailing '|', as `-p` prints).  Blank lines and lines starting
 * with '#' are skipped, and so is a first line that is KIND's header.  A
 * file with no row, or whose first line is plainly of another kind, is
 * refused.
 */
GPtrArray *mf_drows_read(const char *path, const mf_dump_kind_t *kind,
			     mf_error_t *errp)
{
	guint nfields = g_strv_length((char **)kind->titles);
	bool first = true;
	char *text = NULL;
	char **lines;
	GPtrArray *rows;
	gsize size = 0;
	int cut_line = 0;

	if (!(text = mf_dump_read(path, &size, errp)))
		return NULL;
	rows = g_ptr_array_new_with_free_func(mf_drow_free);
	lines = g_strsplit(text, "\n", -1);
	if (mf_dump_ends_cut(text, size))
		cut_line = (int)g_strv_length(lines);
	g_free(text);
	for (int i = 0; lines[i]; i++) {
		char *l = lines[i];
		size_t len = strlen(l);
		mf_drow_t *r;

		if (len && l[len - 1] == '\r')
			l[--len] = '\0';
		if (!len || l[0] == '#')
			continue;
		if (!g_utf8_validate(l, -1, NULL)) {
			mf_errprintf(errp, "%s:%d: not text", path, i + 1);
			goto fail;
		}
		if (first && mf_dump_is_header(l, kind->titles)) {
			first = false;
			continue;
		}
		if (first && mf_dump_check_kind(l, kind, path, i + 1, errp))
			goto fail;
		first = false;
		r = mf_drow_new(l, nfields, i + 1);
		r->cut = (i + 1 == cut_line);
		g_ptr_array_add(rows, r);
		if (r->n != nfields) {
			mf_drow_error(r, path, errp, "%u field%s where %u were "
				   "expected (`%s`)", r->n, r->n == 1 ? "" :
				   "s", nfields, kind->cmd);
			goto fail;
		}
		for (guint f = 0; f < nfields; f++)
			g_strstrip(r->fields[f]);
	}
	if (!rows->len) {
		mf_errprintf(errp, "%s: %s", path, kind->empty);
		goto fail;
	}
	g_strfreev(lines);
	return rows;
fail:
	g_strfreev(lines);
	g_ptr_array_free(rows, TRUE);
	return NULL;
}

guint mf_drows_columns(const char *path)
{
	char *text = NULL;
	char **lines;
	guint n = 0;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return 0;
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	for (int i = 0; lines[i]; i++) {
		char *l = g_strstrip(lines[i]);
		size_t len = strlen(l);

		if (!len || *l == '#')
			continue;
		n = 1;
		for (const char *c = l; *c; c++)
			n += (*c == '|');
		if (l[len - 1] == '|')
			n--;
		break;
	}
	g_strfreev(lines);
	return n;
}
