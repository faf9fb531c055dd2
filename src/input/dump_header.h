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

/*
 * A kind of dump, for the messages about a file that is not one: the
 * command that writes it, its titles (NULL: not a '|' dump) and what is
 * wrong with a file that holds no row of it (NULL: such a file is fine).
 */
typedef struct {
	const char *name;            /* "the association dump" */
	const char *cmd;
	const char *const *titles;
	const char *empty;
} mf_dump_kind_t;

extern const mf_dump_kind_t mf_dump_assoc, mf_dump_assoc_cluster,
	mf_dump_assoc_cluster_part, mf_dump_usage, mf_dump_usage_part,
	mf_dump_qos, mf_dump_assoc_prio, mf_dump_jobs;

/*
 * Whether LINE, the first line of PATH that is not blank nor a comment
 * (at LINENO), read as a dump of KIND, is plainly a line of another
 * kind: a job line, `scontrol show assoc_mgr`, JSON, a slurm.conf line
 * (not for KIND mf_dump_jobs, whose lines are Key=Value too), or the
 * header of another '|' dump.  If so, errp says "PATH:LINENO: a line of
 * X, not of `KIND's command`" and -1 is returned; else 0.
 */
int mf_dump_check_kind(const char *line, const mf_dump_kind_t *kind,
		       const char *path, int lineno, mf_error_t *errp);

/* Whether LINE, a file's first line that is not blank nor a comment, is
 * one of `scontrol show assoc_mgr`: its title, a section title ("...
 * Records") or an association record (ClusterName=... Account=...). */
bool mf_dump_is_amgr(const char *line);

/* Whether TEXT, SIZE bytes, ends in the middle of a line: its last line
 * has no newline, as a dump cut short (the commands end every line). */
bool mf_dump_ends_cut(const char *text, gsize size);

/* Add to the error in ERRP (may be NULL) that the file ends, without a
 * newline, in the middle of WHERE ("this line", "this record"): a dump
 * cut short. */
void mf_dump_note_cut(mf_error_t *errp, const char *where);

#endif
