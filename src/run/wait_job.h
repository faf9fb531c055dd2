/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_job: why one pending job waits (`mfprio why JOBID`), from what
 * the user's own Slurm commands show (wait_dump.h): what holds it (its
 * Reason in plain words, with an association's usage limit worked out:
 * the limit, the usage, when decay brings it back under), where it stands
 * in each of its partitions by sprio's rows, when Slurm expects to start
 * it (wait_start.h) (jobs ahead, the head's and
 * the next one's priority, the weighted terms that differ), when that
 * changes (age per hour until PriorityMaxAge, the crossing time of the
 * job just ahead, the fair-share outlook of its association), what the
 * user may change (another of their accounts that ranks higher), and
 * what PrivateData hid.  One description, rendered by wait_out.h.
 *
 * Ownership: an mf_wait_t borrows the dump D (keep it until
 * mf_wait_clear()) and owns its arrays.
 */
#ifndef MFPRIO_WAIT_JOB_H
#define MFPRIO_WAIT_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "wait_dump.h"
#include "wait_start.h"

/* What holds the job, from its Reason. */
typedef enum {
	MF_HOLD_NONE,            /* "None": not yet looked at */
	MF_HOLD_PRIORITY, MF_HOLD_RESOURCES, MF_HOLD_DEPENDENCY,
	MF_HOLD_BEGIN, MF_HOLD_PARTITION, MF_HOLD_QOS, MF_HOLD_ASSOC,
	MF_HOLD_HELD, MF_HOLD_RESERVATION,
	MF_HOLD_NODES,           /* its nodes down, drained or reserved */
	MF_HOLD_UNKNOWN          /* shown as Slurm's code */
} mf_hold_t;

/* An association usage limit (Assoc*MinutesLimit) and when it lifts. */
typedef struct {
	const mf_wait_sshare_t *at;  /* the association that has it */
	char tres[16];               /* "cpu", "mem", "billing", ... */
	bool run_minutes;            /* GrpTRESRunMins, not GrpTRESMins */
	double limit, used, running; /* TRES-minutes */
	double asked;                /* the job's own: TRES x time limit
				      * (counted under safe limits only) */
	double lift_seconds;         /* decay brings used under: -1 never
				      * by decay alone; run_minutes: the
				      * running jobs' minutes fall to
				      * limit - asked (-1 unknown, never) */
	double visible;              /* run_minutes: the user's running
				      * jobs' remaining TRES-minutes */
	bool hidden;                 /* run_minutes: running jobs the user
				      * cannot see (sshare's are more) */
} mf_wait_limit_t;

/* The job's place in one partition's sprio rows. */
typedef struct {
	const mf_wait_sprio_t *mine;
	uint32_t ahead, rows;
	const mf_wait_sprio_t *head, *next;  /* NULL: the job is first */
	double diff[MF_WT_N];                /* next's terms - the job's */
	double cross_seconds;                /* age alone passes next: -1
					      * never */
} mf_wait_place_t;

/* The fair-share factor of the job's association at a later time, if it
 * runs nothing more and the cluster's total usage stays as it is. */
typedef struct {
	const char *when;            /* "1 day", "1 week", "1 half-life" */
	double seconds, raw_usage, eff_usage, level_fs, fairshare;
} mf_wait_outlook_t;

/* Another of the user's accounts whose fair-share factor is higher. */
typedef struct {
	const mf_wait_sshare_t *row;
	double gain;                 /* weighted fair-share more */
} mf_wait_alt_t;

/* Another QOS the user's association allows whose weighted QOS term is
 * higher. */
typedef struct {
	const mf_wait_qos_t *qos, *mine;  /* mine: the job's QOS */
	double qos_max;              /* the highest QOS Priority: the norm */
	double gain;                 /* weighted QOS term more */
	int64_t ahead;               /* in the first partition at the
				      * higher priority; -1 unknown */
} mf_wait_qos_alt_t;

/* Another partition the user may submit to where fewer jobs are ahead. */
typedef struct {
	const mf_wait_part_t *part;
	double term;                 /* its weighted partition term */
	double priority;             /* the job's there */
	uint32_t ahead, rows;        /* by its sprio rows */
	uint32_t ahead_here;         /* the fewest in the job's own */
} mf_wait_part_alt_t;

typedef struct {
	const mf_wait_dump_t *d;
	mf_hold_t hold;
	mf_wait_start_t start;       /* Slurm's estimate (wait_start.h) */
	mf_wait_limit_t limit;       /* MF_HOLD_ASSOC with a usage limit
				      * found (limit.at set) */
	GArray *places;              /* mf_wait_place_t, sprio's order */
	double age, age_per_hour, age_full_seconds;
	const mf_wait_sshare_t *assoc;   /* the job's association; NULL:
					  * not in sshare */
	bool classic;                /* NO_FAIR_TREE: the factor follows */
	mf_wait_outlook_t outlook[3];
	GArray *alts;                /* mf_wait_alt_t */
	GArray *qos_alts;            /* mf_wait_qos_alt_t (wait_alt.h) */
	GArray *part_alts;           /* mf_wait_part_alt_t (wait_alt.h) */
	bool qos_unknown;            /* the QOS the user may use, or their
				      * priorities, not visible */
	bool jobs_hidden, usage_hidden, users_hidden;
	uint32_t own_ahead;          /* jobs_hidden: the user's own jobs
				      * ahead in the first partition */
} mf_wait_t;

/*
 * Describe why the job of dump D waits, into W.  Returns 0, or -1 with
 * errp saying why there is nothing to describe (the job is not pending:
 * its state named).  Clear W either way.
 */
int mf_wait_describe(const mf_wait_dump_t *d, mf_wait_t *w,
		     mf_error_t *errp);

/* Free what W holds; a zeroed one is accepted.  Returns nothing. */
void mf_wait_clear(mf_wait_t *w);

/* The name of hold H for JSON ("priority", ...).  Returns it. */
const char *mf_hold_name(mf_hold_t h);

#endif
