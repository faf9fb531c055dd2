/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_json: why one job waits as one JSON object (wait_out.h; the
 * sentences are wait_out.c).
 */
#include <math.h>
#include <stdio.h>

#include <glib.h>

#include "json_out.h"
#include "wait_out.h"
#include "wait_start.h"

static const char *_id(const mf_wait_t *w)
{
	const mf_job_line_t *j = w->d->job;

	return j->job_id_str ? j->job_id_str : j->id_text;
}

/* V, or null when it is NAN or a negative "never". */
static void _jnum(mf_json_t *j, const char *key, double v)
{
	if (isnan(v) || v < 0)
		mf_json_null(j, key);
	else
		mf_json_double(j, key, v);
}

static void _limit_json(mf_json_t *j, const mf_wait_t *w)
{
	const mf_wait_limit_t *l = &w->limit;

	mf_json_begin_object(j, "limit");
	mf_json_string(j, "account", l->at->account);
	if (l->at->user)
		mf_json_string(j, "user", l->at->user);
	mf_json_string(j, "tres", l->tres);
	mf_json_string(j, "kind", l->run_minutes ? "GrpTRESRunMins" :
		       "GrpTRESMins");
	mf_json_double(j, "limit", l->limit);
	mf_json_double(j, "used", l->used);
	mf_json_double(j, "running", l->running);
	mf_json_double(j, "asked", l->asked);
	mf_json_bool(j, "safe", w->d->safe_limits);
	if (l->run_minutes) {
		mf_json_double(j, "visible_running", l->visible);
		mf_json_bool(j, "running_hidden", l->hidden || !w->d->running);
	}
	_jnum(j, "lift_seconds", l->lift_seconds);
	if (l->lift_seconds >= 0)
		mf_json_int(j, "lift_time", (int64_t) w->d->now +
			    (int64_t) ceil(l->lift_seconds - 1e-6));
	mf_json_end_object(j);
}

/* Slurm's start estimate and what it rests on. */
static void _start_json(mf_json_t *j, const mf_wait_t *w)
{
	const mf_wait_start_t *s = &w->start;
	const mf_wait_dump_t *d = w->d;

	mf_json_begin_object(j, "start");
	mf_json_string(j, "kind", mf_start_kind_name(s->kind));
	if (s->kind == MF_START_NONE) {
		mf_json_null(j, "time");
		mf_json_null(j, "seconds");
		mf_json_string(j, "none_because", mf_nostart_name(s->none));
	} else {
		mf_json_int(j, "time", (int64_t) s->at);
		mf_json_double(j, "seconds", s->seconds);
		mf_json_null(j, "none_because");
	}
	if (d->sched_type)
		mf_json_string(j, "scheduler", d->sched_type);
	else
		mf_json_null(j, "scheduler");
	if (d->last_eval)
		mf_json_int(j, "last_eval", (int64_t) d->last_eval);
	else
		mf_json_null(j, "last_eval");
	mf_json_uint(j, "bf_interval", d->bf_interval);
	mf_json_uint(j, "bf_window_minutes", d->bf_window);
	mf_json_end_object(j);
}

static void _place_json(mf_json_t *j, const mf_wait_t *w,
			const mf_wait_place_t *p)
{
	mf_json_begin_object(j, NULL);
	mf_json_string(j, "partition", p->mine->partition);
	mf_json_double(j, "priority", p->mine->priority);
	if (w->jobs_hidden) {
		mf_json_null(j, "ahead");
		mf_json_uint(j, "own_jobs_ahead", p->ahead);
		mf_json_end_object(j);
		return;
	}
	mf_json_uint(j, "ahead", p->ahead);
	mf_json_uint(j, "pending", p->rows);
	if (p->next) {
		mf_json_uint(j, "head_job", p->head->job_id);
		mf_json_double(j, "head_priority", p->head->priority);
		mf_json_uint(j, "next_job", p->next->job_id);
		mf_json_double(j, "next_priority", p->next->priority);
		mf_json_begin_object(j, "next_minus_yours");
		for (int t = 0; t < MF_WT_N; t++)
			mf_json_double(j, mf_wait_term_name[t], p->diff[t]);
		mf_json_end_object(j);
		_jnum(j, "age_crossing_seconds", p->cross_seconds);
	}
	mf_json_end_object(j);
}

/* The fair-share figures of now and of an outlook, V: raw usage,
 * effective usage, LevelFS, factor. */
static void _fs_figures(mf_json_t *j, const double v[4])
{
	static const char *const keys[4] = { "raw_usage", "effective_usage",
					     "level_fs", "factor" };

	for (int k = 0; k < 4; k++)
		_jnum(j, keys[k], v[k]);
}

