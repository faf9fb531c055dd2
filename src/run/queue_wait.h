/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * queue_wait: how long each account's pending jobs have waited, for the
 * page's summary ("the accounts whose jobs wait longest").  A job's wait
 * is NOW less its eligible time (its submit time when it has none), 0
 * when that is still to come; each job counts once, whatever its number
 * of partitions.  Per account: the jobs, the median wait (the lower
 * middle of the sorted waits) and the longest; the accounts ordered by
 * median wait, longest first (then by longest wait, then by name).
 * Counting only: the times are the jobs' own.
 *
 * Ownership: the account names are borrowed from the context's job
 * lines (keep the context until mf_qwait_free()).
 */
#ifndef MFPRIO_QUEUE_WAIT_H
#define MFPRIO_QUEUE_WAIT_H

#include <time.h>

#include <glib.h>

#include "priority_types.h"

typedef struct {
	const char *account;          /* borrowed */
	guint jobs;                   /* pending jobs of the account */
	gint64 median;                /* seconds */
	gint64 longest;               /* seconds */
} mf_qwait_acct_t;

/* The accounts of C's rows (mf_prun_run() done) at NOW, as said above:
 * a GArray of mf_qwait_acct_t, to free with mf_qwait_free(). */
GArray *mf_qwait_build(const mf_prun_ctx_t *c, time_t now);

void mf_qwait_free(GArray *w);

#endif
