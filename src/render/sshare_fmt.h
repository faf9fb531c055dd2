/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sshare_fmt: print an association tree as `sshare -a -l -P` of a given
 * release prints it, in sshare's tree order, numbers as sshare formats
 * them ("%f", whole RawUsage, "parent", "inf") and empty fields where
 * sshare leaves them empty.
 *
 * The columns of `sshare -l` are the same in every release mfprio knows:
 *   Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|
 *   FairShare|LevelFS|GrpTRESMins|TRESRunMins
 * under Fair Tree, and the same without LevelFS under NO_FAIR_TREE and
 * DEPTH_OBLIVIOUS; with -m a Partition column after User.  Which cells
 * are empty: root's RawShares and NormUsage; FairShare on root and account
 * rows under Fair Tree, and from 25.11 under every algorithm
 * (mf_release_sshare_fs_users_only); a FairShare=parent row's LevelFS;
 * unset values; the two TRES columns where the caller has no figure.
 */
#ifndef MFPRIO_SSHARE_FMT_H
#define MFPRIO_SSHARE_FMT_H

#include <stdbool.h>
#include <stdio.h>

#include "assoc_tree.h"
#include "fairshare.h"
#include "mf_error.h"
#include "release.h"

/* The columns mfprio prints, named as sshare's header names them. */
typedef enum {
	MF_SSHARE_ACCOUNT,
	MF_SSHARE_USER,
	MF_SSHARE_PARTITION,
	MF_SSHARE_RAW_SHARES,
	MF_SSHARE_NORM_SHARES,
	MF_SSHARE_RAW_USAGE,
	MF_SSHARE_NORM_USAGE,
	MF_SSHARE_EFFECTV_USAGE,
	MF_SSHARE_FAIRSHARE,
	MF_SSHARE_LEVEL_FS,
	MF_SSHARE_GRP_TRES_MINS,
	MF_SSHARE_TRES_RUN_MINS,
	MF_SSHARE_NCOLS
} mf_sshare_col_t;

#define MF_SSHARE_MAX_COLS 32

/* A list of columns, in the order printed. */
typedef struct {
	mf_sshare_col_t col[MF_SSHARE_MAX_COLS];
	int n;
} mf_sshare_cols_t;

/* The columns of `sshare -l` under ALGO, with -m if PARTITION. */
void mf_sshare_cols_default(mf_sshare_cols_t *c, mf_fs_algo_t algo,
			    bool partition);

/*
 * The columns of sshare's -o LIST (comma-separated names, any case, each
 * a column's name or the start of only one).  Returns 0, or -1 with ERRP
 * naming the word that is no column mfprio prints, or an empty list.
 */
int mf_sshare_cols_parse(mf_sshare_cols_t *c, const char *list,
			 mf_error_t *errp);

/* How to print. */
typedef struct {
	bool noheader;           /* -n: no header line */
	const mf_sshare_cols_t *cols; /* NULL: mf_sshare_cols_default() */
	bool partition;          /* -m (for the default columns) */
	mf_release_t release;    /* whose sshare (0: the oldest known) */
	/* NULL: every row; else a row is printed when keep(a, keep_arg) */
	bool (*keep)(const mf_assoc_t *a, const void *keep_arg);
	const void *keep_arg;
	/* a TRES column's cell of A (COL MF_SSHARE_GRP_TRES_MINS or
	 * MF_SSHARE_TRES_RUN_MINS), NULL for an empty one; tres NULL: both
	 * columns empty */
	const char *(*tres)(const mf_assoc_t *a, mf_sshare_col_t col,
			    const void *tres_arg);
	const void *tres_arg;
} mf_sshare_opts_t;

/* Whether REL's sshare leaves A's FairShare empty under ALGO: a row that
 * is not a user's, under Fair Tree or from 25.11 under every algorithm. */
bool mf_sshare_fs_empty(const mf_assoc_t *a, mf_fs_algo_t algo,
			mf_release_t rel);

/* Print TREE (fair share computed under ALGO) as O says: the header
 * (unless O->noheader) and one row per association. */
void mf_sshare_print(FILE *out, const mf_tree_t *tree, mf_fs_algo_t algo,
		     const mf_sshare_opts_t *o);

#endif
