/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decay: half-life decay of usage and the PriorityUsageResetPeriod clock.
 *
 * Slurm 22.05 decays usage once per PriorityCalcPeriod by D^t, t being the
 * seconds since the last decay and D the per-second factor
 *   D = 1 - 0.693 / PriorityDecayHalfLife   (seconds)
 * (a first-order approximation of 2^(-1/hl): after one half-life usage is
 * within 0.01% of half for half-lives of a minute or more).  mfprio uses
 * the same D so that its figures agree with Slurm's.  A half-life of 0
 * means no decay (D = 1).
 */
#ifndef MFPRIO_DECAY_H
#define MFPRIO_DECAY_H

#include <stdint.h>
#include <time.h>

#include "mf_error.h"

/* Per-second decay factor D for a half-life in seconds (0: no decay). */
double mf_decay_factor(uint32_t half_life);

/* D^seconds, never below DBL_MIN; 1.0 for seconds <= 0. */
double mf_decay_over(double factor, double seconds);

/* The factor applied every PriorityCalcPeriod (seconds). */
double mf_decay_period_factor(uint32_t half_life, uint32_t period);

/* Usage after decaying USAGE over SECONDS with half-life HALF_LIFE. */
long double mf_decay_usage(long double usage, uint32_t half_life,
			   double seconds);

typedef enum {
	MF_RESET_NONE,
	MF_RESET_NOW,
	MF_RESET_DAILY,
	MF_RESET_WEEKLY,
	MF_RESET_MONTHLY,
	MF_RESET_QUARTERLY,
	MF_RESET_YEARLY,
} mf_reset_period_t;

/*
 * Parse a PriorityUsageResetPeriod value (case-insensitive).
 * Returns 0, or -1 with errp naming the value.
 */
int mf_reset_period_parse(const char *s, mf_reset_period_t *out,
			  mf_error_t *errp);

const char *mf_reset_period_name(mf_reset_period_t p);

/*
 * The next reset after LAST_RESET, in local time:
 *   DAILY      the midnight after LAST_RESET
 *   WEEKLY     the Sunday 00:00 after LAST_RESET
 *   MONTHLY    the 1st of the next month, 00:00
 *   QUARTERLY  the 1st of January/April/July/October after LAST_RESET
 *   YEARLY     January 1st of the next year
 * DAILY and WEEKLY skip ahead, whole days or weeks at a time, while the
 * following one is also before NOW (so a controller that was down for a
 * month resets once, not thirty times).  NONE and NOW return 0.
 */
time_t mf_next_reset(mf_reset_period_t p, time_t last_reset, time_t now);

#endif
