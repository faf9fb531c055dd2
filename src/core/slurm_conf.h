/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_conf: a reader of slurm.conf text, as the slurm.conf(5) syntax
 * goes: one or more Key=Value pairs per line, keys case-insensitive, '#'
 * starts a comment, a trailing '\' continues the line, values may be
 * quoted with "...".  Lines whose first key is NodeName, PartitionName,
 * NodeSet, DownNodes or FrontendName are "records": all their pairs belong
 * together (mf_conf_record_t).  Other pairs are global settings; a later
 * one overrides an earlier one.  `Include FILE` lines are followed relative
 * to the including file's directory (depth limit 8).
 *
 * Ownership: mf_conf_t owns all strings; borrowed pointers live until
 * mf_conf_free().
 */
#ifndef MFPRIO_SLURM_CONF_H
#define MFPRIO_SLURM_CONF_H

#include <glib.h>

#include "mf_error.h"

typedef struct {
	char *key;               /* as written */
	char *value;             /* unquoted */
	char *file;              /* file it came from */
	int line;                /* 1-based line number */
} mf_conf_pair_t;

typedef struct {
	char *kind;              /* "NodeName", "PartitionName", ... */
	GPtrArray *pairs;        /* mf_conf_pair_t*, the first is the kind */
} mf_conf_record_t;

typedef struct {
	GPtrArray *globals;      /* mf_conf_pair_t*, in file order */
	GPtrArray *records;      /* mf_conf_record_t*, in file order */
} mf_conf_t;

/*
 * Parse the file at PATH.  Returns a new mf_conf_t, or NULL with errp
 * naming the file and line of a malformed line (no '=', empty key,
 * unterminated quote) or a file that cannot be read.
 */
mf_conf_t *mf_conf_load(const char *path, mf_error_t *errp);

/* Parse TEXT as if read from a file named NAME (for tests). */
mf_conf_t *mf_conf_parse(const char *text, const char *name,
			 mf_error_t *errp);

/* Free; NULL is accepted. */
void mf_conf_free(mf_conf_t *conf);

/* The last global pair with KEY (case-insensitive), or NULL. */
const mf_conf_pair_t *mf_conf_get(const mf_conf_t *conf, const char *key);

/*
 * Add the global setting KEY=VALUE after all others, as if written on the
 * conf's last line (so mf_conf_get() finds it first); FILE and LINE say
 * where it comes from, for messages (e.g. "--set", 1).  Copies the strings.
 */
void mf_conf_set(mf_conf_t *conf, const char *key, const char *value,
		 const char *file, int line);

/* The pair with KEY in record REC (case-insensitive), or NULL. */
const mf_conf_pair_t *mf_conf_record_get(const mf_conf_record_t *rec,
					 const char *key);

#endif
