/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs_history: each account's fair-share figures over time, read from a
 * directory of snapshots (`mfprio report --history DIR`): DIR's
 * subdirectories, each one `mfprio snapshot` wrote (cron: one an hour,
 * say), each read through the readers every command uses
 * (snapshot_dir.h, settings.h, snapshot.h) and computed as `mfprio
 * fairshare --snapshot SUB` would compute it, with the same what-ifs,
 * --release and --cluster as the page's own snapshot.
 *
 * What is read:
 *   - only DIR's subdirectories (names not starting with '.'); plain files
 *     (a cron log) are ignored;
 *   - a subdirectory that is no snapshot (no time file: one being taken,
 *     or one that failed), or whose time, settings, assoc or usage dump
 *     cannot be read, or that has no usage dump (sshare's or assoc_mgr's:
 *     without it every usage would read 0), is skipped: its name and the
 *     reason go to H->skipped, and the others are read;
 *   - at most MF_FSHIST_MAX_POINTS snapshots: of more, that many spread
 *     evenly over the time-ordered list, the first and the last always
 *     among them (the others are not read; H->n_found counts them all).
 *
 * The figures, per snapshot, of every account but root (users are not
 * kept: a page of 5,000 users times 200 snapshots would be tens of MB):
 * normalized shares and effective usage (sshare's NormShares and
 * EffectvUsage, whose difference is the gap rank_gap.h ranks by), raw
 * usage, LevelFS (Fair Tree) and the fair-share factor where sshare
 * prints one for an account (classic before 25.11: sshare_fmt.c's rule).
 * A figure the account does not have in a snapshot (not there yet, or
 * gone; LevelFS of no usage, which sshare prints as inf) is NAN.
 *
 * Order: the snapshots by time (then name); the accounts in rank_gap.h's
 * order of the tree IN->now (the page's own snapshot: the ranking its
 * first view shows), then those no longer in it, by name.
 *
 * Ownership: an mf_fshist_t owns everything in it (mf_fshist_clear()).
 */
#ifndef MFPRIO_FS_HISTORY_H
#define MFPRIO_FS_HISTORY_H

#include <stdbool.h>
#include <time.h>

#include <glib.h>

#include "assoc_tree.h"
#include "fairshare.h"
#include "mf_error.h"
#include "slurm_release.h"

#define MF_FSHIST_MAX_POINTS 200

/* One snapshot read. */
typedef struct {
	char *name;                  /* its name in DIR */
	time_t taken;                /* its time file */
	mf_fs_algo_t algo;           /* the algorithm its conf set */
} mf_fshist_snap_t;

/* One snapshot left out, and why. */
typedef struct {
	char *name;
	char *why;                   /* the reader's error: file and line */
} mf_fshist_skip_t;

/* One account's figures, one per snapshot read (H->snaps' order). */
typedef struct {
	char *acct;
	char *parent;                /* in the last snapshot it is in */
	double *shares;              /* NormShares */
	double *usage;               /* EffectvUsage */
	double *raw;                 /* RawUsage */
	double *level_fs;            /* LevelFS */
	double *fs;                  /* FairShare */
} mf_fshist_acct_t;

typedef struct {
	char *dir;
	guint n_found;               /* snapshots found (time files read) */
	GArray *snaps;               /* mf_fshist_snap_t, time order */
	GArray *skipped;             /* mf_fshist_skip_t, name order */
	GPtrArray *accts;            /* mf_fshist_acct_t*, rank order */
} mf_fshist_t;

/* What each snapshot is read with (borrowed; each may be NULL). */
typedef struct {
	const GPtrArray *sets;       /* the what-ifs (mf_conf_pair_t*) */
	const mf_release_pick_t *release;   /* --release */
	const char *cluster;         /* --cluster */
	const mf_tree_t *now;        /* the page's own tree: the order */
} mf_fshist_in_t;

/*
 * Read DIR into H (zeroed).  Returns 0 (H->skipped may hold snapshots
 * left out), or -1 with ERRP naming DIR: it cannot be read as a
 * directory, holds no subdirectory, or none of them could be read (the
 * first reason given).  Clear H either way.
 */
int mf_fshist_load(mf_fshist_t *h, const char *dir,
		   const mf_fshist_in_t *in, mf_error_t *errp);

void mf_fshist_clear(mf_fshist_t *h);

/* Which of N points in order to keep, at most MAX (at least 2): a new
 * array of N flags (g_free() it), all set when N <= MAX, else MAX of them
 * spread evenly by position (the nearest to each k (N - 1) / (MAX - 1)),
 * the first and the last among them.  Returns it. */
bool *mf_fshist_pick(guint n, guint max);

#endif
