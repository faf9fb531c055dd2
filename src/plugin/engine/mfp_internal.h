/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_internal: what the plugin's files share (none of it is exported from
 * the .so).
 *
 * The Priority* settings are an immutable object, read from slurm_conf at
 * init and built anew at each reconfigure, which then replaces the current
 * one whole: no reader ever sees one half written.  Readers hold the
 * object they started with for as long as they run: every engine function
 * the adapter calls, and each pass of the decay thread, opens a scope
 * (mfp_conf_enter/leave, nestable) that takes a reference to the current
 * object; inside it, `mfp_conf` is that object.  The last reference to a
 * replaced object frees it, so nothing accumulates over reconfigures.
 */
#ifndef MFPRIO_PLUGIN_MFP_INTERNAL_H
#define MFPRIO_PLUGIN_MFP_INTERNAL_H

#include <pthread.h>

#include "src/plugin/adapter/adapter.h"

#include "src/core/fairshare.h"
#include "src/core/priority.h"
#include "src/core/tres.h"

typedef struct {
	uint32_t slurm_flags;    /* slurm_conf.priority_flags */
	uint32_t mf_flags;       /* the same, as MF_FLAG_* */
	mf_fs_config_t fs;       /* algorithm and dampening */

	uint32_t weight_age;
	uint32_t weight_assoc;
	uint32_t weight_fs;
	uint32_t weight_js;
	uint32_t weight_part;
	uint32_t weight_qos;
	double *weight_tres;     /* tres->cnt weights (xmalloc), or NULL */
	mf_tres_set_t *tres;     /* slurmctld's TRES, in its order */
	uint32_t max_age;
	bool favor_small;

	uint32_t half_life;      /* PriorityDecayHalfLife, seconds */
	double decay_factor;     /* per second, 1 without decay */
	uint32_t calc_period;    /* PriorityCalcPeriod, seconds */
	uint16_t reset_period;   /* PRIORITY_RESET_* */

	bool calc_fairshare;     /* false without slurmdbd or associations */
	char *state_dir;         /* StateSaveLocation (xstrdup): slurm_conf's
				  * string is freed by a reconfigure under
				  * slurmctld's conf lock, which the decay thread
				  * does not hold (a race TSan found) */
	char *cluster;           /* ClusterName (xstrdup), the same way */
	char *metrics_file;      /* PriorityParameters' mfprio_metrics_file
				  * (xstrdup), or NULL: no metrics file */

	int refs;                /* under the engine's settings mutex */
} mfp_conf_t;

/* The settings in force for the calling thread: the object its innermost
 * scope holds (outside any scope, the current one; never NULL once
 * mfp_init() ran). */
const mfp_conf_t *mfp_conf_now(void);
#define mfp_conf (*mfp_conf_now())

/* Open / close a scope in the calling thread (nestable; the outermost
 * enter takes a reference to the current settings, its leave drops it). */
void mfp_conf_enter(void);
void mfp_conf_leave(void);

/* --- mfp_decay.c: the background thread (accounting: mfp_usage.h) --- */

/* Read the state files (the last decay, the jobs charged since) and the
 * decay factor, so that a job ending before the thread starts is charged
 * from the right time (controller only; slurmctld may hold its own locks:
 * takes only the state-file lock). */
void mfp_decay_prepare(void);

/* Start the thread (controller only; mfp_decay_prepare() first if it has
 * not run).  Returns once the thread runs. */
void mfp_decay_start(void);

/* Stop and join it. */
void mfp_decay_stop(void);

/* Ask the thread to reread its settings at its next pass. */
void mfp_decay_reconfig(void);

/* When usage was last charged up to (the last decay tick). */
time_t mfp_last_ran(void);

/* Charge JOB's usage since the last tick up to its end (priority_p_job_end;
 * job write lock held by the caller). */
void mfp_charge_job_end(job_record_t *job_ptr);

