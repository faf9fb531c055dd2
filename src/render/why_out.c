/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * why_out: `mfprio why`'s comparison in sentences and JSON (why_out.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json_out.h"
#include "priority_json.h"
#include "text_time.h"
#include "why_out.h"

static const char *_id(const mf_prun_job_t *j)
{
	return j->line->job_id_str ? j->line->job_id_str : "?";
}

/* Why W's first job runs first when no factor decides: a higher tier, a
 * priority set by an administrator, or a tie.  Returns whether it was
 * one of these (and said so). */
static bool _print_special(FILE *out, const mf_why_t *w)
{
	const mf_prio_result_t *f = &w->rf->r, *l = &w->rl->r;
	const mf_part_t *pf = f->partition, *pl = l->partition;

	if (w->by_tier) {
		fprintf(out, "Job %s runs before job %s: its partition %s has "
			"PriorityTier %u, above the %u of %s, and the "
			"scheduler takes a higher tier first whatever the "
			"priorities (%u and %u).\n", _id(w->first),
			_id(w->later), pf->name, pf->priority_tier,
			pl->priority_tier, pl->name, f->priority,
			l->priority);
		fprintf(out, "Only a change of partition or of PriorityTier "
			"changes this order.\n");
		return true;
	}
	if (f->direct || l->direct) {
		const mf_prun_job_t *d = f->direct ? w->first : w->later;

		fprintf(out, "Job %s runs before job %s in partition %s: "
			"priority %u against %u.\n", _id(w->first),
			_id(w->later), pf->name, f->priority, l->priority);
		fprintf(out, "Job %s has a priority set by an administrator "
			"(scontrol update job ... priority=N): no factor "
			"counts for it, and only another such update changes "
			"it.\n", _id(d));
		return true;
	}
	if (w->tie) {
		fprintf(out, "Job %s runs before job %s in partition %s: both "
			"have priority %u, and the lower job id goes first.\n",
			_id(w->first), _id(w->later), pf->name, f->priority);
		return true;
	}
	return false;
}

/* The factors' terms that differ between W's jobs, largest first, and
 * the deciding one.  Returns nothing. */
static void _print_terms(FILE *out, const mf_prun_ctx_t *c, const mf_why_t *w)
{
	const mf_prio_result_t *f = &w->rf->r, *l = &w->rl->r;
	GPtrArray *terms;

	terms = mf_why_terms(c, f, l);
	if (terms->len) {
		const mf_why_term_t *d = NULL;

		for (guint i = 0; i < terms->len && !d; i++)
			if (((mf_why_term_t *) terms->pdata[i])->wa >
			    ((mf_why_term_t *) terms->pdata[i])->wb)
				d = terms->pdata[i];
		if (d)
			fprintf(out, "The deciding factor is %s: it gives job "
				"%s %.1f more.\n", d->name, _id(w->first),
				d->wa - d->wb);
		fprintf(out, "The terms that differ, largest first:\n");
	}
	for (guint i = 0; i < terms->len; i++) {
		const mf_why_term_t *t = terms->pdata[i];
		const mf_prun_job_t *ahead = t->wa > t->wb ? w->first :
			w->later;

		if (isnan(t->a))
			fprintf(out, "  %-12s job %s %.1f, job %s %.1f: %+.1f for "
				"job %s\n", t->name, _id(w->first), t->wa,
				_id(w->later), t->wb, fabs(t->wa - t->wb),
				_id(ahead));
		else
			fprintf(out, "  %-12s factor %.6f against %.6f, "
				"weighted %.1f against %.1f: %+.1f for job "
				"%s\n", t->name, t->a, t->b, t->wa, t->wb,
				fabs(t->wa - t->wb), _id(ahead));
	}
	g_ptr_array_unref(terms);
}

/* Whether waiting longer (the age factor) would let W's later job pass
 * the first, and when, NOW.  Returns nothing. */
static void _print_age_change(FILE *out, const mf_prun_ctx_t *c,
			      const mf_why_t *w, time_t now)
{
	const mf_prio_result_t *f = &w->rf->r, *l = &w->rl->r;
	char tbuf[32];

	if (w->age_can) {
		char *s = mf_text_span(w->age_seconds);

		mf_text_time(now + (time_t) ceil(w->age_seconds), tbuf);
		fprintf(out, "  age: job %s reaches job %s's %.1f after %s "
			"more of waiting (at %s), if nothing else changes: "
			"job %s's age factor stops at 1 after "
			"PriorityMaxAge, while job %s keeps gaining %.6f a "
			"second.\n", _id(w->later), _id(w->first), f->sum, s,
			tbuf, _id(w->first), _id(w->later),
			c->cfg.weight_age / (double) c->cfg.max_age);
		g_free(s);
	} else if (c->cfg.weight_age && c->cfg.max_age) {
		if (f->age > l->age)
			fprintf(out, "  age: cannot close the gap: once both "
				"have waited PriorityMaxAge, job %s will "
				"have gained at most %.1f on job %s, less "
				"than %.1f.\n", _id(w->later), w->age_max_gain,
				_id(w->first), w->gap);
		else
			fprintf(out, "  age: cannot close the gap: job %s "
				"has waited as long as job %s or longer (age "
				"factor %.6f against %.6f); both gain alike "
				"until it reaches PriorityMaxAge, then job %s "
				"gains on it.\n", _id(w->later),
				_id(w->first), l->age, f->age, _id(w->first));
	}
}