static void _fs_json(mf_json_t *j, const mf_wait_t *w)
{
	const mf_wait_sshare_t *a = w->assoc;
	const double now[4] = { a->raw_usage, a->eff_usage, a->level_fs,
				a->fairshare };

	mf_json_begin_object(j, "fairshare");
	mf_json_string(j, "account", a->account);
	mf_json_string(j, "user", a->user);
	_fs_figures(j, now);
	_jnum(j, "norm_shares", a->norm_shares);
	_jnum(j, "running_cpu_minutes",
	      mf_wait_tres_count(a->tres_run_mins, "cpu"));
	mf_json_begin_array(j, "outlook");
	for (int k = 0; k < 3; k++) {
		const mf_wait_outlook_t *o = &w->outlook[k];
		const double then[4] = { o->raw_usage, o->eff_usage,
					 o->level_fs, o->fairshare };

		mf_json_begin_object(j, NULL);
		mf_json_string(j, "after", o->when);
		mf_json_double(j, "seconds", o->seconds);
		_fs_figures(j, then);
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
	mf_json_end_object(j);
}

/* The better QOS, null when what the user may use is not visible. */
static void _qos_json(mf_json_t *j, const mf_wait_t *w)
{
	if (w->qos_unknown) {
		mf_json_null(j, "better_qos");
		return;
	}
	mf_json_begin_array(j, "better_qos");
	for (guint i = 0; i < w->qos_alts->len; i++) {
		const mf_wait_qos_alt_t *q = &g_array_index(w->qos_alts,
			mf_wait_qos_alt_t, i);

		mf_json_begin_object(j, NULL);
		mf_json_string(j, "qos", q->qos->name);
		mf_json_double(j, "priority", q->qos->priority);
		mf_json_string(j, "job_qos", q->mine->name);
		mf_json_double(j, "job_qos_priority", q->mine->priority);
		mf_json_double(j, "highest_priority", q->qos_max);
		mf_json_double(j, "gain", q->gain);
		if (q->ahead >= 0)
			mf_json_int(j, "ahead", q->ahead);
		else
			mf_json_null(j, "ahead");
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
}

/* The partitions where fewer jobs are ahead. */
static void _parts_json(mf_json_t *j, const mf_wait_t *w)
{
	mf_json_begin_array(j, "better_partitions");
	for (guint i = 0; i < w->part_alts->len; i++) {
		const mf_wait_part_alt_t *a = &g_array_index(w->part_alts,
			mf_wait_part_alt_t, i);

		mf_json_begin_object(j, NULL);
		mf_json_string(j, "partition", a->part->name);
		mf_json_double(j, "partition_term", a->term);
		mf_json_double(j, "priority", a->priority);
		mf_json_uint(j, "ahead", a->ahead);
		mf_json_uint(j, "pending", a->rows);
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
}

void mf_wait_print_json(FILE *out, const mf_wait_t *w)
{
	const mf_wait_dump_t *d = w->d;
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "job_id", _id(w));
	mf_json_string(&j, "user", d->job->user);
	mf_json_string(&j, "account", d->job->account);
	mf_json_int(&j, "time", (int64_t) d->now);
	mf_json_string(&j, "reason", d->job->reason ? d->job->reason : "None");
	mf_json_string(&j, "hold", mf_hold_name(w->hold));
	mf_json_begin_object(&j, "hidden");
	mf_json_bool(&j, "jobs", w->jobs_hidden);
	mf_json_bool(&j, "usage", w->usage_hidden);
	mf_json_bool(&j, "users", w->users_hidden);
	mf_json_end_object(&j);
	if (d->dependency)
		mf_json_string(&j, "dependency", d->dependency);
	if (d->reservation)
		mf_json_string(&j, "reservation", d->reservation);
	if (w->hold == MF_HOLD_BEGIN)
		mf_json_int(&j, "begin_time", (int64_t) d->job->eligible_time);
	if (w->limit.at)
		_limit_json(&j, w);
	_start_json(&j, w);
	mf_json_begin_array(&j, "partitions");
	for (guint i = 0; i < w->places->len; i++)
		_place_json(&j, w, &g_array_index(w->places,
						  mf_wait_place_t, i));
	mf_json_end_array(&j);
	mf_json_double(&j, "age_factor", w->age);
	mf_json_double(&j, "age_per_hour", w->age_per_hour);
	mf_json_double(&j, "age_full_seconds", w->age_full_seconds);
	if (w->assoc)
		_fs_json(&j, w);
	mf_json_begin_array(&j, "better_accounts");
	for (guint i = 0; i < w->alts->len; i++) {
		const mf_wait_alt_t *a = &g_array_index(w->alts,
							mf_wait_alt_t, i);

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "account", a->row->account);
		mf_json_double(&j, "factor", a->row->fairshare);
		mf_json_double(&j, "gain", a->gain);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	_qos_json(&j, w);
	_parts_json(&j, w);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}
