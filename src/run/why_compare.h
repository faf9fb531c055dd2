/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * why_compare: why one pending job runs before another (`mfprio why`):
 * the rows compared (the common partition of highest tier), which job
 * the scheduler takes first (tier, priority, then job id), the terms of
 * the sum where they differ, and what would change the order (age
 * alone, or the later job's fair-share factor); rendered by why_out.h.
 */
#ifndef MFPRIO_WHY_COMPARE_H
#define MFPRIO_WHY_COMPARE_H

#include <stdbool.h>

#include <glib.h>

#include "priority_run.h"

/* One term of the sum, for both jobs. */
typedef struct {
	char *name;
	double a, b;             /* factors (NAN: none, e.g. site, nice) */
	double wa, wb;           /* weighted, as added to the sum */
} mf_why_term_t;

/* What the comparison found. */
typedef struct {
	const mf_prun_job_t *first, *later;
	const mf_prun_row_t *rf, *rl;   /* their rows */
	bool by_tier, tie;
	double gap;                     /* first's sum - later's, >= 0 */
	/* age: the later job reaches the first one's sum after
	 * age_seconds (age_can), or cannot before both stop aging */
	bool age_can;
	double age_seconds, age_max_gain;
	/* fair-share: the later job's factor needed (fs_can: at most 1) */
	bool fs_can;
	double fs_needed;
	const mf_assoc_t *later_assoc;
	double ue_needed;               /* classic: effective usage needed */
} mf_why_t;

/* The terms where the two rows A and B differ, largest difference first.
 * Returns a new array of mf_why_term_t*. */
GPtrArray *mf_why_terms(const mf_prun_ctx_t *c, const mf_prio_result_t *a,
			 const mf_prio_result_t *b);

/* The rows of jobs A and B to compare, in *RA and *RB: in the common
 * partition of highest tier, else each job's first.  Returns nothing. */
void mf_why_pick_rows(const mf_prun_ctx_t *c, const mf_prun_job_t *a,
		       const mf_prun_job_t *b, const mf_prun_row_t **ra,
		       const mf_prun_row_t **rb);

/* Which of A and B (rows RA and RB) the scheduler takes first, into W.
 * Returns nothing. */
void mf_why_order(const mf_prun_job_t *a, const mf_prun_job_t *b,
		  const mf_prun_row_t *ra, const mf_prun_row_t *rb,
		  mf_why_t *w);

/* What would change W's order under run C's settings.  Returns
 * nothing. */
void mf_why_analyse(const mf_prun_ctx_t *c, mf_why_t *w);

#endif
