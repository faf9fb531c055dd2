/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_moves: what `mfprio compare` finds between two runs over the
 * same inputs (priority_run.h), "before" and "after": each job's rank and
 * priority on each side, each user's (user in an account) best and mean
 * rank and fair-share factor, ordered largest move first; rendered by
 * compare_out.h.
 */
#ifndef MFPRIO_COMPARE_MOVES_H
#define MFPRIO_COMPARE_MOVES_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "priority_run.h"

/* Where a job stands on one side. */
typedef struct {
	bool listed;
	uint32_t rank;           /* 1 is first */
	uint32_t priority;
	double fs;               /* its fair-share factor */
} mf_cmp_side_t;

typedef struct {
	uint32_t job_id;
	const char *user, *account, *partition;   /* borrowed */
	mf_cmp_side_t s[2];            /* before, after */
} mf_cmp_job_t;

/* One user in one account over its listed jobs, on each side. */
typedef struct {
	const char *user, *account;
	uint32_t jobs;
	uint32_t n[2];           /* its jobs listed on each side */
	uint32_t best[2];        /* best rank (0: none listed) */
	double rank_sum[2];
	double fs[2];            /* NaN: none listed */
} mf_cmp_user_t;

/* Side SIDE (0 before, 1 after) of run C into the jobs: each job of C
 * found in BY_ID (job id -> mf_cmp_job_t), or added to it and to ALL.
 * Returns nothing. */
void mf_cmp_side(const mf_prun_ctx_t *c, int side, GHashTable *by_id,
		 GPtrArray *all);

/* How far job E moved in rank, and its priority's change, after minus
 * before (0 when not listed on both sides).  Return it. */
int64_t mf_cmp_rank_move(const mf_cmp_job_t *e);
int64_t mf_cmp_prio_change(const mf_cmp_job_t *e);

/* The order of the jobs: largest move first (a GCompareFunc over
 * mf_cmp_job_t**).  Returns <0, 0 or >0. */
gint mf_cmp_by_move(gconstpointer a, gconstpointer b);

/* The users of JOBS, largest move first.  Returns a new array of
 * mf_cmp_user_t* (g_ptr_array_unref frees them). */
GPtrArray *mf_cmp_users(const GPtrArray *jobs);

/* User U's best and mean rank's move, after minus before.  Return it. */
double mf_cmp_user_best_move(const mf_cmp_user_t *u);
double mf_cmp_user_mean_move(const mf_cmp_user_t *u);

#endif
