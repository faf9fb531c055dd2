/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_conf: a reader of slurm.conf text, as the slurm.conf(5) syntax
 * goes, read as slurmctld's parser reads it: Key=Value pairs, keys
 * case-insensitive, blanks allowed around '=', '#' starts a comment unless
 * escaped ("\#"), a trailing '\' continues the line, a value is "..." or
 * a run of non-blanks.  Lines whose first key is NodeName, PartitionName,
 * NodeSet, DownNodes or FrontendName are "records": all their pairs belong
 * together (mf_conf_record_t).  Other pairs are global settings; a later
 * one overrides an earlier one.  `Include FILE` lines are followed, a
 * relative FILE taken from the including file's directory, "%c" standing
 * for the ClusterName in lower case (depth limit 8).
 *
 * Where slurmctld would refuse the file but the meaning is plain, the
 * parse goes on and a warning "FILE:LINE: ..." saying so is recorded: a
 * UTF-8 byte-order mark, a key slurmctld does not know, several global
 * settings on one line, an Include that cannot be read (its path is also
 * recorded in `missing`, so a caller that then lacks a needed setting can
 * say where it may have been).
 *
 * Ownership: mf_conf_t owns all strings; borrowed pointers live until
 * mf_conf_free().
 */
#ifndef MFPRIO_SLURM_CONF_H
#define MFPRIO_SLURM_CONF_H

#include <stdarg.h>
#include <stdbool.h>

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
	GPtrArray *warnings;     /* char*, "FILE:LINE: message" */
	GPtrArray *missing;      /* char*, Include paths not read */
} mf_conf_t;

/*
 * Parse the file at PATH.  Returns a new mf_conf_t (its warnings to be
 * shown by the caller), or NULL with errp naming the file and line of a
 * line that cannot mean anything (no '=', empty key, unterminated quote),
 * of Includes nested too deep, or PATH itself not readable.
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

/* Whether KEY is one a what-if may set (--set): a key of slurm.conf
 * starting with "Priority", or FairShareDampeningFactor. */
bool mf_conf_key_settable(const char *key);

/* Add to WARNINGS (char*) PREFIX (may be NULL) followed by FMT's message
 * from AP.  Returns nothing. */
void mf_warning_vadd(GPtrArray *warnings, const char *prefix, const char *fmt,
		     va_list ap) __attribute__((format(printf, 3, 0)));

/* Free a pair made by this module (a GDestroyNotify for arrays of them). */
void mf_conf_pair_free(void *pair);

/*
 * Add ARG, "KEY=VALUE" (blanks around KEY and VALUE dropped), as
 * mf_conf_set() does, FILE and LINE saying where it comes from.  Returns 0,
 * or -1 with errp saying why ARG is refused: not KEY=VALUE, or a KEY
 * mf_conf_key_settable() refuses.
 */
int mf_conf_set_arg(mf_conf_t *conf, const char *arg, const char *file,
		    int line, mf_error_t *errp);

/* The pair with KEY in record REC (case-insensitive), or NULL. */
const mf_conf_pair_t *mf_conf_record_get(const mf_conf_record_t *rec,
					 const char *key);

#endif
