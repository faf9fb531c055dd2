/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio why JOB_A JOB_B: which of two pending jobs the scheduler takes
 * first, and why, in sentences with the numbers.
 *
 * The two are compared in the partition of highest PriorityTier that both
 * are queued in; with none in common, each in its own first partition.  A
 * higher tier is taken first whatever the priorities; within a tier, the
 * higher priority, then the lower job id.  The terms that differ are
 * listed largest first; then what would change the order: the age the
 * later job would still gain (its crossing time, when age can close the
 * gap before both reach PriorityMaxAge) and the fair-share factor it would
 * need.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cmd.h"
#include "cmd_error.h"
#include "input_opts.h"
#include "json_out.h"
#include "priority_json.h"
#include "priority_run.h"

static const char _usage_head[] =
"Usage: mfprio why JOB_A JOB_B --snapshot DIR | --conf FILE --jobs FILE\n"
"                  [--qos FILE] [--assoc FILE [--usage FILE]] [--json] ...\n"
"\n"
"Say which of two pending jobs the scheduler takes first and why: the\n"
"partition tier if that decides it, else the priority terms that differ,\n"
"largest first, and what would change the order.\n"
"\n";

static const char _usage_own[] =
"  --json             one JSON object instead of sentences; see mfprio(1)\n";

/* --help: the command, its input options (input_opts.def), its own. */
static const mf_iopt_help_t _help = {
	_usage_head, MF_IOPT_PRIORITY_INPUTS, _usage_own, NULL
};


/* One term of the sum, for both jobs. */
typedef struct {
	char *name;
	double a, b;             /* factors (NAN: none, e.g. site, nice) */
	double wa, wb;           /* weighted, as added to the sum */
} _term_t;

static void _term_free(gpointer p)
{
	_term_t *t = p;

	g_free(t->name);
	g_free(t);
}

static void _add(GPtrArray *terms, const char *name, double a, double b,
		 double wa, double wb)
{
	_term_t *t;

	if (wa == wb)
		return;
	t = g_new0(_term_t, 1);
	t->name = g_strdup(name);
	t->a = a;
	t->b = b;
	t->wa = wa;
	t->wb = wb;
	g_ptr_array_add(terms, t);
}

static gint _by_size(gconstpointer x, gconstpointer y)
{
	const _term_t *a = *(_term_t *const *) x, *b = *(_term_t *const *) y;
	double da = fabs(a->wa - a->wb), db = fabs(b->wa - b->wb);

	return da < db ? 1 : da > db ? -1 : strcmp(a->name, b->name);
}

/* The terms where the two rows differ, largest difference first. */
static GPtrArray *_terms(const mf_prun_ctx_t *c, const mf_prio_result_t *a,
			 const mf_prio_result_t *b)
{
	GPtrArray *t = g_ptr_array_new_with_free_func(_term_free);

	_add(t, "age", a->age, b->age, a->w_age, b->w_age);
	_add(t, "fairshare", a->fs, b->fs, a->w_fs, b->w_fs);
	_add(t, "qos", a->qos, b->qos, a->w_qos, b->w_qos);
	_add(t, "partition", a->part, b->part, a->w_part, b->w_part);
	_add(t, "jobsize", a->js, b->js, a->w_js, b->w_js);
	_add(t, "assoc", a->assoc, b->assoc, a->w_assoc, b->w_assoc);
	for (uint32_t i = 0; c->cfg.tres && i < a->tres_cnt &&
	     i < b->tres_cnt && i < c->cfg.tres->cnt; i++) {
		char *n = g_strdup_printf("tres/%s", c->cfg.tres->names[i]);

		_add(t, n, a->tres[i], b->tres[i], a->w_tres[i],
		     b->w_tres[i]);
		g_free(n);
	}
	_add(t, "site", NAN, NAN, (double) a->site, (double) b->site);
	_add(t, "nice", NAN, NAN, (double) -a->nice, (double) -b->nice);
	g_ptr_array_sort(t, _by_size);
	return t;
}

/* The row of J in partition P, or NULL. */
static const mf_prun_row_t *_row_in(const mf_prun_ctx_t *c,
				    const mf_prun_job_t *j, const mf_part_t *p)
{
	for (guint i = 0; i < c->rows->len; i++) {
		const mf_prun_row_t *r = c->rows->pdata[i];

		if (r->job == j && r->r.partition == p)
			return r;
	}
	return NULL;
}

