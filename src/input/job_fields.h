/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_fields: the fields of a scontrol job line (job_keys.h) into an
 * mf_job_line_t (job_line.h), each by its parser, in the order they are
 * checked so that the first bad one is the one named.
 */
#ifndef MFPRIO_JOB_FIELDS_H
#define MFPRIO_JOB_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

#include "job_keys.h"
#include "job_line.h"
#include "mf_error.h"

/* The line TEXT (modified) of FILE, LINE split into F (the values'
 * lengths in LEN).  Returns a new record with its JobId and name, or NULL
 * with errp naming FILE:LINE. */
mf_job_line_t *mf_jfields_split(char *text, const char *file, int line,
				char **f, uint32_t *len, mf_error_t *errp);

/* The fields F of line LINE of FILE into JOB (its JobId and name there
 * already).  Returns 0, or -1 with errp naming FILE:LINE and the field. */
int mf_jfields_fill(mf_job_line_t *job, char *const *f, const char *file,
		    int line, mf_error_t *errp);

/* The line TEXT (modified) of FILE, LINE as a new record.  Returns it, or
 * NULL with errp set. */
mf_job_line_t *mf_jfields_parse(char *text, const char *file, int line,
				mf_error_t *errp);

/* Mark in FILLED the F_* that mf_jfields_fill() reads.  Returns
 * nothing. */
void mf_jfields_filled(bool filled[F_N]);

/* Parse one job line TEXT (for tests); FILE and LINE are for messages. */
mf_job_line_t *mf_job_line_parse(const char *text, const char *file,
				 int line, mf_error_t *errp);

/* Whether TEXT names JOB: its JobId ("120"), its name as squeue gives it
 * ("100_3", "100_[4-9%2]"), or a task of a pending array record ("100_7"
 * names the record 100_[4-9%2]). */
bool mf_job_named(const mf_job_line_t *job, const char *text);

#endif
