/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_runmins: when a GrpTRESRunMins limit lets a job start
 * (wait_runmins.h).
 */
#include <math.h>
#include <string.h>

#include "wait_runmins.h"

/* The job's own association in the sacctmgr dump with a limit on TRES,
 * its count in *LIMIT.  Returns it, or NULL. */
static const mf_wait_assoc_t *_limit_row(const mf_wait_dump_t *d,
					 const char *tres, double *limit)
{
	for (guint i = 0; d->assocs && i < d->assocs->len; i++) {
		const mf_wait_assoc_t *a = d->assocs->pdata[i];

		if (strcmp(a->account, d->job->account) ||
		    strcmp(a->user, d->job->user))
			continue;
		*limit = mf_wait_tres_count(a->grp_tres_run_mins, tres);
		if (*limit >= 0)
			return a;
	}
	return NULL;
}

/* The remaining CPU-minutes of the user's running jobs of the job's
 * account T seconds from now: each runs CPUs x (time left - T). */
static double _remaining(const mf_wait_dump_t *d, double t)
{
	double sum = 0;

	for (guint i = 0; i < d->running->len; i++) {
		const mf_wait_running_t *r = &g_array_index(d->running,
			mf_wait_running_t, i);

		if (!strcmp(r->account, d->job->account))
			sum += r->cpus * fmax(0, r->left - t / 60.0);
	}
	return sum;
}

/* The CPUs of the user's running jobs of the job's account still running
 * T seconds from now into *CPUS, and the seconds until the next of them
 * ends (INFINITY: none).  Returns false if one has no time limit. */
static bool _still(const mf_wait_dump_t *d, double t, double *cpus,
		   double *next)
{
	*cpus = 0;
	*next = INFINITY;
	for (guint i = 0; i < d->running->len; i++) {
		const mf_wait_running_t *r = &g_array_index(d->running,
			mf_wait_running_t, i);

		if (strcmp(r->account, d->job->account))
			continue;
		if (r->left < 0)
			return false;
		if (r->left * 60.0 > t) {
			*cpus += r->cpus;
			*next = fmin(*next, r->left * 60.0);
		}
	}
	return true;
}

/* The first second at which the remaining CPU-minutes are at most
 * TARGET (0 or more): they fall by the running CPUs a minute, the slope
 * changing as each job ends.  Returns it, or -1 if a job has no time
 * limit. */
static double _lift(const mf_wait_dump_t *d, double target)
{
	double t = 0, cpus, next, r;

	while ((r = _remaining(d, t)) > target) {
		if (!_still(d, t, &cpus, &next) || !cpus)
			return -1;
		if (t + (r - target) / cpus * 60.0 <= next)
			return t + (r - target) / cpus * 60.0;
		t = next;
	}
	return t;
}

void mf_wait_runmins(mf_wait_t *w, mf_wait_limit_t *l)
{
	const mf_wait_dump_t *d = w->d;
	double target;

	if (!w->assoc || !_limit_row(d, l->tres, &l->limit))
		return;
	l->at = w->assoc;
	l->running = fmax(0, mf_wait_tres_count(w->assoc->tres_run_mins,
						l->tres));
	l->lift_seconds = -1;
	if (!strcmp(l->tres, "cpu") && d->job->time_limit < 0xfffffffe)
		l->asked = (double) d->job->min_cpus * d->job->time_limit;
	w->limit = *l;
	if (!d->running || strcmp(l->tres, "cpu"))
		return;
	l = &w->limit;
	l->visible = _remaining(d, 0);
	/* sshare's figure is slurmctld's of its last pass: a minute of
	 * running or a rounding apart from squeue's */
	l->hidden = l->running > l->visible * 1.02 + 2;
	target = l->limit - l->asked;
	if (!l->hidden && target >= 0 && d->job->time_limit < 0xfffffffe)
		l->lift_seconds = _lift(d, target);
}
