/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_header: the title line that `sacctmgr -P` and `sshare -P` print
 * above their rows when run without -n (noheader).  The readers of those
 * dumps skip it when it is the first line, instead of refusing it.
 *
 * A line is the header if it has as many '|'-separated fields as there are
 * titles (one trailing '|' allowed) and each field, spaces around it
 * stripped, is one of its title's spellings, case-insensitively.  Account
 * names, user names and QOS names never look so: sacctmgr lower-cases
 * account and QOS names, and the numeric columns hold titles.
 */
#ifndef MFPRIO_DUMP_HEADER_H
#define MFPRIO_DUMP_HEADER_H

#include <stdbool.h>

#include <glib.h>

#include "mf_error.h"

/*
 * The whole of PATH, as text (NUL-terminated, *SIZE bytes; the caller
 * g_free()s it).  NULL with errp set when it cannot be read, or when it
 * holds a NUL byte (named by line: a binary file given by mistake).
 */
char *mf_dump_read(const char *path, gsize *size, mf_error_t *errp);

/*
 * True if LINE is the header whose columns are TITLES, a NULL-ended array;
 * each title lists its spellings separated by ',' (sacctmgr's titles
 * differ between releases: "ParentName,Par Name").
 */
bool mf_dump_is_header(const char *line, const char *const *titles);

/* The titles of the dumps mfprio reads. */
extern const char *const mf_header_assoc[];      /* Account,User,ParentName,Fairshare */
extern const char *const mf_header_usage[];      /* Account,User,RawUsage */
extern const char *const mf_header_qos[];        /* Name,Priority */
extern const char *const mf_header_assoc_prio[]; /* Account,User,Priority */

#endif
