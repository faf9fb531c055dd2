/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_out: why one job waits (wait_job.h) in sentences that fit an
 * 80-column terminal, or as one JSON object with the same content.
 */
#ifndef MFPRIO_WAIT_OUT_H
#define MFPRIO_WAIT_OUT_H

#include <stdio.h>

#include "wait_job.h"

/* W as text to OUT.  Returns nothing. */
void mf_wait_print_text(FILE *out, const mf_wait_t *w);

/* W as one JSON object to OUT.  Returns nothing. */
void mf_wait_print_json(FILE *out, const mf_wait_t *w);

#endif
