/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sprio_table: `mfprio priority`'s rows as `sprio -l` prints them: its
 * columns, widths and justification, or '|'-separated (-P); the rows of a
 * whole run (priority_run.h) or of the streamed table (priority_stream.h,
 * formatted on two threads), and the weights row of -w.
 */
#ifndef MFPRIO_SPRIO_TABLE_H
#define MFPRIO_SPRIO_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "priority_run.h"
#include "priority_stream.h"

/* Print C's rows to OUT (O: -P and -n).  Returns nothing. */
void mf_sprio_print_table(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
			  FILE *out);

/* Print -w's header and weights row of C to OUT.  Returns nothing. */
void mf_sprio_print_weights(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
			    FILE *out);

/* Print ST's rows in ORDER (mf_pstream_order()) to OUT, after the header
 * unless O->noheader.  Returns nothing. */
void mf_sprio_print_lean(const mf_pstream_t *st, const uint64_t *order,
			 const mf_prun_opts_t *o, FILE *out);

#endif
