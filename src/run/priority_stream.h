/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_stream: the run of `mfprio priority`'s plain table over a
 * dump of any size: each job is read, computed and reduced to the
 * figures `sprio -l` prints, then its line and factors are freed; the
 * rows live in one array, their TRES figures in another, and are put in
 * the order printed (sprio_table.h prints them).
 *
 * Ownership: an mf_pstream_t owns its arrays (mf_pstream_clear()) and
 * borrows the run C and its options, which must outlive it.
 */
#ifndef MFPRIO_PRIORITY_STREAM_H
#define MFPRIO_PRIORITY_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <glib.h>

#include "priority_run.h"

/* One row of the table: a job in one of its partitions. */
typedef struct {
	uint32_t job_id;
	bool direct;
	const char *user;            /* interned by jobs_input */
	const mf_part_t *part;
	double sprio;                /* sprio's PRIORITY */
	double w[6];                 /* age, assoc, fs, js, part, qos */
	int64_t site, nice;
} mf_lean_t;

/* Where row I's weighted TRES start in mf_pstream_t.tres: every row has
 * weighted_cnt of them. */
#define MF_TRES_AT(i, weighted_cnt) ((size_t)(i) * (weighted_cnt))

typedef struct {
	mf_prun_ctx_t *c;
	const mf_prun_opts_t *o;
	time_t now;
	GArray *rows;                /* mf_lean_t */
	GArray *tres;                /* double, weighted_cnt per row: the
				      * weighted TRES factors that can be
				      * non-zero */
	uint32_t *weighted;          /* the TRES with a weight, by index */
	uint32_t weighted_cnt;
	mf_prun_bcache_t bc;                /* what the jobs before found */
	double *scratch;             /* 4 x the TRES count: the TRES arrays
				      * of a job's two results (bound) */
} mf_pstream_t;

/*
 * Stream O->jobs into ST's rows, with C's inputs loaded
 * (mf_prun_load_inputs() without the jobs), keeping the rows sprio's -j,
 * -u and -p select.  Returns an exit status (errors reported); clear ST
 * with mf_pstream_clear() either way.
 */
int mf_pstream_run(mf_pstream_t *st, mf_prun_ctx_t *c, const mf_prun_opts_t *o);

/* The order ST's rows are printed in: by job id, or by SORT (sprio's -S,
 * NULL: none).  Returns a new array of row keys, the row's index in the
 * low 32 bits (g_free() it). */
uint64_t *mf_pstream_order(const mf_pstream_t *st, const char *sort);

/* Whether SORT is a list sprio's -S takes of the fields mfprio sorts by.
 * Returns true if it is. */
bool mf_pstream_sort_valid(const char *sort);

/* Free what ST holds; a zeroed one is accepted.  Returns nothing. */
void mf_pstream_clear(mf_pstream_t *st);

#endif
