/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_charge: what a job owes for one stretch of its run.
 *
 * A running job is billed in stretches: every PriorityCalcPeriod for the
 * time since the previous tick, and at its end for the rest.  For a
 * stretch of S seconds the job owes
 *
 *   wall   S x F                      (F: its QOS UsageFactor, 1 if unset)
 *   raw    S x F x billable
 *   TRES   S x F x count, per TRES it holds
 *
 * once weighted by the decay of the stretch, w = D^S (D the per-second
 * factor of decay.h: usage of the stretch is aged as a whole over it, as
 * Slurm's plugin ages it, so that our figures equal Slurm's), for every
 * account that decays, and once unweighted, for a QOS with NoDecay.
 *
 * Reservation.  When a job starts slurmctld reserves its TRES for its whole
 * time limit (GrpTRESRunMins limits count them); a stretch gives back the
 * reserved TRES-seconds it used up:
 *   - a job still running gives back the part of the stretch before the
 *     end of its reservation (and before its expected end);
 *   - a job that ended gives back all that is left of the reservation
 *     from the start of the stretch, whatever the stretch's own length;
 * times F, truncated to whole seconds, then times the TRES count.
 *
 * Pure: no allocation, no logging.  The caller owns every buffer.
 */
#ifndef MFPRIO_USAGE_CHARGE_H
#define MFPRIO_USAGE_CHARGE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* The job as a charge sees it. */
typedef struct {
	time_t start;           /* when it started */
	time_t end;             /* the stretch stops here if set (a charge
				 * at the job's end); 0 otherwise */
	bool ended;             /* finished, completing or resizing: the
				 * whole rest of the reservation is given
				 * back */
	time_t reserved_until;  /* start + time limit (what slurmctld
				 * reserved) */
	time_t expected_end;    /* a running job gives back nothing after
				 * this */
	double billable;        /* billing TRES */
	double usage_factor;    /* QOS UsageFactor; < 0 or NaN: 1 */
	const uint64_t *tres;   /* TRES counts held (tres_cnt; 0: none);
				 * may be NULL */
	uint32_t tres_cnt;
} mf_charge_job_t;

/* Index of the two weightings of a charge. */
enum { MF_CHARGE_DECAYED = 0, MF_CHARGE_PLAIN = 1 };

/* What the job owes for the stretch. */
typedef struct {
	double seconds;            /* the stretch's length, after clipping */
	double weight;             /* D^seconds */
	double wall[2];            /* [MF_CHARGE_DECAYED], [MF_CHARGE_PLAIN] */
	long double raw[2];
	long double *tres[2];      /* tres_cnt each (caller's buffers) */
	uint64_t *released;        /* tres_cnt reserved TRES-seconds given
				    * back (caller's buffer) */
	uint32_t tres_cnt;
} mf_charge_t;

/*
 * Point OUT's arrays at caller-owned buffers: TRES_BUF of 2 x CNT long
 * doubles and RELEASED of CNT.  Both may be NULL when CNT is 0.
 */
void mf_charge_bind(mf_charge_t *out, uint32_t cnt, long double *tres_buf,
		    uint64_t *released);

/*
 * Fill OUT (bound to at least JOB->tres_cnt entries) with what JOB owes for
 * [FROM, TO], with DECAY the per-second decay factor.  The stretch starts
 * no earlier than the job and ends no later than JOB->end when that is set;
 * a stretch of negative length is an empty one (all zero, except what an
 * ended job gives back).  Never fails.
 */
void mf_charge_compute(const mf_charge_job_t *job, time_t from, time_t to,
		       double decay, mf_charge_t *out);

/*
 * The reserved TRES-seconds a running JOB has used up between its start
 * and UNTIL (a restarted slurmctld reserves every running job's whole time
 * limit again; this is what to give back), into RELEASED (JOB->tres_cnt).
 */
void mf_charge_used_reserve(const mf_charge_job_t *job, time_t until,
			    uint64_t *released);

#endif