/* The rows to compare: in the common partition of highest tier, else
 * each job's first. */
static void _pick_rows(const mf_prun_ctx_t *c, const mf_prun_job_t *a,
		       const mf_prun_job_t *b, const mf_prun_row_t **ra,
		       const mf_prun_row_t **rb)
{
	*ra = *rb = NULL;
	for (guint i = 0; i < c->rows->len; i++) {
		const mf_prun_row_t *r = c->rows->pdata[i];
		const mf_prun_row_t *o;

		if (r->job != a || !(o = _row_in(c, b, r->r.partition)))
			continue;
		if (!*ra || r->r.partition->priority_tier >
		    (*ra)->r.partition->priority_tier) {
			*ra = r;
			*rb = o;
		}
	}
	if (!*ra) {
		*ra = mf_prun_job_row(c, a);
		*rb = mf_prun_job_row(c, b);
	}
}

/* "3 d 4 h 5 min" (at least minutes; seconds under a minute). */
static char *_span(double s)
{
	GString *g = g_string_new(NULL);
	uint64_t v = (uint64_t) ceil(s);

	if (v < 60)
	{
		g_string_append_printf(g, "%" G_GUINT64_FORMAT " s", v);
		return g_string_free(g, FALSE);
	}
	v = (v + 59) / 60;
	if (v >= 1440)
		g_string_append_printf(g, "%" G_GUINT64_FORMAT " d ",
				       v / 1440);
	if (v >= 60)
		g_string_append_printf(g, "%" G_GUINT64_FORMAT " h ",
				       v / 60 % 24);
	g_string_append_printf(g, "%" G_GUINT64_FORMAT " min", v % 60);
	return g_string_free(g, FALSE);
}

static void _time_str(time_t t, char buf[32])
{
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, 32, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, 32, "%lld", (long long) t);
}

/* What the comparison found. */
typedef struct {
	const mf_prun_job_t *first, *later;
	const mf_prun_row_t *rf, *rl;   /* their rows */
	bool by_tier, tie;
	double gap;                     /* first's sum - later's, >= 0 */
	/* age: the later job reaches the first one's sum after
	 * age_seconds (age_can), or cannot before both stop aging */
	bool age_can;
	double age_seconds, age_max_gain;
	/* fair-share: the later job's factor needed (fs_can: at most 1) */
	bool fs_can;
	double fs_needed;
	const mf_assoc_t *later_assoc;
	double ue_needed;               /* classic: effective usage needed */
} _why_t;

static void _analyse(const mf_prun_ctx_t *c, _why_t *w)
{
	const mf_prio_result_t *f = &w->rf->r, *l = &w->rl->r;
	double wa = c->cfg.weight_age, m = c->cfg.max_age;

	w->gap = f->sum - l->sum;
	if (w->by_tier || w->tie || f->direct || l->direct)
		return;
	/* age: both gain wa/m a second until each reaches 1; the later
	 * job gains on the first only after the first has reached 1 */
	if (wa > 0 && m > 0 && f->age > l->age) {
		w->age_max_gain = wa * (f->age - l->age);
		if (w->gap <= w->age_max_gain) {
			w->age_can = true;
			w->age_seconds = m * (w->gap / wa + (1.0 - f->age));
		}
	}
	if (c->cfg.weight_fs > 0) {
		w->fs_needed = l->fs + w->gap / c->cfg.weight_fs;
		w->fs_can = w->fs_needed <= 1.0;
		if (c->tree)
			w->later_assoc = mf_tree_find_job_assoc(
				c->tree, w->later->line->account,
				w->later->line->user,
				w->later->line->partitions ?
				w->later->line->partitions[0] : NULL);
		if (w->fs_can && w->later_assoc &&
		    c->fs_cfg.algo != MF_FS_FAIR_TREE &&
		    w->later_assoc->shares_norm > 0 && w->fs_needed > 0)
			w->ue_needed = -log2(w->fs_needed) *
				w->later_assoc->shares_norm * c->fs_cfg.damp;
	}
}

static const char *_id(const mf_prun_job_t *j)
{
	return j->line->job_id_str ? j->line->job_id_str : "?";
}

/* Why W's first job runs first when no factor decides: a higher tier, a
 * priority set by an administrator, or a tie.  Returns whether it was
 * one of these (and said so). */
