/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_job: one job of a run (priority_types.h) built for the core:
 * its partitions in tier order, its QOS and association priorities, its
 * fair-share factor and trackable resources, with what the jobs before
 * found kept in a cache; and the warnings of a run.
 */
#ifndef MFPRIO_PRIORITY_JOB_H
#define MFPRIO_PRIORITY_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <glib.h>

#include "priority_types.h"

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

/* Whether the run under way is quiet (set by mf_prun_quiet()): its
 * warnings are not printed.  Returns it. */
bool mf_prun_is_quiet(void);

/* Make the warnings of the run under way quiet, or not.  Returns
 * nothing. */
void mf_prun_quiet(bool quiet);

/* Set up, and free, the cache BC of one run's mf_prun_build_job(). */
void mf_prun_bcache_init(mf_prun_bcache_t *bc);
void mf_prun_bcache_clear(mf_prun_bcache_t *bc);

/* Fill J's core inputs from its line at NOW (BC: what jobs before found,
 * or NULL).  Returns an exit status, or MF_PRUN_BUILD_SKIP for a job none
 * of whose partitions the conf has (warned about). */
int mf_prun_build_job(mf_prun_ctx_t *c, mf_prun_job_t *j, time_t now,
		      mf_prun_bcache_t *bc);

#endif
