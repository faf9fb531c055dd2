/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_types: what a run of the priority computation holds
 * (priority_run.h): its options, its jobs with their inputs for the core,
 * their rows (one per partition), and the whole context.
 */
#ifndef MFPRIO_PRIORITY_TYPES_H
#define MFPRIO_PRIORITY_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <glib.h>

#include "fairshare.h"
#include "job_line.h"
#include "priority.h"
#include "priority_conf.h"
#include "slurm_conf.h"
#include "slurm_release.h"

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
	const mf_release_pick_t *release;  /* --release (NULL, or its source
					   * NULL: the conf's, settings.h) */
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
	mf_release_pick_t rel;        /* the release imitated, and why */
	char *cluster;               /* the assoc dump's cluster, or NULL */
	bool clamp_warned;
} mf_prun_ctx_t;

#endif
