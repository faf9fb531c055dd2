/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * line_reader: a dump's lines read in place (line_reader.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "line_reader.h"

/* A file read in large blocks, its lines handed out in place. */
typedef struct {
	int fd;
	char *buf;               /* CAP bytes, one for a NUL, MF_LINES_SLACK */
	size_t cap, at, end;     /* the unread bytes: [at, end) */
	bool eof;
} _reader_t;

#define MF_LINES_BLOCK ((size_t)1 << 20)

/*
 * The next line at *LINE, *N bytes (NUL-ended in place of its '\n'),
 * *CUT if the
 * file ends without one.  Returns 1, 0 at the end of the file, -1 on a
 * read error (errno set).
 */
static int _next_line(_reader_t *r, char **line, size_t *n, bool *cut)
{
	for (;;) {
		char *s = r->buf + r->at;
		char *nl = r->end > r->at ? memchr(s, '\n', r->end - r->at)
					  : NULL;
		ssize_t got;

		if (nl) {
			*nl = '\0';
			*line = s;
			*n = (size_t)(nl - s);
			*cut = false;
			r->at = (size_t)(nl - r->buf) + 1;
			return 1;
		}
		if (r->eof) {
			if (r->at == r->end)
				return 0;
			r->buf[r->end] = '\0';
			*line = s;
			*n = r->end - r->at;
			*cut = true;
			r->at = r->end;
			return 1;
		}
		/* keep the part of a line read, and read on after it */
		if (r->at) {
			memmove(r->buf, s, r->end - r->at);
			r->end -= r->at;
			r->at = 0;
		}
		if (r->end == r->cap) {
			r->buf = g_realloc(r->buf, 2 * r->cap + 1 + MF_LINES_SLACK);
			memset(r->buf + r->cap + 1 + MF_LINES_SLACK, 0, r->cap);
			r->cap *= 2;
		}
		got = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (!got)
			r->eof = true;
		r->end += (size_t)got;
	}
}

int mf_lines_each(const char *path, const mf_dump_kind_t *kind,
		      mf_line_fn fn, void *arg, mf_error_t *errp)
{
	_reader_t r = { .cap = MF_LINES_BLOCK };
	bool first = true, cut;
	char *l;
	size_t n;
	int rc = 0, got = 0, lineno = 0, lines = 0;

	if ((r.fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return mf_errprintf(errp, "%s: %s", path, g_strerror(errno));
	r.buf = g_malloc0(r.cap + 1 + MF_LINES_SLACK);
	while (!rc && (got = _next_line(&r, &l, &n, &cut)) > 0) {
		const char *s;

		lineno++;
		while (n && (l[n - 1] == '\n' || l[n - 1] == '\r'))
			l[--n] = '\0';
		for (s = l; *s == ' ' || *s == '\t'; s++)
			;
		if (!*s || *s == '#')
			continue;
		if (first && kind->titles &&
		    mf_dump_is_header(l, kind->titles)) {
			first = false;
			continue;
		}
		if (first && (rc = mf_dump_check_kind(l, kind, path, lineno,
						      errp)))
			break;
		first = false;
		lines++;
		if ((rc = fn(l, path, lineno, cut, arg, errp)) == -1 && cut)
			mf_dump_note_cut(errp, "this line");
	}
	if (!rc && got < 0)
		rc = mf_errprintf(errp, "%s: %s", path, g_strerror(errno));
	else if (!rc && !lines)
		rc = mf_errprintf(errp, "%s: %s", path, kind->empty);
	g_free(r.buf);
	close(r.fd);
	return rc;
}

