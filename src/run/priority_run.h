/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_run: the reading and computing half of `mfprio priority`, in
 * priority_run.c, below the command (priority_cmd.c), its renderings
 * (src/render), the input options (input_opts.c) and `mfprio compare`
 * (compare_cmd.c), so that every one of them reads the same inputs the
 * same way; it calls none of them.
 *
 * Ownership: an mf_prun_ctx_t owns everything in it (mf_prun_clear());
 * the option strings are borrowed from the caller.
 */
#ifndef MFPRIO_PRIORITY_RUN_H
#define MFPRIO_PRIORITY_RUN_H

#include <stdbool.h>
#include <time.h>

#include <glib.h>

#include "jobs_input.h"
#include "priority_job.h"
#include "priority_types.h"
#include "snapshot_dir.h"

/*
 * Read every input O names into C (zeroed, or with C->rel set by
 * --release), then compute every listed job's rows at O->now, sorted by job
 * id, a job's partitions in tier order.  Returns MF_EXIT_OK, or an exit
 * status after printing the error (file and line named).  Clear C either
 * way.
 */
int mf_prun_run(mf_prun_ctx_t *c, const mf_prun_opts_t *o);

/*
 * Fill the inputs O lacks from the snapshot directory DIR (opened into
 * *SNAP, which the paths then borrow from: mf_snapdir_clear() it after
 * use), and O->now from its time unless NOW_SET.  Returns MF_EXIT_OK, or
 * an exit status after printing the error.
 */
int mf_prun_from_snapshot(const char *dir, mf_snapdir_t *snap,
			  mf_prun_opts_t *o, bool now_set);

/* Free what C holds; a zeroed one is accepted. */
void mf_prun_clear(mf_prun_ctx_t *c);

/*
 * The job that O->explain names, in *JOB.  Returns MF_EXIT_OK, or an exit
 * status after printing why (not a job id, not in the file, not listed).
 */
int mf_prun_explained(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		      const mf_prun_job_t **job);

/* Free what job J holds (not J).  Returns nothing. */
void mf_prun_job_clear(mf_prun_job_t *j);

/* Read every input O names into C, the jobs file too if WITH_JOBS.
 * Returns an exit status (MF_EXIT_OK to go on; errors reported). */
int mf_prun_load_inputs(mf_prun_ctx_t *c, const mf_prun_opts_t *o,
			bool with_jobs);

/* Whether sprio lists the job of line L at NOW (pending, eligible, not
 * held).  Returns true if it does. */
bool mf_prun_listed(const mf_prun_ctx_t *c, const mf_job_line_t *l,
		    time_t now);

/* sprio's PRIORITY column for R: its own sum of the weighted figures, at
 * least 1, not capped at 32 bits.  Returns it. */
double mf_prun_sprio_sum(const mf_prio_result_t *r);

/* The scheduler's order of rows X and Y: partition PriorityTier (highest
 * first), then priority, then job id.  Returns <0, 0 or >0. */
int mf_prun_queue_cmp(const mf_prun_row_t *x, const mf_prun_row_t *y);

/* Whether J has several partitions (j->job.parts set).  Returns true if
 * it has. */
bool mf_prun_job_parts(const mf_prun_job_t *j);

/* The rows of partition PART, highest priority first, then by job id
 * (the partition's queue); a new array of borrowed rows. */
GPtrArray *mf_prun_part_ranked(const mf_prun_ctx_t *c,
			       const mf_part_t *part);

/* The row of J in its first partition (the priority the job holds). */
const mf_prun_row_t *mf_prun_job_row(const mf_prun_ctx_t *c,
				     const mf_prun_job_t *j);

#endif
