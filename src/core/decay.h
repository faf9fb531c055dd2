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

#include <stdbool.h>
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
 * The latest reset boundary at or before T, in local time:
 *   DAILY      00:00 of T's day
 *   WEEKLY     00:00 of the Sunday of T's week (T's day if a Sunday)
 *   MONTHLY    00:00 of the 1st of T's month
 *   QUARTERLY  00:00 of the 1st of T's quarter (Jan, Apr, Jul, Oct)
 *   YEARLY     00:00 of January 1st of T's year
 * NONE and NOW have no boundary: 0.
 *
 * Usage is reset when the boundary at or before now is later than the
 * last reset; the last reset then becomes that boundary.  A controller
 * that was down over several boundaries resets once.
 */
time_t mf_reset_boundary(mf_reset_period_t p, time_t t);

/* Is a reset due at NOW, the last one being at LAST_RESET?  If so the
 * boundary reached goes to *BOUNDARY. */
bool mf_reset_due(mf_reset_period_t p, time_t last_reset, time_t now,
		  time_t *boundary);

#endif
