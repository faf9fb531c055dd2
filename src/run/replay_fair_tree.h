/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_fair_tree: Fair Tree between a replay's samples (replay.c), on
 * flat arrays: the usage sums in the order mf_tree_sum_usage() adds them,
 * each level's children kept in last tick's order and merge-sorted again
 * (they barely move from tick to tick), the job fair-share factor of
 * every association as mf_replay_job_fs() gives it.  Bit for bit what
 * the core computes; a NaN key (no total order) hands the tick back.
 */
#ifndef MFPRIO_REPLAY_FAIR_TREE_H
#define MFPRIO_REPLAY_FAIR_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "assoc_tree.h"

/* Fair Tree on flat arrays (positions in tree->order). */
typedef struct {
	uint32_t owner;          /* the fs_parent of the level */
	uint32_t first, cnt;     /* its fs_children: kid[first, first + cnt) */
} mf_rft_lvl_t;

enum { FT_ACCOUNT, FT_USER, FT_PARENT_ACCOUNT, FT_PARENT_USER };

typedef struct {
	bool on;
	uint32_t n, users, root;
	uint32_t *sum_p;         /* the accounts, in post-order */
	uint32_t *sum_first, *sum_cnt;  /* their children in add_c */
	uint32_t *add_c;
	uint32_t n_sum, n_add;
	long double *u;          /* usage_raw, summed */
	long double *lfs;        /* level_fs */
	double *sn;              /* shares_norm (constant over a replay) */
	uint8_t *kind;
	uint32_t *orig;          /* place among its siblings (fs_children) */
	uint32_t *lvl;           /* an account's level (UINT32_MAX: none) */
	mf_rft_lvl_t *lvls;
	uint32_t n_lvls;
	uint32_t *kid;           /* each level's children, last tick's order */
	uint32_t *tmp;           /* merge sort scratch */
	double *fs;              /* mf_replay_job_fs() of each, this tick */
	double *of_rank;         /* rank / users, for each rank */
	mf_assoc_t **a;          /* tree->order */
} mf_rft_t;

/* Ready F over the finalized tree T (POS: association -> position in
 * T->order + 1); F->on says whether it applies (Fair Tree).  Returns
 * nothing. */
void mf_rft_init(mf_rft_t *f, mf_tree_t *t, GHashTable *pos);

/* Free what F holds.  Returns nothing. */
void mf_rft_free(mf_rft_t *f);

/* The job fair-share factor of every association (F->fs) of a tick from
 * the usage charged to each association itself, OWN.  Returns false when
 * not done (a NaN): the core must do it. */
bool mf_rft_tick(mf_rft_t *f, const long double *own);

#endif
