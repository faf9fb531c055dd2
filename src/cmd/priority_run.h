/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_run: the reading and computing half of `mfprio priority`
 * (priority_cmd.c), shared with its JSON output (priority_json.c) and with
 * `mfprio compare` (compare_cmd.c), so that every one of them reads the
 * same inputs the same way.
 *
 * Ownership: an mf_prun_ctx_t owns everything in it (mf_prun_clear());
 * the option strings are borrowed from the caller.
 */
#ifndef MFPRIO_PRIORITY_RUN_H
#define MFPRIO_PRIORITY_RUN_H

#include <stdbool.h>
#include <time.h>

#include <glib.h>

#include "cmd.h"
#include "fairshare.h"
#include "jobs_input.h"
#include "json_out.h"
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

/* The rows of partition PART, highest priority first, then by job id
 * (the partition's queue); a new array of borrowed rows. */
GPtrArray *mf_prun_part_ranked(const mf_prun_ctx_t *c,
			       const mf_part_t *part);

/* The row of J in its first partition (the priority the job holds). */
const mf_prun_row_t *mf_prun_job_row(const mf_prun_ctx_t *c,
				     const mf_prun_job_t *j);

/*
 * priority_json.c: write the settings C computed with as the member KEY
 * of J (an object: inputs, now, release, flags, fair-share algorithm and
 * dampening, weights, PriorityMaxAge, PriorityDecayHalfLife, ...).
 */
void mf_prun_json_settings(mf_json_t *j, const char *key,
			   const mf_prun_ctx_t *c, const mf_prun_opts_t *o);

/* priority_json.c: `mfprio priority --json` and `--explain JOBID --json`
 * (the shape is in doc/mfprio.1).  Return an exit status. */
int mf_prun_print_json(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		       FILE *out);
int mf_prun_explain_json(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
			 FILE *out);

#endif
