/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_start: what the StartTime of a pending job says (wait_start.h).
 */
#include <string.h>

#include "wait_start.h"

void mf_wait_start_of(const mf_wait_dump_t *d, bool hold_keeps_out,
		      mf_wait_start_t *s)
{
	const char *t = d->sched_type;

	*s = (mf_wait_start_t) { .kind = MF_START_NONE, .at = d->start_time,
				 .backfill = t && strstr(t, "backfill") };
	s->seconds = s->at ? difftime(s->at, d->now) : 0;
	if (!s->at) {
		s->none = hold_keeps_out ? MF_NOSTART_HOLD :
			s->backfill ? MF_NOSTART_NOT_REACHED :
			t && strstr(t, "builtin") ? MF_NOSTART_BUILTIN :
			MF_NOSTART_UNKNOWN;
		return;
	}
	/* Slurm shows the begin time when it has no estimate of its own */
	if (d->job->eligible_time && s->at == d->job->eligible_time &&
	    s->at > d->now)
		s->kind = MF_START_BEGIN;
	else if (s->seconds <= 1)   /* the dump's time and scontrol's */
		s->kind = MF_START_DUE;
	else
		s->kind = MF_START_ESTIMATE;
}

const char *mf_start_kind_name(mf_start_kind_t k)
{
	static const char *const n[] = { "estimate", "due", "begin",
					 "none" };

	return n[k];
}

const char *mf_nostart_name(mf_nostart_t n)
{
	static const char *const s[] = { "held", "not_reached", "builtin",
					 "unknown" };

	return s[n];
}
