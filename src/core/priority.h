/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority: a pending job's priority, as the multifactor plugin of Slurm
 * 22.05 computes it.
 *
 *   Job_priority = site_factor
 *                + PriorityWeightAge       * age_factor
 *                + PriorityWeightAssoc     * assoc_factor
 *                + PriorityWeightFairshare * fair-share_factor
 *                + PriorityWeightJobSize   * job_size_factor
 *                + PriorityWeightPartition * partition_factor
 *                + PriorityWeightQOS       * QOS_factor
 *                + SUM(TRES_weight_<type> * TRES_factor_<type>)
 *                - nice
 *
 * computed in double, then: below 1 becomes 1 (0 is reserved for held
 * jobs), above 2^32-1 becomes 2^32-1 (`clamped` is set so that the caller
 * can warn), a NaN term counts as 0.  A job eligible in several partitions
 * gets one priority per partition: the same sum with that partition's
 * partition factor and TRES factors.
 *
 * Everything here is a pure function over the plain structs below: no
 * Slurm header, no global state, no logging.  The plugin fills the structs
 * from slurmctld's records; `mfprio priority` fills them from slurm.conf
 * and `scontrol show job` text.  Each factor has its own module (age_factor,
 * job_size_factor, part_factor, qos_factor, assoc_factor, tres_factor,
 * job_fs_factor, billing); this one combines them.
 *
 * Ownership: the config, partitions and jobs are the caller's and are only
 * read.  A result owns its two TRES arrays: mf_prio_result_init() before
 * first use, mf_prio_result_clear() when done.
 */
#ifndef MFPRIO_PRIORITY_H
#define MFPRIO_PRIORITY_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "priority_flags.h"
#include "release.h"
#include "tres.h"

/* Slurm's INFINITE and NO_VAL for 32-bit values (time limits, minutes). */
#define MF_INFINITE 0xffffffffU
#define MF_NO_VAL 0xfffffffeU

/* The largest priority; 0 is "held". */
#define MF_PRIORITY_MAX 0xffffffffU

/* What the plugin reads from the configuration, and the cluster's size. */
typedef struct {
	uint32_t weight_age;     /* PriorityWeightAge */
	uint32_t weight_assoc;   /* PriorityWeightAssoc */
	uint32_t weight_fs;      /* PriorityWeightFairshare */
	uint32_t weight_js;      /* PriorityWeightJobSize */
	uint32_t weight_part;    /* PriorityWeightPartition */
	uint32_t weight_qos;     /* PriorityWeightQOS */
	const mf_tres_set_t *tres;  /* the cluster's TRES (may be NULL if
				     * weight_tres is NULL) */
	const double *weight_tres;  /* PriorityWeightTRES, tres->cnt entries
				     * (mf_tres_weights_parse), or NULL: no
				     * TRES term at all */
	uint32_t max_age;        /* PriorityMaxAge, seconds */
	bool favor_small;        /* PriorityFavorSmall */
	uint32_t flags;          /* PriorityFlags, MF_FLAG_* */

	uint32_t cluster_cpus;   /* sum of the nodes' CPUs */
	uint32_t node_count;     /* number of nodes */
	uint32_t part_max_priority;  /* highest PriorityJobFactor of all
				      * partitions, at least 1 */
	uint32_t qos_max_priority;   /* highest QOS priority (0: none) */
	uint32_t assoc_max_priority; /* highest association priority */
	mf_release_t release;    /* the Slurm release imitated (release.h;
				  * 0: MF_RELEASE_DEFAULT) */
} mf_prio_config_t;

/* A partition as far as priority goes. */
typedef struct {
	const char *name;
	uint16_t priority_job_factor;  /* PriorityJobFactor (default 1) */
	uint16_t priority_tier;        /* PriorityTier (default 1) */
	uint32_t max_time;             /* MaxTime, minutes, or MF_INFINITE */
	const uint64_t *tres_cnt;      /* the partition's TRES totals, by the
					* config's TRES set (node TRES summed
					* over its nodes, global TRES of the
					* cluster, billing weighted), or NULL */
	const double *billing_weights; /* TRESBillingWeights, or NULL */
} mf_part_t;

/* A job as far as priority goes.  Fields are grouped by size so that the
 * struct has no holes (112 bytes): a caller may keep one per pending job. */
typedef struct {
	uint32_t job_id;
	uint32_t priority;       /* its current priority (0: held); only
				  * read with direct_prio */
	uint32_t min_nodes;      /* nodes requested (at least) */
	uint32_t cpu_cnt;        /* CPUs: Slurm's total_cpus if set, else
				  * max_cpus if set, else min_cpus */
	uint32_t time_limit;     /* minutes; MF_NO_VAL: the partition's */
	uint32_t part_cnt;       /* entries of parts */
	uint32_t qos_priority;   /* the QOS's Priority */
	uint32_t assoc_priority; /* the association's Priority */

	time_t submit_time;
	time_t begin_time;       /* eligible time (0: not eligible yet) */
	time_t accrue_time;      /* when it began to accrue age (0: it does
				  * not, e.g. waiting on a dependency or
				  * beyond a limit); see mf_job_accrue_time */

	const mf_part_t *part;   /* the partition its factors use:
				  * slurmctld's part_ptr (for a pending
				  * multi-partition job, the last one its
				  * scheduler tried); NULL: none */
	const mf_part_t *const *parts; /* all its partitions in PriorityTier
					* order (mf_parts_sort_by_tier), or
					* NULL for a single-partition job */
	double fs_factor;        /* the fair-share factor, 0..1
				  * (mf_job_fs_factor); NAN counts as 0 */
	int64_t nice;            /* Nice, as scontrol shows it (-10000 is
				  * higher priority) */
	int64_t site_factor;     /* SiteFactor, as scontrol shows it */
	const uint64_t *tres_cnt;  /* the job's TRES (allocated, else
				    * requested), by the config's TRES set,
				    * or NULL */

	bool direct_prio;        /* priority set by an administrator: a
				  * non-zero one is kept as is */
	bool has_qos;            /* qos_priority is meaningful */
	bool has_assoc;          /* assoc_priority is meaningful */
} mf_prio_job_t;