/* What fair-share factor (and usage) W's later job would need to pass
 * the first.  Returns nothing. */
static void _print_fs_change(FILE *out, const mf_prun_ctx_t *c,
			     const mf_why_t *w)
{
	const mf_prio_result_t *l = &w->rl->r;

	if (c->cfg.weight_fs) {
		if (!w->fs_can)
			fprintf(out, "  fair-share: cannot close the gap: job "
				"%s would need a fair-share factor of %.6f, "
				"above 1.\n", _id(w->later), w->fs_needed);
		else if (w->ue_needed > 0 && w->later_assoc &&
			 w->later_assoc->usage_efctv > 0)
			fprintf(out, "  fair-share: job %s's factor would have "
				"to rise from %.6f to %.6f: the effective "
				"usage of %s in account %s would have to fall "
				"from %.6f to %.6f (%.0f%% less, the others' "
				"unchanged).\n",
				_id(w->later), l->fs, w->fs_needed,
				w->later->line->user, w->later->line->account,
				(double) w->later_assoc->usage_efctv,
				w->ue_needed, 100.0 * (1.0 - w->ue_needed /
				(double) w->later_assoc->usage_efctv));
		else
			fprintf(out, "  fair-share: job %s's factor would have "
				"to rise from %.6f to %.6f (account %s, user "
				"%s: less usage, or more shares).\n",
				_id(w->later), l->fs, w->fs_needed,
				w->later->line->account, w->later->line->user);
	}
}

/* Why W's first job runs before its later one at NOW, and what would
 * change the order, as text.  Returns nothing. */
void mf_why_print_text(FILE *out, const mf_prun_ctx_t *c, const mf_why_t *w,
			time_t now)
{
	const mf_prio_result_t *f = &w->rf->r, *l = &w->rl->r;
	const mf_part_t *pf = f->partition, *pl = l->partition;

	if (_print_special(out, w))
		return;
	fprintf(out, "Job %s runs before job %s in partition %s: priority "
		"%u against %u (%.1f against %.1f before rounding), ahead by "
		"%.1f.\n", _id(w->first), _id(w->later),
		pf->name, f->priority, l->priority,
		f->sum, l->sum, w->gap);
	if (pf != pl)
		fprintf(out, "They share no partition: job %s is compared in "
			"%s, job %s in %s (the same PriorityTier, %u).\n",
			_id(w->first), pf->name, _id(w->later), pl->name,
			pf->priority_tier);
	_print_terms(out, c, w);

	fprintf(out, "What would change the order:\n");
	_print_age_change(out, c, w, now);
	_print_fs_change(out, c, w);
}

void mf_why_print_json(FILE *out, const mf_prun_ctx_t *c,
			const mf_prun_opts_t *o, const mf_why_t *w)
{
	mf_json_t j;
	GPtrArray *terms;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_prun_json_settings(&j, "settings", c, o);
	mf_json_string(&j, "first", _id(w->first));
	mf_json_string(&j, "later", _id(w->later));
	mf_json_string(&j, "decided_by", w->by_tier ? "tier" :
		       w->tie ? "job_id" : "priority");
	for (int k = 0; k < 2; k++) {
		const mf_prun_row_t *r = k ? w->rl : w->rf;

		mf_json_begin_object(&j, k ? "later_job" : "first_job");
		mf_json_string(&j, "job_id", _id(r->job));
		mf_json_string(&j, "partition", r->r.partition->name);
		mf_json_uint(&j, "tier", r->r.partition->priority_tier);
		mf_json_uint(&j, "priority", r->r.priority);
		mf_json_double(&j, "sum", r->r.sum);
		mf_json_end_object(&j);
	}
	mf_json_double(&j, "gap", w->gap);
	terms = mf_why_terms(c, &w->rf->r, &w->rl->r);
	mf_json_begin_array(&j, "terms");
	for (guint i = 0; !w->by_tier && i < terms->len; i++) {
		const mf_why_term_t *t = terms->pdata[i];

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "name", t->name);
		if (isnan(t->a)) {
			mf_json_null(&j, "first_factor");
			mf_json_null(&j, "later_factor");
		} else {
			mf_json_double(&j, "first_factor", t->a);
			mf_json_double(&j, "later_factor", t->b);
		}
		mf_json_double(&j, "first_weighted", t->wa);
		mf_json_double(&j, "later_weighted", t->wb);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	g_ptr_array_unref(terms);
	if (w->age_can) {
		mf_json_double(&j, "age_crossing_seconds", w->age_seconds);
		mf_json_int(&j, "age_crossing_time", (int64_t) o->now +
			    (int64_t) ceil(w->age_seconds));
	} else {
		mf_json_null(&j, "age_crossing_seconds");
		mf_json_null(&j, "age_crossing_time");
	}
	if (c->cfg.weight_fs && !w->by_tier && !w->tie)
		mf_json_double(&j, "fairshare_needed", w->fs_needed);
	else
		mf_json_null(&j, "fairshare_needed");
	mf_json_end_object(&j);
	mf_json_finish(&j);
}

