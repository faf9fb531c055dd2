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

#include "slurm_release.h"
#include "fairshare.h"
#include "jobs_input.h"
#include "priority.h"
#include "priority_conf.h"
#include "slurm_conf.h"
#include "snapshot_dir.h"

/* One job, its inputs for the core and its rows (one per partition). */
typedef struct {
	mf_job_line_t *line;
	mf_prio_job_t job;
	const mf_part_t **parts;     /* tier order */
	uint64_t *tres_cnt;
	bool parts_cached;           /* parts is the cache's
				      * (mf_prun_bcache_t), not the job's */
	bool tres_cached;            /* so is tres_cnt */
	const char *fs_note;         /* why its fair-share is what it is */
	mf_prio_result_t base;
} mf_prun_job_t;

/* One row of `sprio -l`: a job in one of its partitions. */
typedef struct {
	mf_prun_job_t *job;
	mf_prio_result_t r;
	double sprio_priority;       /* what sprio's PRIORITY column shows */
} mf_prun_row_t;

typedef struct {
	const char *snapshot;        /* --snapshot DIR, for the settings */
	const char *conf, *jobs, *qos, *assoc, *usage, *assoc_prio;
	const char *explain;
	bool parsable, noheader, json;
	bool quiet;                  /* no warning but those about the sets
				      * (compare's second run over the same
				      * inputs: the first gave them) */
	time_t now;
	const GPtrArray *sets;       /* mf_conf_pair_t*: settings taken as if
				      * written after the conf's last line
				      * (compare's "after"); NULL: none */
	const char *cluster;         /* --cluster: the assoc dump's cluster
				      * (NULL: the conf's ClusterName) */
	/* the plain table only, as sprio's options: -j, -u, -p (NULL:
	 * every one), -S (NULL: by job id), -w */
	char **sel_jobs, **sel_users, **sel_parts;
	const char *sort;
	bool weights;
} mf_prun_opts_t;

typedef struct {
	mf_prio_conf_t *pc;
	mf_prio_config_t cfg;
	mf_fs_config_t fs_cfg;
	GHashTable *qos;             /* name -> priority */
	GHashTable *assoc_prio;      /* "acct\nuser" -> priority */
	mf_tree_t *tree;
	GPtrArray *lines;            /* mf_job_line_t* */
	GPtrArray *jobs;             /* mf_prun_job_t* */
	GPtrArray *rows;             /* mf_prun_row_t* */
	mf_cmd_release_t rel;        /* the release imitated, and why */
	char *cluster;               /* the assoc dump's cluster, or NULL */
	bool clamp_warned;
} mf_prun_ctx_t;

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

/* mf_prun_build_job()'s return for a job left out (warned about) */
#define MF_PRUN_BUILD_SKIP (-1)

/*
 * What mf_prun_build_job() found for the jobs before, by the strings
 * jobs_input interned (one pointer for one text): a partition list's
 * partitions in tier order, a TRES string's counts, an account, user and
 * partition's association.  Only what warned of
 * nothing is kept.  For one run over one conf.
 */
typedef struct {
	GHashTable *parts;           /* list -> its partitions in tier order */
	GHashTable *tres;            /* TRES string -> uint64_t[cnt] */
	/* account, user, first partition -> the job's association: open
	 * addressing on the strings' addresses, inline (one memory access a
	 * lookup, where a million jobs look it up) */
	struct mf_prun_akey *assoc;
	size_t assoc_cap, assoc_used;
	int part_assocs;             /* -1: not looked yet; 0: the tree has
				      * no association of a partition (the
				      * partition is then left out of the
				      * key); 1: it has */
} mf_prun_bcache_t;

/* Print "mfprio: warning: " and FMT's message to stderr, unless the run
 * under way is quiet (mf_prun_opts_t.quiet).  Returns nothing. */
void mf_prun_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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

/* Set up, and free, the cache BC of one run's mf_prun_build_job(). */
void mf_prun_bcache_init(mf_prun_bcache_t *bc);
void mf_prun_bcache_clear(mf_prun_bcache_t *bc);

/* Fill J's core inputs from its line at NOW (BC: what jobs before found,
 * or NULL).  Returns an exit status, or MF_PRUN_BUILD_SKIP for a job none
 * of whose partitions the conf has (warned about). */
int mf_prun_build_job(mf_prun_ctx_t *c, mf_prun_job_t *j, time_t now,
		      mf_prun_bcache_t *bc);

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
