/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * why_out: `mfprio why`'s comparison (why_compare.h) in sentences, or as
 * one JSON object.
 */
#ifndef MFPRIO_WHY_OUT_H
#define MFPRIO_WHY_OUT_H

#include <stdio.h>
#include <time.h>

#include "why_compare.h"

/* Why W's first job runs before its later one at NOW, and what would
 * change the order, as text to OUT.  Returns nothing. */
void mf_why_print_text(FILE *out, const mf_prun_ctx_t *c, const mf_why_t *w,
			time_t now);

/* The same as one JSON object with run C's settings.  Returns nothing. */
void mf_why_print_json(FILE *out, const mf_prun_ctx_t *c,
			const mf_prun_opts_t *o, const mf_why_t *w);

#endif
