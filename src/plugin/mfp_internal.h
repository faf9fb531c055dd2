/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_internal: what the plugin's files share (none of it is exported from
 * the .so).
 *
 * mfp_conf holds the Priority* settings as last read from slurm_conf
 * (init and reconfigure).  It is written only by mfp_conf_load(), which
 * the entry points call with slurmctld's config lock held by slurmctld; the
 * decay thread reads it under mfp_conf_mutex.
 */
#ifndef MFPRIO_PLUGIN_MFP_INTERNAL_H
#define MFPRIO_PLUGIN_MFP_INTERNAL_H

#include <pthread.h>

#include "mfp_slurm.h"

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
} mfp_conf_t;

extern mfp_conf_t mfp_conf;
extern pthread_mutex_t mfp_conf_mutex;

/* (Re)read mfp_conf from slurm_conf.  Call with mfp_conf_mutex held. */
void mfp_conf_load(void);

/* --- mfp_decay.c: the background thread and usage accounting --- */

/* Start the thread (controller only).  Returns after it has read the state
 * file, so that mfp_last_ran() is valid. */
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

/* Take back from grp_used_tres_run_secs what running jobs used before
 * LAST_RAN (after slurmctld re-adds whole time limits). */
void mfp_init_grp_used_tres_run_secs(time_t last_ran);

/* Recompute fair-share now (assoc WRITE lock taken inside). */
void mfp_fairshare_recompute(void);

/* --- mfp_jobs.c: job priorities and the sprio list --- */

/* The priority of JOB now, with its prio_factors and priority_array
 * updated (job write lock held by the caller). */
uint32_t mfp_job_priority(job_record_t *job_ptr, time_t now);

/* Re-prioritise JOB in the decay pass (list_for_each callback). */
int mfp_job_reprioritize(void *job, void *now_ptr);

/* The sprio list (priority_p_get_priority_factors_list). */
List mfp_factors_list(priority_factors_request_msg_t *req, uid_t uid);

/* Fair-share factor of the classic formula, with the dampening factor. */
double mfp_calc_fs_factor(long double usage_efctv, long double shares_norm);

#endif