static bool _print_special(FILE *out, const _why_t *w)
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
static void _print_terms(FILE *out, const mf_prun_ctx_t *c, const _why_t *w)
{
	const mf_prio_result_t *f = &w->rf->r, *l = &w->rl->r;
	GPtrArray *terms;

	terms = _terms(c, f, l);
	if (terms->len) {
		const _term_t *d = NULL;

		for (guint i = 0; i < terms->len && !d; i++)
			if (((_term_t *) terms->pdata[i])->wa >
			    ((_term_t *) terms->pdata[i])->wb)
				d = terms->pdata[i];
		if (d)
			fprintf(out, "The deciding factor is %s: it gives job "
				"%s %.1f more.\n", d->name, _id(w->first),
				d->wa - d->wb);
		fprintf(out, "The terms that differ, largest first:\n");
	}
	for (guint i = 0; i < terms->len; i++) {
		const _term_t *t = terms->pdata[i];
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
			      const _why_t *w, time_t now)
{
	const mf_prio_result_t *f = &w->rf->r, *l = &w->rl->r;
	char tbuf[32];

	if (w->age_can) {
		char *s = _span(w->age_seconds);

		_time_str(now + (time_t) ceil(w->age_seconds), tbuf);
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
			     const _why_t *w)
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
static void _print_text(FILE *out, const mf_prun_ctx_t *c, const _why_t *w,
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

static void _print_json(FILE *out, const mf_prun_ctx_t *c,
			const mf_prun_opts_t *o, const _why_t *w)
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
	terms = _terms(c, &w->rf->r, &w->rl->r);
	mf_json_begin_array(&j, "terms");
	for (guint i = 0; !w->by_tier && i < terms->len; i++) {
		const _term_t *t = terms->pdata[i];

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

static int _why(mf_iopts_t *io, const char *ida, const char *idb, bool json)
{
	mf_prun_ctx_t c = { 0 };
	const mf_prun_job_t *a, *b;
	const mf_prun_row_t *ra, *rb;
	_why_t w = { 0 };
	int rc = mf_iopt_run(io, &c);

	if (!rc) {
		io->o.explain = ida;
		rc = mf_prun_explained(&c, &io->o, &a);
	}
	if (!rc) {
		io->o.explain = idb;
		rc = mf_prun_explained(&c, &io->o, &b);
	}
	io->o.explain = NULL;
	if (!rc && a == b) {
		mf_cmd_error("why: %s and %s are the same job", ida, idb);
		rc = MF_EXIT_USAGE;
	}
	if (rc) {
		mf_prun_clear(&c);
		return rc;
	}
	_pick_rows(&c, a, b, &ra, &rb);
	if (ra->r.partition->priority_tier != rb->r.partition->priority_tier) {
		bool a_first = ra->r.partition->priority_tier >
			rb->r.partition->priority_tier;

		w.by_tier = true;
		w.first = a_first ? a : b;
		w.later = a_first ? b : a;
	} else if (ra->r.priority != rb->r.priority) {
		bool a_first = ra->r.priority > rb->r.priority;

		w.first = a_first ? a : b;
		w.later = a_first ? b : a;
	} else {
		bool a_first = a->job.job_id < b->job.job_id;

		w.tie = true;
		w.first = a_first ? a : b;
		w.later = a_first ? b : a;
	}
	w.rf = w.first == a ? ra : rb;
	w.rl = w.first == a ? rb : ra;
	_analyse(&c, &w);
	if (json)
		_print_json(stdout, &c, &io->o, &w);
	else
		_print_text(stdout, &c, &w, io->o.now);
	mf_prun_clear(&c);
	return MF_EXIT_OK;
}

/* why's operands (two job ids), then the comparison.  Returns an exit
 * status. */
static int _why_run(mf_iopts_t *io, int n, char **ops, bool json)
{
	int rc;

	if (n != 2) {
		mf_cmd_error("why: two job ids are needed (JOB_A JOB_B)");
		mf_iopt_usage(stderr, &_help);
		return MF_EXIT_USAGE;
	}
	for (int i = 0; i < 2; i++) {
		if (!g_ascii_isdigit(*ops[i])) {
			mf_cmd_error("why: '%s' is not a job id (JOBID, or an "
				     "array task ARRAYID_TASK)", ops[i]);
			return MF_EXIT_USAGE;
		}
	}
	if ((rc = mf_iopt_finish(io, "why")))
		return rc;
	return _why(io, ops[0], ops[1], json);
}

int cmd_why(int argc, char **argv)
{
	return mf_iopt_main(argc, argv, &_help, _why_run);
}
