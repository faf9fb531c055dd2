/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "decay.h"
#include "usage_charge.h"

void mf_charge_bind(mf_charge_t *out, uint32_t cnt, long double *tres_buf,
		    uint64_t *released)
{
	out->tres_cnt = cnt;
	out->tres[MF_CHARGE_DECAYED] = tres_buf;
	out->tres[MF_CHARGE_PLAIN] = tres_buf ? tres_buf + cnt : NULL;
	out->released = released;
}

static double _factor(const mf_charge_job_t *job)
{
	double f = job->usage_factor;

	return (isnan(f) || f < 0.0) ? 1.0 : f;
}

static time_t _later(time_t a, time_t b)
{
	return a > b ? a : b;
}

static time_t _earlier(time_t a, time_t b)
{
	return a < b ? a : b;
}

/* Seconds of [LO, HI] (0 when empty). */
static double _span(time_t lo, time_t hi)
{
	return hi > lo ? difftime(hi, lo) : 0.0;
}

/* Multiply whole SECONDS of reservation (times the usage factor, cut to
 * whole seconds) by every TRES count. */
static void _spread(const mf_charge_job_t *job, double seconds,
		    uint64_t *released)
{
	uint64_t whole = (uint64_t) (seconds * _factor(job));

	for (uint32_t i = 0; i < job->tres_cnt; i++)
		released[i] = job->tres ? whole * job->tres[i] : 0;
}

void mf_charge_compute(const mf_charge_job_t *job, time_t from, time_t to,
		       double decay, mf_charge_t *out)
{
	time_t lo = _later(from, job->start);
	time_t hi = job->end ? _earlier(to, job->end) : to;
	double f = _factor(job), given_back;

	out->seconds = _span(lo, hi);
	out->weight = mf_decay_over(decay, out->seconds);

	out->wall[MF_CHARGE_PLAIN] = out->seconds * f;
	out->wall[MF_CHARGE_DECAYED] = out->seconds * out->weight * f;
	for (int k = 0; k < 2; k++) {
		out->raw[k] = (long double) (out->wall[k] * job->billable);
		for (uint32_t i = 0; i < job->tres_cnt; i++)
			out->tres[k][i] = job->tres ?
				(long double) out->wall[k] * job->tres[i] : 0;
	}

	if (job->ended)
		given_back = _span(lo, job->reserved_until);
	else
		given_back = _span(lo, _earlier(hi, _earlier(job->reserved_until,
							     job->expected_end)));
	_spread(job, given_back, out->released);
}

void mf_charge_used_reserve(const mf_charge_job_t *job, time_t until,
			    uint64_t *released)
{
	time_t stop = _earlier(until, _earlier(job->reserved_until,
					       job->expected_end));

	_spread(job, _span(job->start, stop), released);
}
