/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_job: why one pending job waits (wait_job.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "age_factor.h"
#include "decay.h"
#include "fs_factor.h"
#include "wait_alt.h"
#include "wait_job.h"
#include "wait_runmins.h"

static const char *const _hold_names[] = {
	[MF_HOLD_NONE] = "none", [MF_HOLD_PRIORITY] = "priority",
	[MF_HOLD_RESOURCES] = "resources",
	[MF_HOLD_DEPENDENCY] = "dependency", [MF_HOLD_BEGIN] = "begin_time",
	[MF_HOLD_PARTITION] = "partition_limit", [MF_HOLD_QOS] = "qos_limit",
	[MF_HOLD_ASSOC] = "association_limit", [MF_HOLD_HELD] = "held",
	[MF_HOLD_RESERVATION] = "reservation",
	[MF_HOLD_NODES] = "nodes_unavailable", [MF_HOLD_UNKNOWN] = "other",
};

const char *mf_hold_name(mf_hold_t h)
{
	return _hold_names[h];
}

/* What Slurm's Reason R (and the job's state) says holds it. */
static mf_hold_t _hold_of(const char *r, const mf_job_line_t *j)
{
	if (!r || !strcmp(r, "None"))
		return MF_HOLD_NONE;
	if (!strcmp(r, "Priority"))
		return MF_HOLD_PRIORITY;
	if (!strcmp(r, "Resources"))
		return MF_HOLD_RESOURCES;
	if (g_str_has_prefix(r, "Dependency"))
		return MF_HOLD_DEPENDENCY;
	if (!strcmp(r, "BeginTime"))
		return MF_HOLD_BEGIN;
	if (g_str_has_prefix(r, "JobHeld") || !j->priority)
		return MF_HOLD_HELD;
	if (g_str_has_prefix(r, "Partition"))
		return MF_HOLD_PARTITION;
	if (g_str_has_prefix(r, "QOS"))
		return MF_HOLD_QOS;
	if (g_str_has_prefix(r, "Assoc"))
		return MF_HOLD_ASSOC;
	if (g_str_has_prefix(r, "Reservation") || strstr(r, "Reserved"))
		return MF_HOLD_RESERVATION;
	if (g_str_has_prefix(r, "ReqNodeNotAvail") ||
	    g_str_has_prefix(r, "Nodes_required") ||
	    g_str_has_prefix(r, "NodeDown"))
		return MF_HOLD_NODES;
	return MF_HOLD_UNKNOWN;
}

/* The TRES of an Assoc usage-limit reason ("AssocGrpCPUMinutesLimit":
 * "cpu"), with RUN set for a RunMinutes one.  Returns false if R is not
 * such a reason. */
static bool _limit_tres(const char *r, char tres[16], bool *run)
{
	static const char *const names[][2] = {
		{ "CPU", "cpu" }, { "Mem", "mem" }, { "Node", "node" },
		{ "Billing", "billing" }, { "Energy", "energy" },
	};
	const char *m;
	size_t n;

	if (!g_str_has_prefix(r, "AssocGrp") || !(m = strstr(r, "Minutes")))
		return false;
	*run = m - r >= 11 && !strncmp(m - 3, "Run", 3);
	n = (size_t) (m - r) - 8 - (*run ? 3 : 0);
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		if (strlen(names[i][0]) == n && !strncmp(r + 8, names[i][0], n)) {
			g_strlcpy(tres, names[i][1], 16);
			return true;
		}
	}
	return false;
}

/* The index of the job's own association row in sshare, or -1. */
static int _assoc_row(const mf_wait_dump_t *d)
{
	for (guint i = 0; i < d->sshare->len; i++) {
		const mf_wait_sshare_t *s = d->sshare->pdata[i];

		if (s->user && !strcmp(s->user, d->job->user) &&
		    !strcmp(s->account, d->job->account))
			return (int) i;
	}
	return -1;
}

/* Seconds until USED decays to at most TARGET under the dump's
 * half-life: 0 if it is already, -1 if decay never brings it there. */
static double _decay_until(const mf_wait_dump_t *d, double used,
			   double target)
{
	double f = mf_decay_factor(d->half_life);

	if (used <= target)
		return 0.0;
	if (target <= 0 || f >= 1.0)
		return -1.0;
	/* used * f^t = target */
	return log(target / used) / log(f);
}

/* The limit L at association row S, computed into L.  Returns false if
 * S has no such limit. */
