/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sacct_input: a period of a cluster's job history, as sacct dumps it:
 *
 *   sacct -a -P -n -X -S START -E END \
 *     -o JobIDRaw,User,Account,Partition,QOS,Submit,Eligible,Start,End,State,AllocTRES,ReqTRES
 *
 * twelve '|'-separated fields a line, as every release from 22.05 to
 * 26.11 prints them (the header line, printed without -n, is skipped).
 * Times as sacct prints them by default, YYYY-MM-DDTHH:MM:SS in local
 * time, or as seconds since the epoch (SLURM_TIME_FORMAT=%s); "Unknown",
 * "None" or empty: not set (a pending job's Start, a running job's End).
 * AllocTRES and ReqTRES as TYPE=COUNT,... (mem=4G, billing=8): the
 * billing a job is charged is AllocTRES's billing=, else its cpu=; the
 * CPUs and nodes of a job's size are ReqTRES's (AllocTRES's when set).
 * JobIDRaw is a whole number (an array task's or a het component's own
 * id).  State is checked to be there, and not read further.
 *
 * Refused, naming the file and line: a line with another number of fields
 * (a last line without newline: "cut short"), a first line of another
 * dump (dump_header.h), a bad job id, time or TRES count, an empty
 * account or user, a start before the submission, an end before the
 * start, a file with no record, a NUL byte.
 *
 * Ownership: an mf_sacct_t owns its jobs and every name;
 * mf_sacct_free().  Names are interned: a job holds indices.
 */
#ifndef MFPRIO_SACCT_INPUT_H
#define MFPRIO_SACCT_INPUT_H

#include <stdint.h>

#include <glib.h>

#include "mf_error.h"

/* The fields, in order, for messages and the documentation. */
#define MF_SACCT_FIELDS \
	"JobIDRaw,User,Account,Partition,QOS,Submit,Eligible,Start,End," \
	"State,AllocTRES,ReqTRES"
#define MF_SACCT_CMD "sacct -a -P -n -X -S START -E END -o " MF_SACCT_FIELDS

/* One job of the history (72 bytes: a history may hold millions). */
typedef struct {
	int64_t submit;          /* 0: unknown */
	int64_t eligible;        /* 0: never eligible in the period */
	int64_t start;           /* 0: never started */
	int64_t end;             /* 0: not ended (still running or pending
				  * at the period's end) */
	double billing;          /* billing TRES (times the QOS's
				  * UsageFactor) */
	uint32_t job_id;
	uint32_t line;           /* its line in the history file */
	uint32_t assoc;          /* index of its association (ASSOC) */
	uint32_t part;           /* the reader's partition index */
	uint32_t qos;            /* the reader's QOS index */
	uint32_t cpus;
	uint32_t nodes;
	uint32_t spare;
} mf_replay_job_t;

typedef struct mf_sacct_itab mf_sacct_itab_t;

typedef struct {
	char *path;
	GArray *jobs;            /* mf_replay_job_t, in file order */
	/* job.assoc indexes these three (one entry per distinct account,
	 * user and partition triple) */
	GPtrArray *acct, *user, *assoc_part;  /* char*, borrowed from names */
	GPtrArray *part;         /* job.part -> partition name ("" none) */
	GPtrArray *qos;          /* job.qos -> QOS name ("" none) */
	uint32_t no_tres;        /* started jobs without AllocTRES (billing
				  * 0) */
	uint32_t first_no_tres;  /* the line of the first of them */

	/* private */
	GStringChunk *names;
	mf_sacct_itab_t *assoc_idx, *part_idx, *qos_idx;
} mf_sacct_t;

/* Read PATH.  Returns the history, or NULL with errp naming PATH and the
 * line that cannot mean anything. */
mf_sacct_t *mf_sacct_load(const char *path, mf_error_t *errp);

/* Free; NULL is accepted. */
void mf_sacct_free(mf_sacct_t *h);

#endif
