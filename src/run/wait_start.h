/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_start: when a pending job may start, as Slurm itself estimates it
 * (`mfprio why JOBID`): the job's StartTime, which the scheduler sets
 * for a pending job it has placed in its plan (sched/backfill in each
 * pass; sched/builtin for the jobs it places in queue order), and which
 * scontrol and `squeue --start` show never earlier than the time of
 * asking, or the job's begin time when it has no estimate.  When there
 * is none, why not: what holds the job keeps it out of the plan, the
 * scheduler has not reached it, or the scheduler is not known.  Nothing
 * is computed here beyond reading and classing what Slurm gave.
 */
#ifndef MFPRIO_WAIT_START_H
#define MFPRIO_WAIT_START_H

#include <stdbool.h>
#include <time.h>

#include "wait_dump.h"

/* What StartTime says. */
typedef enum {
	MF_START_ESTIMATE,   /* a time after the dump's: the plan's */
	MF_START_DUE,        /* the dump's time: the plan had it start by
			      * now (Slurm shows no time in the past) */
	MF_START_BEGIN,      /* the job's begin time, not an estimate */
	MF_START_NONE        /* Unknown */
} mf_start_kind_t;

/* Why there is no estimate (MF_START_NONE). */
typedef enum {
	MF_NOSTART_HOLD,         /* a hold, dependency or limit keeps the
				  * job out of the plan */
	MF_NOSTART_NOT_REACHED,  /* sched/backfill has not placed it */
	MF_NOSTART_BUILTIN,      /* sched/builtin has not placed it */
	MF_NOSTART_UNKNOWN       /* the scheduler is not known */
} mf_nostart_t;

typedef struct {
	mf_start_kind_t kind;
	mf_nostart_t none;       /* MF_START_NONE only */
	time_t at;               /* the time (not MF_START_NONE) */
	double seconds;          /* from the dump's time */
	bool backfill;           /* SchedulerType is sched/backfill */
} mf_wait_start_t;

/*
 * Class the StartTime of the job of dump D, which HOLD_KEEPS_OUT (what
 * holds it is a hold, a dependency or a limit, which the scheduler
 * does not plan past), into S.  Returns nothing.
 */
void mf_wait_start_of(const mf_wait_dump_t *d, bool hold_keeps_out,
		      mf_wait_start_t *s);

/* The name of kind K for JSON ("estimate", "due", "begin", "none"), and
 * of reason N ("held", "not_reached", "builtin", "unknown").  Returns
 * it. */
const char *mf_start_kind_name(mf_start_kind_t k);
const char *mf_nostart_name(mf_nostart_t n);

#endif