static bool _limit_at(const mf_wait_t *w, const mf_wait_sshare_t *s,
		      mf_wait_limit_t *l)
{
	const mf_wait_dump_t *d = w->d;
	double lim = mf_wait_tres_count(s->grp_tres_mins, l->tres);

	l->at = s;
	l->limit = lim;
	l->used = fmax(0, mf_wait_tres_count(s->grp_tres_raw, l->tres));
	/* GrpTRESRaw is whole minutes; RawUsage (billing-seconds) gives the
	 * fraction where it agrees with them (billing = the TRES) */
	if (floor(s->raw_usage / 60.0) == l->used)
		l->used = s->raw_usage / 60.0;
	l->running = fmax(0, mf_wait_tres_count(s->tres_run_mins, l->tres));
	l->asked = 0;
	if (!strcmp(l->tres, "cpu") && d->job->time_limit < 0xfffffffe)
		l->asked = (double) d->job->min_cpus * d->job->time_limit;
	if (lim < 0)
		return false;
	if (l->run_minutes)
		l->lift_seconds = -1;   /* running jobs end: not by decay */
	else if (d->safe_limits)
		/* safe: the job must fit whole beside what runs */
		l->lift_seconds = _decay_until(d, l->used,
					       lim - l->running - l->asked);
	else
		/* held while the minutes used are at or over the limit */
		l->lift_seconds = l->used < lim ? 0 :
			_decay_until(d, l->used, nextafter(lim, 0));
	return true;
}

/* The association limit named by the job's Reason: the one of the job's
 * association and its accounts that lifts last. */
static void _find_limit(mf_wait_t *w, int row)
{
	const mf_wait_dump_t *d = w->d;
	mf_wait_limit_t l = { 0 };
	int depth = INT32_MAX;

	if (!_limit_tres(d->job->reason, l.tres, &l.run_minutes) || row < 0)
		return;
	/* GrpTRESRunMins: the user's association's, from sacctmgr */
	if (l.run_minutes) {
		mf_wait_runmins(w, &l);
		return;
	}
	for (int i = row; i >= 0; i--) {
		const mf_wait_sshare_t *s = d->sshare->pdata[i];

		if (i != row && (s->user || s->depth >= depth))
			continue;
		depth = s->depth;
		if (_limit_at(w, s, &l) && (!w->limit.at ||
		    l.lift_seconds < 0 || (w->limit.lift_seconds >= 0 &&
		    l.lift_seconds > w->limit.lift_seconds)))
			w->limit = l;
	}
}

/* Whether row A comes before row B in the partition's queue. */
static bool _before(const mf_wait_sprio_t *a, const mf_wait_sprio_t *b)
{
	return a->priority > b->priority ||
		(a->priority == b->priority && a->job_id < b->job_id);
}

/* The job's place in the partition of its row MINE. */
static void _place(mf_wait_t *w, const mf_wait_sprio_t *mine)
{
	const GArray *rows = w->d->sprio;
	mf_wait_place_t p = { .mine = mine, .cross_seconds = -1 };

	for (guint i = 0; i < rows->len; i++) {
		const mf_wait_sprio_t *r = &g_array_index(rows,
							  mf_wait_sprio_t, i);

		if (r->partition != mine->partition)
			continue;
		p.rows++;
		if (!_before(r, mine))
			continue;
		p.ahead++;
		if (!p.head || _before(r, p.head))
			p.head = r;
		if (!p.next || _before(p.next, r))
			p.next = r;
	}
	if (p.next) {
		for (int t = 0; t < MF_WT_N; t++)
			p.diff[t] = p.next->w[t] - mine->w[t];
		/* sprio shows nice as given: it is taken off the sum */
		p.diff[MF_WT_NICE] = 0.0 - p.diff[MF_WT_NICE];
		/* passing it is being one above it (priorities are whole;
		 * at equal ones the lower job id goes first) */
		p.cross_seconds = mf_age_crossing(
			p.next->priority - mine->priority + 1.0,
			w->d->weight_age, w->d->max_age, p.next->age,
			mine->age);
	}
	g_array_append_val(w->places, p);
}

/* The job's rows in sprio, their places, and the age outlook. */
static void _places(mf_wait_t *w)
{
	const mf_wait_dump_t *d = w->d;
	bool other_user = false;

	w->places = g_array_new(FALSE, TRUE, sizeof(mf_wait_place_t));
	for (guint i = 0; i < d->sprio->len; i++) {
		const mf_wait_sprio_t *r = &g_array_index(d->sprio,
							  mf_wait_sprio_t, i);

		if (r->user != d->job->user)
			other_user = true;
		if (r->job_id == d->job->job_id)
			_place(w, r);
	}
	/* PrivateData=jobs hides others' rows, unless the user is an
	 * operator or coordinator: then others' rows are there */
	w->jobs_hidden = d->private_data && strstr(d->private_data, "jobs") &&
		!other_user;
	if (w->jobs_hidden && w->places->len)
		w->own_ahead = g_array_index(w->places, mf_wait_place_t,
					     0).ahead;
	if (w->places->len)
		w->age = g_array_index(w->places, mf_wait_place_t, 0).mine->age;
	if (d->max_age && w->age < 1.0) {
		w->age_per_hour = d->weight_age * 3600.0 / d->max_age;
		w->age_full_seconds = (1.0 - w->age) * d->max_age;
	}
}

