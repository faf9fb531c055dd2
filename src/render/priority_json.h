/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_json: `mfprio priority`'s results (priority_run.h) as JSON.
 */
#ifndef MFPRIO_PRIORITY_JSON_H
#define MFPRIO_PRIORITY_JSON_H

#include <stdio.h>

#include "json_out.h"
#include "priority_run.h"

/*
 * Write the settings C computed with as the member KEY
 * of J (an object: inputs, now, release, flags, fair-share algorithm and
 * dampening, weights, PriorityMaxAge, PriorityDecayHalfLife, ...).
 */
void mf_prun_json_settings(mf_json_t *j, const char *key,
			   const mf_prun_ctx_t *c, const mf_prun_opts_t *o);

/* `mfprio priority --json` and `--explain JOBID --json`
 * (the shape is in doc/mfprio.1).  Return an exit status. */
int mf_prun_print_json(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		       FILE *out);
int mf_prun_explain_json(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
			 FILE *out);

#endif
