/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_out: why one job waits, in sentences and JSON (wait_out.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "json_out.h"
#include "text_count.h"
#include "text_time.h"
#include "wait_out.h"

#define WIDTH 79

/* Print the formatted text wrapped at WIDTH columns, each line indented
 * by two spaces.  Returns nothing. */
static void G_GNUC_PRINTF(2, 3) _say(FILE *out, const char *fmt, ...)
{
	va_list ap;
	char *t, **words;
	int col = 0;

	va_start(ap, fmt);
	t = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	words = g_strsplit(t, " ", -1);
	for (int i = 0; words[i]; i++) {
		int n = (int) strlen(words[i]);

		if (!n)
			continue;
		if (col && col + 1 + n > WIDTH) {
			fputc('\n', out);
			col = 0;
		}
		col += fprintf(out, "%s%s", col ? " " : "  ", words[i]);
	}
	fputc('\n', out);
	g_strfreev(words);
	g_free(t);
}

static const char *_id(const mf_wait_t *w)
{
	const mf_job_line_t *j = w->d->job;

	return j->job_id_str ? j->job_id_str : j->id_text;
}

/* "in 3 d 2 h (2026-11-30T10:00:00)" for SECONDS from the dump's time. */
static char *_when(const mf_wait_t *w, double seconds)
{
	char tb[32], *s, *r;

	/* whole seconds, rounding errors of the sum aside */
	seconds = ceil(seconds - 1e-6);
	s = mf_text_span(seconds);
	mf_text_time(w->d->now + (time_t) seconds, tb);
	r = g_strdup_printf("in %s (%s)", s, tb);
	g_free(s);
	return r;
}

/* A GrpTRESRunMins limit: what runs against it and when it lets the job
 * in. */
static void _runmins_text(FILE *out, const mf_wait_t *w)
{
	const mf_wait_limit_t *l = &w->limit;
	char *when;

	_say(out, "Your association %s/%s has a limit of %.0f %s-%s "
	     "(GrpTRESRunMins) on its running jobs; they have %.0f still to "
	     "run (sshare), and this job asks %.0f (CPUs x time limit).",
	     l->at->account, l->at->user, l->limit, l->tres,
	     mf_text_n(l->limit, "minute", "minutes"), l->running,
	     l->asked);
	if (!w->d->running || strcmp(l->tres, "cpu")) {
		_say(out, "When it lifts is not worked out: your running "
		     "jobs' %s and time left were not read.", l->tres);
		return;
	}
	if (l->hidden) {
		_say(out, "Your own running jobs have %.0f of them: the rest "
		     "are other users' jobs you cannot see, so when it lifts "
		     "is not known.", l->visible);
		return;
	}
	if (l->lift_seconds < 0) {
		_say(out, "Your running jobs' minutes never fall to %.0f "
		     "(limit less what it asks): %s.", l->limit - l->asked,
		     l->limit < l->asked ? "it asks more than the limit" :
		     "a job runs without a time limit");
		return;
	}
	when = _when(w, l->lift_seconds);
	_say(out, "As your running jobs (%.0f CPU-minutes left by squeue) "
	     "run on, their remaining minutes fall to %.0f %s, if none "
	     "starts or ends early.", l->visible, l->limit - l->asked, when);
	g_free(when);
}

static void _limit_text(FILE *out, const mf_wait_t *w)
{
	const mf_wait_limit_t *l = &w->limit;
	const char *who = l->at->user ? "your association" : "account";
	char *when, *hl;

	if (l->run_minutes) {
		_runmins_text(out, w);
		return;
	}
	_say(out, "The %s %s%s%s has a limit of %.0f %s-%s (%s); it has "
	     "used %.2f (decayed usage), and its running jobs will still "
	     "use %.0f.", who, l->at->account, l->at->user ? "/" : "",
	     l->at->user ? l->at->user : "", l->limit, l->tres,
	     mf_text_n(l->limit, "minute", "minutes"),
	     l->run_minutes ? "GrpTRESRunMins" : "GrpTRESMins", l->used,
	     l->running);
	if (w->d->safe_limits)
		_say(out, "With safe limits the job must fit whole: used + "
		     "running + its own %.0f must stay within the limit.",
		     l->asked);
	if (l->lift_seconds < 0) {
		_say(out, "Decay alone never brings it under (half-life %u s): "
		     "only an administrator or the end of running jobs "
		     "can.", w->d->half_life);
		return;
	}
	when = _when(w, l->lift_seconds);
	hl = mf_text_span(w->d->half_life);
	_say(out, "With a half-life of %s, decay brings the usage back under "
	     "%s, if the association runs nothing more (Slurm looks again "
	     "every PriorityCalcPeriod, %u s).", hl, when,
	     w->d->calc_period);
	g_free(hl);
	g_free(when);
}

/* What holds the job, in words. */
static void _hold_text(FILE *out, const mf_wait_t *w)
{
	const mf_wait_dump_t *d = w->d;
	const char *r = d->job->reason ? d->job->reason : "None";
	char tb[32];

	fprintf(out, "Job %s (user %s, account %s) is pending: %s.\n", _id(w),
		d->job->user, d->job->account, r);
	switch (w->hold) {
	case MF_HOLD_NONE:
		_say(out, "The scheduler has not looked at it yet.");
		break;
	case MF_HOLD_PRIORITY:
		_say(out, "Jobs of higher priority come first in its "
		     "partitions.");
		break;
	case MF_HOLD_RESOURCES:
		_say(out, "It is next in line; it waits for nodes to free up.");
		break;
	case MF_HOLD_DEPENDENCY:
		_say(out, "It waits for other jobs: Dependency=%s.%s",
		     d->dependency ? d->dependency : "(not shown)",
		     strstr(r, "Never") ? " That dependency can never be "
		     "met: cancel the job or change it." : "");
		break;
	case MF_HOLD_BEGIN:
		mf_text_time(d->job->eligible_time, tb);
		_say(out, "It was submitted to start no earlier than %s.", tb);
		break;
	case MF_HOLD_PARTITION:
		_say(out, "It asks for more than its partition allows, or the "
		     "partition is not up (Slurm's code %s).", r);
		break;
	case MF_HOLD_QOS:
		_say(out, "A limit of its QOS %s holds it (Slurm's code %s).",
		     d->job->qos ? d->job->qos : "(none)", r);
		break;
	case MF_HOLD_ASSOC:
		_say(out, "A limit of its association holds it (Slurm's code "
		     "%s).", r);
		if (w->limit.at)
			_limit_text(out, w);
		else if (strstr(r, "RunMinutes"))
			_say(out, "It lifts as running jobs of the association "
			     "end and stop charging their TRES-minutes.%s",
			     d->assocs ? " Your association has no such "
			     "GrpTRESRunMins: it is on an account above it, "
			     "which sacctmgr does not show you here." : "");
		else if (w->usage_hidden)
			_say(out, "The limit and the usage against it are not "
			     "shown to you (PrivateData=usage).");
		break;
	case MF_HOLD_HELD:
		_say(out, "It is held (priority 0): `scontrol release %s` "
		     "if you held it; an administrator's hold only an "
		     "administrator lifts.", _id(w));
		break;
	case MF_HOLD_RESERVATION:
		_say(out, "It waits for a reservation%s%s.", d->reservation ?
		     ": " : "", d->reservation ? d->reservation : "");
		break;
	case MF_HOLD_NODES:
		_say(out, "The nodes it may run on are down, drained or "
		     "reserved (Slurm's code %s).", r);
		break;
	case MF_HOLD_UNKNOWN:
		_say(out, "mfprio does not know this reason; Slurm's code is "
		     "%s.", r);
		break;
	}
}

/* Why Slurm has no start time for the job: W's start.none. */
static void _nostart_text(FILE *out, const mf_wait_t *w)
{
	const mf_wait_dump_t *d = w->d;
	char tb[32], *win;

	switch (w->start.none) {
	case MF_NOSTART_HOLD:
		_say(out, "Slurm gives it no start time (StartTime=Unknown): "
		     "its scheduler plans no job that a hold, a dependency "
		     "or a limit keeps back, until that is gone.");
		break;
	case MF_NOSTART_NOT_REACHED:
		win = mf_text_span(60.0 * d->bf_window);
		if (d->last_eval)
			mf_text_time(d->last_eval, tb);
		_say(out, "Slurm gives it no start time yet "
		     "(StartTime=Unknown): backfill has not placed it. A "
		     "pass runs every %u s (bf_interval)%s%s; it places no "
		     "start beyond %s ahead (bf_window), and a pass may stop "
		     "before it reaches this job (bf_max_job_test, "
		     "bf_max_job_user, bf_max_time).", d->bf_interval,
		     d->last_eval ? "; the scheduler last looked at it at " :
		     "", d->last_eval ? tb : "", win);
		g_free(win);
		break;
	case MF_NOSTART_BUILTIN:
		_say(out, "Slurm gives it no start time (StartTime=Unknown): "
		     "the cluster's scheduler is sched/builtin, not "
		     "sched/backfill; it estimates only the jobs it can place "
		     "one after the other from the head of the queue, and "
		     "has not placed this one.");
		break;
	case MF_NOSTART_UNKNOWN:
		_say(out, "Slurm gives it no start time (StartTime=Unknown), "
		     "and its scheduler (SchedulerType) is not shown: why "
		     "there is none is not known.");
		break;
	}
}

/* When the job may start, by Slurm's own estimate (wait_start.h). */
static void _start_text(FILE *out, const mf_wait_t *w)
{
	const mf_wait_start_t *s = &w->start;
	const mf_wait_dump_t *d = w->d;
	char tb[32], eb[32], *when;

	fprintf(out, "When it may start:\n");
	mf_text_time(s->at, tb);
	if (d->last_eval)
		mf_text_time(d->last_eval, eb);
	switch (s->kind) {
	case MF_START_NONE:
		_nostart_text(out, w);
		return;
	case MF_START_BEGIN:
		_say(out, "Not before its begin time, %s. That is what "
		     "StartTime shows, not an estimate: Slurm plans a start "
		     "once the job is eligible.", tb);
		return;
	case MF_START_DUE:
		_say(out, "Slurm's estimate is now (%s): its plan had it start "
		     "by this time, which has passed; it starts when its "
		     "nodes are free, or a next pass of the scheduler makes a "
		     "new estimate.", tb);
		break;
	case MF_START_ESTIMATE:
		when = _when(w, s->seconds);
		_say(out, "Slurm's estimate: %s, from its %s%s%s%s.", when,
		     s->backfill ? "backfill plan" : "scheduler's plan",
		     d->last_eval ? " (the scheduler last looked at the job "
		     "at " : "", d->last_eval ? eb : "", d->last_eval ? ")" :
		     "");
		g_free(when);
		break;
	}
	_say(out, "It assumes every running job runs to its time limit and "
	     "no job of higher priority arrives. Jobs that end early can "
	     "bring it forward; a job of higher priority submitted later "
	     "(or one passing this job as it ages), a node going down or a "
	     "reservation can push it back. So it is a latest time only "
	     "while the queue ahead stays as it is%s.", s->backfill ?
	     "; backfill makes it again at every pass" : "");
}

/* "their fairshare gives 3400 more; your age gives 800 more" */
static char *_diffs(const mf_wait_place_t *p)
{
	GString *g = g_string_new(NULL);

	for (int side = 0; side < 2; side++) {
		for (int t = 0; t < MF_WT_N; t++) {
			double v = side ? -p->diff[t] : p->diff[t];

			if (v < 0.5)
				continue;
			g_string_append_printf(g, "%s%s %s gives %.0f more",
					       g->len ? "; " : "",
					       side ? "your" : "their",
					       mf_wait_term_name[t], v);
		}
	}
	return g_string_free(g, FALSE);
}

static void _place_text(FILE *out, const mf_wait_t *w,
			const mf_wait_place_t *p)
{
	char *diffs, *when;

	if (w->jobs_hidden) {
		_say(out, "Partition %s: its priority is %.0f; %u of your own "
		     "jobs %s ahead of it. The other users' jobs are hidden "
		     "(PrivateData=jobs): its position is unknown.",
		     p->mine->partition, p->mine->priority, p->ahead,
		     mf_text_n(p->ahead, "is", "are"));
		return;
	}
	if (!p->next) {
		if (p->rows == 1)
			_say(out, "Partition %s: its only pending job, "
			     "priority %.0f.", p->mine->partition,
			     p->mine->priority);
		else
			_say(out, "Partition %s: first of %u pending jobs, "
			     "priority %.0f.", p->mine->partition, p->rows,
			     p->mine->priority);
		return;
	}
	if (p->ahead == 1)
		_say(out, "Partition %s: 1 of %u pending jobs is ahead of it, "
		     "job %u (priority %.0f); its own priority is %.0f.",
		     p->mine->partition, p->rows, p->next->job_id,
		     p->next->priority, p->mine->priority);
	else
		_say(out, "Partition %s: %u of %u pending jobs are ahead of "
		     "it. Its priority is %.0f; the first (job %u) has %.0f, "
		     "the one just ahead (job %u) %.0f.", p->mine->partition,
		     p->ahead, p->rows, p->mine->priority, p->head->job_id,
		     p->head->priority, p->next->job_id, p->next->priority);
	diffs = _diffs(p);
	if (*diffs)
		_say(out, "Against job %u: %s.", p->next->job_id, diffs);
	g_free(diffs);
	if (p->cross_seconds >= 0) {
		when = _when(w, p->cross_seconds);
		_say(out, "By age alone it passes job %u %s, if nothing else "
		     "changes.", p->next->job_id, when);
		g_free(when);
	} else {
		_say(out, "Age alone never makes it pass job %u.",
		     p->next->job_id);
	}
}

static void _fs_text(FILE *out, const mf_wait_t *w)
{
	const mf_wait_sshare_t *a = w->assoc;
	double run;

	fprintf(out, "Fair-share of %s/%s:\n", a->account, a->user);
	_say(out, "Usage %.0f (effective usage %.4f), normalized "
	     "shares %.4f, LevelFS %.4f, factor %.4f.", a->raw_usage,
	     a->eff_usage, a->norm_shares, a->level_fs, a->fairshare);
	if ((run = mf_wait_tres_count(a->tres_run_mins, "cpu")) > 0)
		_say(out, "Its running jobs will still charge %.0f "
		     "CPU-%s, not counted below.", run,
		     mf_text_n(run, "minute", "minutes"));
	if (a->raw_usage == 0 && w->outlook[0].raw_usage == 0 &&
	    w->outlook[1].raw_usage == 0 && w->outlook[2].raw_usage == 0) {
		_say(out, "With no usage, decay has nothing to take off: "
		     "running nothing more, it stays as it is in 1 day, 1 "
		     "week and 1 half-life, as long as the others' usage "
		     "does.");
		return;
	}
	for (int k = 0; k < 3; k++) {
		const mf_wait_outlook_t *o = &w->outlook[k];

		if (isnan(o->fairshare))
			_say(out, "In %s, running nothing more: usage %.0f, "
			     "LevelFS %.4f (the factor follows its rank among "
			     "its siblings).", o->when, o->raw_usage,
			     o->level_fs);
		else
			_say(out, "In %s, running nothing more: usage %.0f, "
			     "effective %.4f, factor %.4f.", o->when,
			     o->raw_usage, o->eff_usage, o->fairshare);
	}
}

static void _do_text(FILE *out, const mf_wait_t *w)
{
	fprintf(out, "What you can do:\n");
	for (guint i = 0; i < w->alts->len; i++) {
		const mf_wait_alt_t *a = &g_array_index(w->alts,
							mf_wait_alt_t, i);

		_say(out, "Under your account %s the fair-share factor is "
		     "%.4f (here %.4f): about %.0f more priority (scontrol "
		     "update job=%s Account=%s).", a->row->account,
		     a->row->fairshare, w->assoc->fairshare, a->gain, _id(w),
		     a->row->account);
	}
	for (guint i = 0; i < w->qos_alts->len; i++) {
		const mf_wait_qos_alt_t *q = &g_array_index(w->qos_alts,
			mf_wait_qos_alt_t, i);
		const mf_wait_place_t *p = q->ahead < 0 ? NULL :
			&g_array_index(w->places, mf_wait_place_t, 0);
		char *ahead = !p ? g_strdup("") : q->ahead < p->ahead ?
			g_strdup_printf(", %lld %s ahead in %s instead of "
					"%u", (long long) q->ahead,
					mf_text_n(q->ahead, "job", "jobs"),
					p->mine->partition, p->ahead) :
			g_strdup_printf(", still %lld %s ahead in %s",
					(long long) q->ahead,
					mf_text_n(q->ahead, "job", "jobs"),
					p->mine->partition);

		_say(out, "Under QOS %s, which your association allows, the "
		     "QOS term is %.0f more (its Priority %.0f against %.0f "
		     "of %s, the highest %.0f, weight %.0f)%s (scontrol "
		     "update job=%s QOS=%s).", q->qos->name, q->gain,
		     q->qos->priority, q->mine->priority, q->mine->name,
		     q->qos_max, w->d->weight_qos, ahead, _id(w), q->qos->name);
		g_free(ahead);
	}
	for (guint i = 0; i < w->part_alts->len; i++) {
		const mf_wait_part_alt_t *a = &g_array_index(w->part_alts,
			mf_wait_part_alt_t, i);

		_say(out, "In partition %s, which you may use, %u of its %u "
		     "pending %s would be ahead (here %u at the fewest): "
		     "its partition term is %.0f, the job's priority there "
		     "%.0f (scontrol update job=%s Partition=%s, if the job "
		     "fits its nodes and limits).", a->part->name, a->ahead,
		     a->rows, mf_text_n(a->rows, "job", "jobs"), a->ahead_here, a->term, a->priority, _id(w),
		     a->part->name);
	}
	if (w->qos_unknown && w->d->assocs && w->d->qos)
		_say(out, "The QOS your association allows, or their "
		     "priorities, are not visible to you (sacctmgr).");
	if (!w->alts->len && !w->qos_alts->len && !w->part_alts->len)
		_say(out, "None of your accounts, QOS or partitions ranks it "
		     "higher: nothing you change moves this job's priority.");
}

static void _hidden_text(FILE *out, const mf_wait_t *w)
{
	if (!w->jobs_hidden && !w->usage_hidden && !w->users_hidden)
		return;
	fprintf(out, "What it could not see (PrivateData=%s):\n",
		w->d->private_data);
	if (w->jobs_hidden)
		_say(out, "Other users' jobs: no position, no priority of "
		     "theirs is given.");
	if (w->usage_hidden)
		_say(out, "Other users' usage: only your own associations' "
		     "fair-share is shown.");
	if (w->users_hidden)
		_say(out, "Other users' associations.");
}

void mf_wait_print_text(FILE *out, const mf_wait_t *w)
{
	_hold_text(out, w);
	_start_text(out, w);
	fprintf(out, "Where it stands:\n");
	for (guint i = 0; i < w->places->len; i++)
		_place_text(out, w, &g_array_index(w->places,
						   mf_wait_place_t, i));
	if (!w->places->len)
		_say(out, "sprio does not list it: Slurm ranks it once what "
		     "holds it is gone.");
	fprintf(out, "When that changes:\n");
	if (w->age_per_hour > 0) {
		char *s = mf_text_span(w->age_full_seconds);

		_say(out, "Age adds %.1f priority an hour for %s more (age "
		     "factor %.4f now).", w->age_per_hour, s, w->age);
		g_free(s);
	} else {
		_say(out, "Age adds nothing now (age factor %.4f).", w->age);
	}
	if (w->assoc)
		_fs_text(out, w);
	_do_text(out, w);
	_hidden_text(out, w);
}
