/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_rows: the rows of a '|'-separated dump of sacctmgr or sshare
 * (-P -n), each split into its fields, and the errors that name a row.
 */
#ifndef MFPRIO_DUMP_ROWS_H
#define MFPRIO_DUMP_ROWS_H

#include <stdbool.h>

#include <glib.h>

#include "dump_header.h"
#include "mf_error.h"

typedef struct {
	char **fields;
	guint n;
	int line;
	bool cut;                /* the file's last line, without newline */
} mf_drow_t;

/* An account row of the assoc file, kept for the parent checks. */

/* A row of NFIELDS fields from the data line L at LINE (one trailing
 * empty field, of a trailing '|', dropped; the fields not stripped).
 * Returns a new row (mf_drow_free()). */
mf_drow_t *mf_drow_new(const char *l, guint nfields, int line);

/* Free row P (a GDestroyNotify).  Returns nothing. */
void mf_drow_free(gpointer p);

/* mf_errprintf() of "PATH:LINE: " and FMT for row R, saying too that the
 * file ends in the middle of R when it does.  Returns -1. */
int mf_drow_error(const mf_drow_t *r, const char *path, mf_error_t *errp,
		  const char *fmt, ...) G_GNUC_PRINTF(4, 5);

/*
 * Read PATH as '|'-separated rows of as many fields as KIND has titles (one
 * optional trailing '|', as `-p` prints).  Blank lines and lines starting
 * with '#' are skipped, and so is a first line that is KIND's header.  A
 * file with no row, or whose first line is plainly of another kind, is
 * refused.  Returns a new array of mf_drow_t* (g_ptr_array_free(, TRUE)),
 * or NULL with errp set.
 */
GPtrArray *mf_drows_read(const char *path, const mf_dump_kind_t *kind,
			 mf_error_t *errp);

/* The number of '|'-separated columns of PATH's first line that is not
 * blank nor a comment (a trailing '|' not counted).  Returns it; 0 if
 * none. */
guint mf_drows_columns(const char *path);

#endif
