/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_usage: usage accounting in slurmctld's records.
 *
 * The core (usage_charge.h) says what a job owes for a stretch of its
 * run; this module books it.  A job's charge goes to its tallies: its QOS,
 * its partition's QOS when that is another one, and its association with
 * every ancestor up to root.  Each tally takes the decayed figures, except
 * a QOS with NoDecay, which takes the plain ones.  With
 * AccountingStorageEnforce=limits (where slurmctld keeps reservations of
 * run time) a tally also takes the per-TRES usage, and the reserved
 * TRES-seconds the stretch used up are taken back from its running
 * totals, never below zero (a shortfall is logged with the job and tally).
 *
 * Locks: the callers below say which they hold; the functions that take
 * locks say so.  Nothing here allocates per job.
 */
#ifndef MFPRIO_PLUGIN_MFP_USAGE_H
#define MFPRIO_PLUGIN_MFP_USAGE_H

#include "src/plugin/access/access.h"

#include "mfp_runs.h"

/* Does slurmctld keep reservations of run time (AccountingStorageEnforce
 * has limits)? */
bool mfp_usage_limits(void);

/*
 * Book what JOB owes for [FROM, TO] with DECAY the per-second factor: to
 * the job's end when AT_END (the stretch stops at its end time); MARK_ENDED
 * also marks the job as settled (end_time_exp = NO_VAL, as slurmctld's own
 * end path does), after which it is never charged again.  The caller
 * gives the stretch itself, in the clock's present reckoning: FROM no
 * earlier than the job's start, TO no later than its end when AT_END
 * (mfp_charge.c moves the times slurmctld wrote before a step of its
 * clock); [FROM, TO] is charged whole.  A settled job
 * is left alone.  Caller holds the job write lock and assoc_mgr's assoc
 * and QOS write and TRES read locks.  Returns the billing TRES the job was
 * charged at, or -1 when it was settled already.
 */
double mfp_usage_charge(job_record_t *job, time_t from, time_t to,
			bool at_end, bool mark_ended, double decay);

/*
 * RUN := JOB's current run as mfp_runs.h keeps it: its start, charged to
 * CHARGED_TO at BILLABLE, under JOB's QOS and its partition's QOS (their
 * ids; 0 without) and at its UsageFactor (1 without).
 * Returns nothing.
 */
void mfp_usage_run_of(const job_record_t *job, time_t charged_to,
		      double billable, mfp_run_t *run);

/*
 * Book the rest of a run of JOB that has ended although JOB shows no end
 * of it (a running job requeued: mfp_runs.h): [RUN->charged_to, END] at
 * the run's own billing and UsageFactor, to the QOS and the partition QOS
 * the run ran under (RUN->qos_id, RUN->part_qos_id; none if gone), not
 * JOB's now, and to its association and ancestors.  Only without limits
 * enforcement, where no reservation is kept.  Locks as mfp_usage_charge.
 */
void mfp_usage_charge_run(job_record_t *job, const mfp_run_t *run, time_t end,
			  double decay);

/* Multiply every association's and QOS's usage by KEEP (0 < KEEP <= 1;
 * 1 is a no-op), except QOS with NoDecay.  The caller holds the assoc
 * and QOS write locks (the decay is in the charging pass's first hold). */
void mfp_usage_age_locked(double keep);

/* PriorityUsageResetPeriod: forget all usage, of every association
 * (with what it kept of removed children) and every QOS.  Takes the assoc
 * and QOS write locks. */
void mfp_usage_forget(void);

/*
 * After a restart slurmctld reserves every running job's whole time limit
 * again; take back what each used up to LAST_RAN (the last tick, up to
 * which its usage was booked).  Only with limits.  Takes the job read
 * lock and assoc_mgr's locks.
 */
void mfp_usage_reserve_catch_up(time_t last_ran);

#endif
