/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock_step: steps of slurmctld's wall clock, told from readings of the
 * wall clock and of a clock no step moves (CLOCK_BOOTTIME), each pair read
 * at one moment.
 *
 * Between two readings A and B the time that passed is B.boot - A.boot;
 * the wall clock moved B.wall - A.wall.  Their difference, beyond a few
 * seconds of slack, is a step (settimeofday, NTP).  A slow pass or a wait
 * for a lock between A and B moves both clocks alike: no step.
 *
 * After a step of STEP seconds found since the last tick, a time that
 * slurmctld wrote before the step (a job's start or end) is in the old
 * reckoning: it lies after NOW (a step back) or before the last tick as
 * moved (a step forward), and STEP takes it into the present one.
 *
 * Pure functions over plain numbers; nothing fails.
 */
#ifndef MFPRIO_CORE_CLOCK_STEP_H
#define MFPRIO_CORE_CLOCK_STEP_H

#include <stdint.h>

/* One reading: the wall clock and the boot clock, seconds (boot 0: not
 * read). */
typedef struct {
	int64_t wall;
	int64_t boot;
} mf_reading_t;

/* The step of the wall clock from A to B: (B.wall - A.wall) - (B.boot -
 * A.boot) when its size is over SLACK; 0 otherwise, and 0 when either
 * reading has no boot clock. */
int64_t mf_clock_step(const mf_reading_t *a, const mf_reading_t *b,
		      int64_t slack);

/* T (0: unset, returned as is) in the present reckoning, NOW being the
 * present time, SINCE the last tick already moved by STEP, the steps found
 * since that tick: T + STEP when STEP is not 0 and T is after NOW or
 * before SINCE; else T. */
int64_t mf_clock_present(int64_t t, int64_t since, int64_t now, int64_t step);

#endif
