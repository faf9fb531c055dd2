/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain_text: `mfprio priority --explain JOBID` as text: the job, its
 * factors with what each is made of, its sum, its rank in each partition
 * and its place in the scheduler's queue, from priority_explain.h's rows.
 */
#ifndef MFPRIO_EXPLAIN_TEXT_H
#define MFPRIO_EXPLAIN_TEXT_H

#include <stdio.h>

#include "priority_explain.h"
#include "priority_run.h"

/* Print the explanation of the job O->explain names, from run C, to OUT.
 * Returns an exit status (why a job cannot be explained printed). */
int mf_expl_print_text(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		       FILE *out);

#endif