/* Recompute fair-share now (assoc WRITE lock taken inside).  Returns how
 * long it held that lock, in milliseconds; *BUILT (may be NULL) whether
 * the association tree was built anew rather than reused, *BUILDS (may be
 * NULL) how many were built since the plugin loaded. */
double mfp_fairshare_recompute(bool *built, uint64_t *builds);

/* --- mfp_jobs.c: job priorities and the sprio list --- */

/* The priority of JOB now, with its prio_factors and priority_array
 * updated (job write lock held by the caller). */
uint32_t mfp_job_priority(job_record_t *job_ptr, time_t now);

/* A pass over the job list setting priorities: its time, and what it did
 * (for mfp_stats). */
typedef struct {
	time_t now;
	uint32_t recomputed;     /* priorities computed */
	uint32_t changed;        /* written anew */
	uint32_t skipped;        /* held, running, powering up: left alone */
	uint32_t total;          /* jobs in slurmctld's list */
	bool assoc_locked;       /* the walker holds assoc_mgr's assoc and
				  * QOS read locks */
} mfp_pass_t;

/* Does the decay pass price JOB (not held, not powering up; pending, or
 * running under CALCULATE_RUNNING)?  Job lock held. */
bool mfp_job_priced(job_record_t *job_ptr);

/* Re-prioritise JOB in the decay pass (list_for_each callback; ARG is an
 * mfp_pass_t). */
int mfp_job_reprioritize(void *job, void *arg);

/* Does sprio list JOB at NOW (pending, or running under
 * CALCULATE_RUNNING; eligible; not held; in a partition)?  Visibility to
 * the asking user is the adapter's (mfa_job_visible). */
bool mfp_job_listed(job_record_t *job_ptr, time_t now);

/*
 * sprio's figures of a multi-partition job in PART_PTR, or with one of its
 * QOS: the weighted partition term into *W_PART and, when W_TRES is given,
 * the weighted TRES terms into W_TRES (TRES_CNT of them, each taken anew
 * against this partition: a TRES the partition lacks gives 0); with QOS (not NULL) of non-zero priority, the
 * weighted QOS term into *W_QOS.  PART_PTR NULL leaves *W_PART and W_TRES
 * alone.  Job read lock held.
 */
void mfp_job_part_terms(job_record_t *job_ptr, part_record_t *part_ptr,
			slurmdb_qos_rec_t *qos, double *w_part, double *w_qos,
			double *w_tres, uint32_t tres_cnt);

/* --- mfp_conf.c: what the entry points do, release-independent --- */

/* Loaded: read the settings; in slurmctld, prepare fair-share. */
int mfp_init(void);

/* Start the decay thread (slurmctld; a no-op without fair-share or when
 * started already). */
void mfp_thread_start(void);

/* Without fair-share there is no thread: compute every job's priority once
 * so that sprio has figures (takes the job write lock). */
void mfp_initial_priorities(void);

/* Unloaded: stop the thread, free everything. */
void mfp_fini(void);

/* The entry points' bodies. */
uint32_t mfp_set(uint32_t last_prio, job_record_t *job_ptr);
void mfp_reconfig(bool assoc_clear);
void mfp_set_assoc_usage(slurmdb_assoc_rec_t *assoc);
void mfp_job_end(job_record_t *job_ptr);

/* The classic (and DEPTH_OBLIVIOUS) fair-share factor of ASSOC (of its
 * fair-share parent for FairShare=parent) into assoc->usage->fs_factor,
 * for releases where slurmctld reads it there (25.11 and later); nothing
 * under Fair Tree.  Caller holds the assoc write lock. */
void mfp_assoc_fs_factor(slurmdb_assoc_rec_t *assoc);

/* True inside slurmctld (set by mfp_init). */
bool mfp_controller(void);

/* Fair-share factor of the classic formula, with the dampening factor. */
double mfp_calc_fs_factor(long double usage_efctv, long double shares_norm);

#endif
