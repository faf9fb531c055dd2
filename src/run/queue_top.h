/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * queue_top: the head of each partition's queue, for a page that cannot
 * show 100,000 rows: the N highest rows of every partition in the
 * scheduler's order (mf_prun_part_ranked()), how many were left out, and
 * per partition and account the pending rows counted and the best rank.
 * Counting and choosing only: every figure is a row of mf_prun_run().
 *
 * Ownership: an mf_qtop_t borrows the rows of the context it was built
 * from (keep that context until mf_qtop_clear()).
 */
#ifndef MFPRIO_QUEUE_TOP_H
#define MFPRIO_QUEUE_TOP_H

#include <glib.h>

#include "priority_types.h"

/* One account's rows in one partition. */
typedef struct {
	const char *account;          /* borrowed from a row */
	guint rows;                   /* pending rows of the account */
	guint best_rank;              /* 1: the head of the queue */
} mf_qtop_acct_t;

/* One partition's queue. */
typedef struct {
	const mf_part_t *part;
	GPtrArray *top;               /* mf_prun_row_t*, rank order, at most N */
	guint rows;                   /* every pending row of the partition */
	GArray *accounts;             /* mf_qtop_acct_t, by best rank */
} mf_qtop_part_t;

typedef struct {
	guint top_n;                  /* N (0: every row) */
	GArray *parts;                /* mf_qtop_part_t, conf order; only the
				       * partitions with a pending row */
	GPtrArray *shown;             /* every row of a top, job id order */
} mf_qtop_t;

/* Build *Q from C's rows (mf_prun_run() done), keeping TOP_N rows of
 * each partition (0: all).  Returns nothing; clear *Q after use. */
void mf_qtop_build(const mf_prun_ctx_t *c, guint top_n, mf_qtop_t *q);

/* Free what *Q holds; a zeroed one is accepted. */
void mf_qtop_clear(mf_qtop_t *q);

#endif