/* The factors of one job in one partition, and their sum. */
typedef struct {
	/* factors: 0..1, or the raw value under NO_NORMAL_* */
	double age;
	double assoc;
	double fs;
	double js;
	double part;
	double qos;
	double *tres;            /* tres_cnt factors (owned unless
				  * borrowed) */
	/* weighted: factor * weight */
	double w_age;
	double w_assoc;
	double w_fs;
	double w_js;
	double w_part;
	double w_qos;
	double *w_tres;          /* tres_cnt weighted factors (likewise) */
	double w_tres_sum;
	int64_t site;            /* site factor, added */
	int64_t nice;            /* nice, subtracted */
	uint32_t tres_cnt;

	const mf_part_t *partition;  /* the partition of these figures */
	double sum;              /* the weighted sum (never NaN) */
	uint32_t priority;       /* sum as Slurm stores it */
	bool clamped;            /* sum was above MF_PRIORITY_MAX */
	bool direct;             /* an administrator's priority, as is */
	bool borrowed;           /* tres/w_tres are the caller's buffer */
} mf_prio_result_t;

/* Prepare R for TRES_CNT TRES (zeroed).  Never fails. */
void mf_prio_result_init(mf_prio_result_t *r, uint32_t tres_cnt);

/* The same over the caller's BUF of 2 x TRES_CNT doubles (zeroed here;
 * may be NULL when TRES_CNT is 0): nothing is allocated, so a hot loop can
 * keep R on its stack.  Never fails. */
void mf_prio_result_bind(mf_prio_result_t *r, uint32_t tres_cnt, double *buf);

/* Free R's arrays (unless borrowed); R may be reused after
 * mf_prio_result_init() or mf_prio_result_bind(). */
void mf_prio_result_clear(mf_prio_result_t *r);

/* Copy SRC into DST (DST initialized, arrays resized as needed; a
 * borrowed DST keeps its buffer and count, and takes as many TRES as
 * both have). */
void mf_prio_result_copy(mf_prio_result_t *dst, const mf_prio_result_t *src);

/*
 * The normalized priorities' denominators from the raw values, as
 * slurmctld keeps them: the highest PriorityJobFactor of PARTS (at least 1),
 * the highest QOS priority, the highest association priority.
 */
uint32_t mf_part_max_priority(const mf_part_t *parts, uint32_t cnt);

/*
 * Compute JOB's factors and priority at time NOW in its partition
 * (job->part) into R (initialized for cfg->tres->cnt, or 0 TRES).
 * An administrator's priority (direct_prio and priority > 0) is returned as
 * is with no factors (R->direct).  Otherwise the result is at least 1
 * whatever job->priority is: holding a job (priority 0) and skipping held
 * jobs is the caller's business, as in Slurm, which also computes the
 * priority of a job being released while its priority is still 0.
 * Returns R->priority.
 */
uint32_t mf_priority_compute(const mf_prio_config_t *cfg,
			     const mf_prio_job_t *job, time_t now,
			     mf_prio_result_t *r);

/*
 * The figures of JOB in partition PART, given BASE, its figures from
 * mf_priority_compute(): BASE with PART's partition and TRES factors and
 * the sum redone.  Writes R (initialized).  Returns R->priority.
 */
uint32_t mf_priority_in_part(const mf_prio_config_t *cfg,
			     const mf_prio_job_t *job,
			     const mf_prio_result_t *base,
			     const mf_part_t *part, mf_prio_result_t *r);

/*
 * A job that asked for several QOS (Slurm 24.11 and later) gets one
 * priority per partition and QOS: R, figures from mf_priority_compute() or
 * mf_priority_in_part(), redone with the QOS of priority QOS_PRIORITY.  A
 * QOS of priority 0, or PriorityWeightQOS 0, leaves the job's own QOS term
 * as it is (Slurm's rule).  An administrator's priority is left alone.
 * Returns R->priority.
 */
uint32_t mf_priority_with_qos(const mf_prio_config_t *cfg,
			      uint32_t qos_priority, mf_prio_result_t *r);

/*
 * The weighted sum of R's weighted terms (w_* and site - nice), as a
 * priority: NaN terms count as 0; below 1 gives 1; above MF_PRIORITY_MAX
 * gives MF_PRIORITY_MAX and *clamped = true (else false).  SUM, if not
 * NULL, receives the unclamped sum.
 */
uint32_t mf_priority_sum(const mf_prio_result_t *r, double *sum,
			 bool *clamped);

/*
 * PriorityFlags=INCR_ONLY: the priority to store when the computed one is
 * NEW_PRIO and the job's current one is OLD_PRIO (the larger one with
 * INCR_ONLY, else NEW_PRIO).
 */
uint32_t mf_priority_incr_only(uint32_t flags, uint32_t old_prio,
			       uint32_t new_prio);

/*
 * Sort PARTS (CNT pointers) by PriorityTier, highest first, keeping the
 * given order among equal tiers, as slurmctld orders a multi-partition
 * job's list and its priority array.
 */
void mf_parts_sort_by_tier(const mf_part_t **parts, uint32_t cnt);

#endif
