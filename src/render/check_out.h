/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_out: `mfprio check`'s findings (check_findings.h) as text, each
 * finding and its fix on two lines and a count last, or as one JSON object
 * with the run's settings.
 */
#ifndef MFPRIO_CHECK_OUT_H
#define MFPRIO_CHECK_OUT_H

#include <stdio.h>

#include "check_findings.h"

/* FOUND (of run C) as text to OUT.  Returns nothing. */
void mf_check_print_text(FILE *out, const mf_prun_ctx_t *c,
			 const GArray *found);

/* The same as one JSON object with run C's settings (options O). */
void mf_check_print_json(FILE *out, const mf_prun_ctx_t *c,
			 const mf_prun_opts_t *o, const GArray *found);

#endif
