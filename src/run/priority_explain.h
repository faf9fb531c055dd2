/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_explain: the explanation of one job's priority (`mfprio
 * priority --explain JOBID`) as rows, computed once from a run
 * (priority_run.h) and rendered as text (explain_text.c) and as JSON
 * (priority_json.c): every factor with its value, weight and weighted
 * term; the job's rank in each of its partitions with the jobs just above
 * and below it and the terms by which the higher of two is ahead; its
 * place in the scheduler's one queue.
 *
 * Ownership: an mf_expl_t borrows the run's jobs and rows (keep the
 * mf_prun_ctx_t until mf_expl_clear()) and owns its arrays.
 */
#ifndef MFPRIO_PRIORITY_EXPLAIN_H
#define MFPRIO_PRIORITY_EXPLAIN_H

#include <stdint.h>

#include <glib.h>

#include "priority_run.h"

/* What a factor row is of. */
typedef enum {
	MF_EXPL_AGE, MF_EXPL_ASSOC, MF_EXPL_FS, MF_EXPL_JS, MF_EXPL_PART,
	MF_EXPL_QOS, MF_EXPL_TRES,
} mf_expl_kind_t;

/* One factor of the job: a row of the explanation's table. */
typedef struct {
	mf_expl_kind_t kind;
	uint32_t tres;               /* MF_EXPL_TRES: the TRES's index */
	char name[64];               /* "age", ..., "tres:NAME" */
	double value, weight, weighted;
} mf_expl_factor_t;

/* The weighted terms two rows are compared by: age, assoc, fairshare,
 * jobsize, partition, qos, tres, site and nice. */
#define MF_EXPL_TERMS 9

/* A job next to the explained one in a partition's queue. */
typedef struct {
	const mf_prun_row_t *row;    /* NULL: none */
	int64_t difference;          /* its priority minus the job's */
	int n_by;                    /* terms by which the higher of the two
				      * is ahead, largest first (0: equal
				      * sums, the job id decides) */
	struct {
		const char *factor;
		double by;
	} by[MF_EXPL_TERMS];
} mf_expl_neighbour_t;

/* The job's rank in one of its partitions. */
typedef struct {
	const mf_part_t *part;
	const mf_prun_row_t *row;    /* the job's row there; NULL: none */
	uint32_t rank;               /* 1 is first */
	uint32_t ranked;             /* rows in the partition's queue */
	mf_expl_neighbour_t above, below;
} mf_expl_rank_t;

typedef struct {
	const mf_prun_job_t *job;
	GArray *factors;             /* mf_expl_factor_t: age, assoc,
				      * fairshare, jobsize, partition, qos,
				      * then each TRES that counts */
	GArray *ranks;               /* mf_expl_rank_t: the job's partitions
				      * in tier order (the first is its
				      * own) */
	uint32_t queue_pos;          /* in the scheduler's queue: tier first,
				      * then priority (1 is first) */
	uint32_t queue_rows;
} mf_expl_t;

/*
 * The explanation of the job O->explain names, from run C, into E.
 * Returns MF_EXIT_OK, or an exit status after printing why the job cannot
 * be explained (mf_prun_explained()); clear E with mf_expl_clear() either
 * way.
 */
int mf_expl_build(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		  mf_expl_t *e);

/* Free what E holds; a zeroed one is accepted.  Returns nothing. */
void mf_expl_clear(mf_expl_t *e);

#endif
