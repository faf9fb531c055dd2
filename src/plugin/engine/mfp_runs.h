/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_runs: the runs of running jobs the plugin has charged, so that a run
 * cut short without a job end is charged to its end.
 *
 * Without AccountingStorageEnforce=limits slurmctld tells the plugin of no
 * job end; the decay thread finds ended jobs by their end time.  A running
 * job that is requeued (scontrol requeue, PreemptMode=REQUEUE, a node
 * failure) shows no such end for long: once its epilog is done slurmctld
 * clears its start and end times and it is pending again, and its
 * first run would be lost.  Each running job is noted here (its run's
 * start, up to when it is charged, what it bills, under which QOS) as the
 * decay thread
 * charges it or first sees it running; a noted job whose record shows
 * another run, or none, has ended the noted run, which the decay thread
 * then charges (mfp_decay.c).
 *
 * Plain bookkeeping: no slurmctld structure is read here.  Every function
 * is called with slurmctld's job write lock held, which guards the table.
 * Nothing fails: the table grows as needed (GLib aborts when memory is
 * exhausted, as everywhere in the plugin).
 */
#ifndef MFPRIO_PLUGIN_MFP_RUNS_H
#define MFPRIO_PLUGIN_MFP_RUNS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* One noted run. */
typedef struct {
	time_t start;           /* the run's start time */
	time_t charged_to;      /* its usage is booked up to here */
	double billable;        /* billing TRES at the last charge */
	double usage_factor;    /* its QOS UsageFactor then */
	uint32_t qos_id;        /* the QOS it ran under (0: none): a job of
				 * several QOS (24.11 on) is pending again
				 * under another by the time its run is
				 * settled */
	uint32_t part_qos_id;   /* its partition's QOS then (0: none): a job
				 * of several partitions may be pending in
				 * another one when the run is settled */
} mfp_run_t;

/* Note that job JOB_ID's run RUN is charged up to RUN->charged_to
 * (copied; replaces what was noted of the job). */
void mfp_runs_note(uint32_t job_id, const mfp_run_t *run);

/* What is noted of JOB_ID's run, or NULL (valid until the next call). */
const mfp_run_t *mfp_runs_get(uint32_t job_id);

/* The job's run ended and was charged to its end: forget it. */
void mfp_runs_forget(uint32_t job_id);

/* How many runs are noted. */
unsigned mfp_runs_count(void);

/* Call FN for every noted run; FN returns true to forget that run. */
typedef bool (*mfp_runs_fn)(uint32_t job_id, const mfp_run_t *run, void *arg);
void mfp_runs_each(mfp_runs_fn fn, void *arg);

/* slurmctld's clock was stepped by BY seconds: every run's charged_to
 * is moved with it, into the clock's new reckoning (its start is kept: it
 * is the run's name, as slurmctld's record of the job has it). */
void mfp_runs_shift(time_t by);

/* Forget every run and free the table (plugin unload). */
void mfp_runs_clear(void);

#endif
