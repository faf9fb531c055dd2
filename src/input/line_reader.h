/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * line_reader: the lines of a dump, read in one pass in blocks of a
 * megabyte and handed out where they were read.
 */
#ifndef MFPRIO_LINE_READER_H
#define MFPRIO_LINE_READER_H

#include <stdbool.h>

#include "dump_header.h"
#include "mf_error.h"

/* The bytes after the end of every line handed out that may be read (as
 * zeros): a reader of 8 bytes at a time may read past a line's end. */
#define MF_LINES_SLACK 16

/* Read PATH's lines; calls LINE_FN for each non-blank, non-comment line
 * (its text may be modified; CUT: the file ends in the middle of it) but a
 * first one that is the header of KIND.  LINE_FN returns 0, -1 with errp
 * set, or another value to stop (errp untouched).  A file with no such
 * line, or whose first is plainly of another kind, is refused.  One pass,
 * read in blocks of a megabyte, the lines taken where they were read. */
typedef int (*mf_line_fn)(char *text, const char *path, int lineno, bool cut,
			void *arg, mf_error_t *errp);
int mf_lines_each(const char *path, const mf_dump_kind_t *kind,
		  mf_line_fn fn, void *arg, mf_error_t *errp);

#endif
