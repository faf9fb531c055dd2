/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * age_factor: how long a job has been waiting, eligible, relative to
 * PriorityMaxAge.
 *
 *   age_factor = (now - accrue_time) / PriorityMaxAge, at most 1.0
 *
 * A job that does not accrue age (accrue_time 0: waiting on a dependency,
 * held, begin time in the future, beyond an accrue limit) has 0.  With
 * PriorityMaxAge=0 any accruing job has 1.0 (Slurm divides nothing).
 * accrue_time after now gives 0.
 */
#ifndef MFPRIO_AGE_FACTOR_H
#define MFPRIO_AGE_FACTOR_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* The age factor at NOW of a job accruing since ACCRUE_TIME (0: not). */
double mf_age_factor(time_t accrue_time, time_t now, uint32_t max_age);

/*
 * The time a job starts to accrue age, for a what-if job that has none
 * recorded, as slurmctld would set it:
 *   PriorityFlags=ACCRUE_ALWAYS   its submit time, whatever else holds;
 *   otherwise                     0 while it is held, waits on a
 *                                 dependency, is beyond a limit, or its
 *                                 begin time (eligible time) is unset or
 *                                 after NOW; else its begin time.
 * (slurmctld stamps accrue time when its scheduler first sees the job
 * eligible, a few seconds after the begin time at most.)
 */
time_t mf_job_accrue_time(uint32_t flags, time_t submit_time,
			  time_t begin_time, bool held, bool dependent,
			  bool beyond_limits, time_t now);

/*
 * The seconds after which a job GAP below another reaches it by age alone,
 * both aging alike: each gains WEIGHT / MAX_AGE a second until its age
 * factor (LATER_AGE, FIRST_AGE now) reaches 1, so the later job gains on
 * the first only once the first has stopped.  Returns the seconds (0 for
 * a GAP of 0 or less), or -1 when age cannot close the gap (no weight or
 * MaxAge, the first job no older, or a gap above what age can still give:
 * WEIGHT * (FIRST_AGE - LATER_AGE)).
 */
double mf_age_crossing(double gap, double weight, uint32_t max_age,
		       double first_age, double later_age);

#endif
