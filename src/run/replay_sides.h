/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_sides: the two sides of `mfprio replay`, "before" (the
 * snapshot's settings) and "after" (the what-ifs): each side's settings
 * and tree, the history mapped into it, its run of the tick loop
 * (replay.h) on a thread of its own, and the samples of each user
 * association's fair-share and usage that the renderings
 * (replay_out.h) print.
 *
 * Ownership: an mf_rctx_t owns the history and both sides
 * (mf_rside_clear() each, then mf_sacct_free() the history).
 */
#ifndef MFPRIO_REPLAY_SIDES_H
#define MFPRIO_REPLAY_SIDES_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <glib.h>

#include "priority.h"
#include "priority_conf.h"
#include "replay.h"
#include "sacct_input.h"
#include "slurm_conf.h"

/* What every output says of the replay. */
extern const char mf_replay_note[];

/* One side's settings, tree and results. */
typedef struct {
	mf_prio_conf_t *pc;
	mf_prio_config_t cfg;
	mf_replay_conf_t rc;
	mf_tree_t *tree;
	mf_assoc_t **assoc;          /* per history association */
	const mf_part_t **part;      /* per history partition (NULL: none) */
	uint32_t *qos_prio;          /* per history QOS */
	mf_replay_out_t *out;        /* per job */
	long ticks;
	const GPtrArray *users;      /* the context's */
	const mf_sacct_t *h;
	/* samples: every EVERY-th tick and the last */
	uint32_t every;
	time_t from, to;
	int status;                  /* the run's exit status */
	GArray *times;               /* time_t */
	GArray *fs;                  /* float, users x samples */
	GArray *usage;               /* double, users x samples */
	/* _price()'s job and result, set up once: it runs for every job
	 * pending at every tick (hundreds of millions of times in a year) */
	mf_prio_job_t pj;
	mf_prio_result_t pr;
} mf_rside_t;

typedef struct {
	mf_sacct_t *h;
	GPtrArray *users;            /* positions in tree->order of the
				      * user associations (the same in both
				      * trees) */
	mf_rside_t s[2];
} mf_rctx_t;

/* Read the conf at PATH with SETS (may be NULL) into S: its settings,
 * charge at end (AT_END, -1: from AccountingStorageEnforce), warnings
 * (only those of --set when QUIET), *CLUSTER when unset.  Returns an exit
 * status (errors reported). */
int mf_rside_settings(mf_rside_t *s, const char *path, const mf_conf_t *sets,
		      int at_end, bool quiet, char **cluster);

/* --share ARG into the finalized TREE: its raw shares, and the level
 * shares of its siblings redone.  Returns 0, or -1 after printing why. */
int mf_rside_share(mf_tree_t *tree, const char *arg);

/* Ready both sides of C to replay FROM to TO (samples every EVERY ticks,
 * 0: about 500 in all): the user associations, the highest QOS priority
 * of QOS (may be NULL), the maps from the history into each tree.
 * Returns nothing. */
void mf_rctx_prepare(mf_rctx_t *c, GHashTable *qos, time_t from, time_t to,
		     uint32_t every);

/* Replay side ARG (an mf_rside_t; a GThreadFunc: the two sides run side
 * by side, each on its own tree).  Returns NULL; the status is the
 * side's. */
gpointer mf_rside_run(gpointer arg);

/* Free what S holds.  Returns nothing. */
void mf_rside_clear(mf_rside_t *s);

/* User association U of side SIDE.  Returns it. */
const mf_assoc_t *mf_rctx_user(const mf_rctx_t *c, int side, guint u);

/* The sample of side 1 in force at side 0's sample K: the latest at or
 * before its time (the first if none); *CURSOR carries the search on.
 * Returns its index. */
guint mf_rctx_after_sample(const mf_rctx_t *c, guint k, guint *cursor);

/* Side S's fair-share factor and usage of user U (of USERS) at sample K.
 * Return it. */
float mf_rside_fs_at(const mf_rside_t *s, guint users, guint k, guint u);
double mf_rside_usage_at(const mf_rside_t *s, guint users, guint k, guint u);

/* Which user associations the series shows: SHOW's names, else the TOP
 * that move most, else all.  Returns a new array of bools. */
bool *mf_rctx_selected(const mf_rctx_t *c, char **show, int top);

/* The period's default ends from the records of H, in *FROM and *TO.
 * Returns nothing. */
void mf_replay_period(const mf_sacct_t *h, time_t *from, time_t *to);

/* Say on stderr what of H is clipped at the period's ends.  Returns
 * nothing. */
void mf_replay_clip_notes(const mf_sacct_t *h, time_t from, time_t to);

#endif
