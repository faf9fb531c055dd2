/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_out: `mfprio compare`'s moves (compare_moves.h) as text tables
 * (or '|'-separated with -P) and as JSON with both sides' settings.
 */
#ifndef MFPRIO_COMPARE_OUT_H
#define MFPRIO_COMPARE_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "compare_moves.h"

/* The JOBS and USERS that moved (MOVED jobs in rank, CHANGED in
 * priority) as text to OUT (O: -P and -n).  Returns nothing. */
void mf_cmp_print_text(FILE *out, const mf_prun_opts_t *o,
		       const GPtrArray *jobs, const GPtrArray *users,
		       uint32_t moved, uint32_t changed);

/* The same as one JSON object with the settings of both runs C, O.
 * Returns nothing. */
void mf_cmp_print_json(FILE *out, const mf_prun_ctx_t c[2],
		       const mf_prun_opts_t o[2], const GPtrArray *jobs,
		       const GPtrArray *users, uint32_t moved,
		       uint32_t changed);

#endif