/* The association's fair-share after SECONDS of decay, its usage
 * decaying, the others' staying as it is: its share of TOTAL (the usage
 * its effective usage is relative to: the parent's under Fair Tree, the
 * root's under classic) falls by f T / (T - u (1 - f)). */
static void _outlook(mf_wait_t *w, mf_wait_outlook_t *o, const char *when,
		     double seconds, double total)
{
	const mf_wait_sshare_t *a = w->assoc;
	double f = mf_decay_over(mf_decay_factor(w->d->half_life), seconds);
	double g = f;

	if (total > 0 && total >= a->raw_usage)
		g = f * total / (total - a->raw_usage * (1.0 - f));
	o->when = when;
	o->seconds = seconds;
	o->raw_usage = a->raw_usage * f;
	o->eff_usage = a->eff_usage * g;
	o->level_fs = isnan(a->level_fs) || !g ? NAN : a->level_fs / g;
	o->fairshare = w->classic ? mf_fs_factor(o->eff_usage, a->norm_shares,
						  w->d->damp) : NAN;
}

/* The RawUsage the association's effective usage is relative to: its
 * parent account's under Fair Tree, the root's under classic. */
static double _total(const mf_wait_t *w, int row)
{
	const mf_wait_sshare_t *a = w->d->sshare->pdata[row];

	for (int i = w->classic ? 0 : row - 1; i >= 0 && i < row; i--) {
		const mf_wait_sshare_t *s = w->d->sshare->pdata[i];

		if (!s->user && s->depth < a->depth)
			return s->raw_usage;
	}
	return NAN;
}

/* The user's other accounts with a higher fair-share factor. */
static void _alternatives(mf_wait_t *w)
{
	const mf_wait_dump_t *d = w->d;

	w->alts = g_array_new(FALSE, TRUE, sizeof(mf_wait_alt_t));
	for (guint i = 0; w->assoc && i < d->sshare->len; i++) {
		const mf_wait_sshare_t *s = d->sshare->pdata[i];
		mf_wait_alt_t a = { .row = s };

		if (s == w->assoc || !s->user || strcmp(s->user, d->job->user) ||
		    !(s->fairshare > w->assoc->fairshare))
			continue;
		a.gain = (s->fairshare - w->assoc->fairshare) * d->weight_fs;
		if (a.gain >= 1.0)
			g_array_append_val(w->alts, a);
	}
}

int mf_wait_describe(const mf_wait_dump_t *d, mf_wait_t *w,
		     mf_error_t *errp)
{
	int row;

	w->d = d;
	if (!d->job->state || strcmp(d->job->state, "PENDING"))
		return mf_errprintf(errp, "job %s is not pending: it is %s",
				    d->job->job_id_str ? d->job->job_id_str :
				    d->job->id_text, d->job->state ?
				    d->job->state : "in no state");
	w->hold = _hold_of(d->job->reason, d->job);
	mf_wait_start_of(d, w->hold == MF_HOLD_DEPENDENCY ||
			 w->hold == MF_HOLD_BEGIN ||
			 w->hold == MF_HOLD_PARTITION ||
			 w->hold == MF_HOLD_QOS || w->hold == MF_HOLD_ASSOC ||
			 w->hold == MF_HOLD_HELD, &w->start);
	w->classic = d->priority_flags &&
		strstr(d->priority_flags, "NO_FAIR_TREE");
	w->usage_hidden = d->private_data && strstr(d->private_data, "usage");
	w->users_hidden = d->private_data && strstr(d->private_data, "users");
	row = _assoc_row(d);
	w->assoc = row >= 0 ? d->sshare->pdata[row] : NULL;
	if (w->hold == MF_HOLD_ASSOC)
		_find_limit(w, row);
	_places(w);
	if (w->assoc) {
		double t = _total(w, row);

		_outlook(w, &w->outlook[0], "1 day", 86400, t);
		_outlook(w, &w->outlook[1], "1 week", 7 * 86400, t);
		_outlook(w, &w->outlook[2], "1 half-life", d->half_life, t);
	}
	_alternatives(w);
	mf_wait_qos_alts(w);
	mf_wait_part_alts(w);
	return 0;
}

void mf_wait_clear(mf_wait_t *w)
{
	g_clear_pointer(&w->places, g_array_unref);
	g_clear_pointer(&w->alts, g_array_unref);
	g_clear_pointer(&w->qos_alts, g_array_unref);
	g_clear_pointer(&w->part_alts, g_array_unref);
	memset(w, 0, sizeof(*w));
}
