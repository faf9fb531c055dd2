/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_out: the renderings of a replay (replay_out.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_status.h"
#include "json_out.h"
#include "markup.h"
#include "replay_out.h"

static void _time_str(time_t t, char *buf, size_t len)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

void mf_replay_csv_series(const mf_rctx_t *c, const bool *sel, FILE *out)
{
	guint n = c->users->len, cur = 0;
	char tb[32];

	fprintf(out, "time,account,user,fs_before,fs_after,usage_before,"
		"usage_after\n");
	for (guint k = 0; k < c->s[0].times->len; k++) {
		guint k1 = mf_rctx_after_sample(c, k, &cur);

		_time_str(g_array_index(c->s[0].times, time_t, k), tb,
			  sizeof(tb));
		for (guint u = 0; u < n; u++) {
			const mf_assoc_t *a = mf_rctx_user(c, 0, u);

			if (!sel[u])
				continue;
			fprintf(out, "%s,%s,%s,%.6f,%.6f,%.0f,%.0f\n", tb,
				a->acct, a->user, mf_rside_fs_at(&c->s[0], n, k, u),
				mf_rside_fs_at(&c->s[1], n, k1, u),
				mf_rside_usage_at(&c->s[0], n, k, u),
				mf_rside_usage_at(&c->s[1], n, k1, u));
		}
	}
}

void mf_replay_csv_final(const mf_rctx_t *c, FILE *out)
{
	const mf_tree_t *t0 = c->s[0].tree, *t1 = c->s[1].tree;

	fprintf(out, "account,user,usage_before,fs_before,usage_after,"
		"fs_after\n");
	for (guint i = 0; i < t0->order->len; i++) {
		const mf_assoc_t *a = t0->order->pdata[i];
		const mf_assoc_t *b = t1->order->pdata[i];
		double fa = a->user ? mf_replay_job_fs(a, &c->s[0].rc.fs) :
			    a->fs_factor;
		double fb = b->user ? mf_replay_job_fs(b, &c->s[1].rc.fs) :
			    b->fs_factor;

		fprintf(out, "%s,%s,%.2Lf,", a->acct, a->user ? a->user : "",
			a->usage_raw);
		if (!isnan(fa))
			fprintf(out, "%.6f", fa);
		fprintf(out, ",%.2Lf,", b->usage_raw);
		if (!isnan(fb))
			fprintf(out, "%.6f", fb);
		fputc('\n', out);
	}
}

static const char *_acct_of(const mf_rctx_t *c, const mf_replay_job_t *j)
{
	return c->h->acct->pdata[j->assoc];
}

static const char *_user_of(const mf_rctx_t *c, const mf_replay_job_t *j)
{
	return c->h->user->pdata[j->assoc];
}

void mf_replay_csv_jobs(const mf_rctx_t *c, FILE *out)
{
	char tb[32];

	fprintf(out, "job_id,account,user,partition,start,pending,"
		"priority_before,rank_before,priority_after,rank_after\n");
	for (guint i = 0; i < c->h->jobs->len; i++) {
		const mf_replay_job_t *j = &g_array_index(c->h->jobs,
							  mf_replay_job_t, i);
		const mf_replay_out_t *b = &c->s[0].out[i], *a = &c->s[1].out[i];

		if (!b->rank && !a->rank)
			continue;
		_time_str((time_t)j->start, tb, sizeof(tb));
		fprintf(out, "%u,%s,%s,%s,%s,%u,%u,%u,%u,%u\n", j->job_id,
			_acct_of(c, j), _user_of(c, j),
			(const char *)c->h->part->pdata[j->part], tb,
			b->pending, b->priority, b->rank, a->priority,
			a->rank);
	}
}

/* Per user in an account (the history's association of its first job
 * there: its partitions summed): its ranked jobs, rank sums and moves. */
typedef struct {
	uint32_t jobs, ahead, behind;
	double rank[2], prio[2];
} _usum_t;

/* The first history association of each one's account and user. */
static uint32_t *_user_keys(const mf_rctx_t *c)
{
	guint n = c->h->acct->len;
	uint32_t *key = g_new(uint32_t, n ? n : 1);
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);

	for (guint i = 0; i < n; i++) {
		char *k = g_strconcat(c->h->acct->pdata[i], "\n",
				      c->h->user->pdata[i], NULL);
		gpointer v;

		if (g_hash_table_lookup_extended(seen, k, NULL, &v)) {
			key[i] = GPOINTER_TO_UINT(v);
			g_free(k);
		} else {
			key[i] = i;
			g_hash_table_insert(seen, k, GUINT_TO_POINTER(i));
		}
	}
	g_hash_table_destroy(seen);
	return key;
}

static _usum_t *_user_sums(const mf_rctx_t *c)
{
	guint n = c->h->acct->len;
	_usum_t *sum = g_new0(_usum_t, n ? n : 1);
	uint32_t *key = _user_keys(c);

	for (guint i = 0; i < c->h->jobs->len; i++) {
		const mf_replay_job_t *j = &g_array_index(c->h->jobs,
							  mf_replay_job_t, i);
		const mf_replay_out_t *b = &c->s[0].out[i], *a = &c->s[1].out[i];
		_usum_t *u = &sum[key[j->assoc]];

		if (!b->rank || !a->rank)
			continue;
		u->jobs++;
		u->rank[0] += b->rank;
		u->rank[1] += a->rank;
		u->prio[0] += b->priority;
		u->prio[1] += a->priority;
		if (a->rank < b->rank)
			u->ahead++;
		else if (a->rank > b->rank)
			u->behind++;
	}
	g_free(key);
	return sum;
}

void mf_replay_csv_users(const mf_rctx_t *c, FILE *out)
{
	_usum_t *sum = _user_sums(c);

	fprintf(out, "account,user,jobs,mean_rank_before,"
		"mean_rank_after,ahead,behind,mean_priority_before,"
		"mean_priority_after\n");
	for (guint i = 0; i < c->h->acct->len; i++) {
		const _usum_t *u = &sum[i];

		if (!u->jobs)
			continue;
		fprintf(out, "%s,%s,%u,%.2f,%.2f,%u,%u,%.1f,%.1f\n",
			(const char *)c->h->acct->pdata[i],
			(const char *)c->h->user->pdata[i], u->jobs,
			u->rank[0] / u->jobs, u->rank[1] / u->jobs, u->ahead,
			u->behind, u->prio[0] / u->jobs, u->prio[1] / u->jobs);
	}
	g_free(sum);
}

static void _json_side(mf_json_t *j, const char *key, const mf_rside_t *s)
{
	mf_json_begin_object(j, key);
	mf_json_string(j, "fairshare", mf_fs_algo_name(s->rc.fs.algo));
	mf_json_uint(j, "damp", s->rc.fs.damp);
	mf_json_uint(j, "calc_period", s->rc.calc_period);
	mf_json_uint(j, "half_life", s->rc.half_life);
	mf_json_string(j, "reset_period", mf_reset_period_name(s->rc.reset));
	mf_json_bool(j, "charge_at_end", s->rc.charge_at_end);
	mf_json_int(j, "ticks", s->ticks);
	mf_json_end_object(j);
}

/* The "series" array: for each user SEL selects, the fair-share factor
 * before and after at each sample.  Returns nothing. */
static void _json_series(mf_json_t *j, const mf_rctx_t *c, const bool *sel)
{
	guint n = c->users->len;

	mf_json_begin_array(j, "series");
	for (guint u = 0; u < n; u++) {
		const mf_assoc_t *a = mf_rctx_user(c, 0, u);
		guint cur = 0;

		if (!sel[u])
			continue;
		mf_json_begin_object(j, NULL);
		mf_json_string(j, "account", a->acct);
		mf_json_string(j, "user", a->user);
		mf_json_begin_array(j, "time");
		for (guint k = 0; k < c->s[0].times->len; k++)
			mf_json_int(j, NULL, (int64_t)g_array_index(
				c->s[0].times, time_t, k));
		mf_json_end_array(j);
		for (int side = 0; side < 2; side++) {
			mf_json_begin_array(j, side ? "fs_after" :
					    "fs_before");
			cur = 0;
			for (guint k = 0; k < c->s[0].times->len; k++) {
				guint kk = side ? mf_rctx_after_sample(c, k, &cur) : k;

				mf_json_double(j, NULL, (double)mf_rside_fs_at(
					&c->s[side], n, kk, u));
			}
			mf_json_end_array(j);
		}
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
}

/* The "final" array: every association's usage and fair-share factor
 * at the end, before and after.  Returns nothing. */
static void _json_final(mf_json_t *j, const mf_rctx_t *c)
{
	mf_json_begin_array(j, "final");
	for (guint i = 0; i < c->s[0].tree->order->len; i++) {
		mf_json_begin_object(j, NULL);
		for (int side = 0; side < 2; side++) {
			const mf_assoc_t *a = c->s[side].tree->order->pdata[i];
			double f = a->user ?
				   mf_replay_job_fs(a, &c->s[side].rc.fs) :
				   a->fs_factor;

			if (!side) {
				mf_json_string(j, "account", a->acct);
				mf_json_string(j, "user", a->user);
			}
			mf_json_double(j, side ? "usage_after" :
				       "usage_before", (double)a->usage_raw);
			mf_json_double(j, side ? "fs_after" : "fs_before", f);
		}
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
}

/* The "jobs" array: each job ranked on either side, with its priority
 * and rank before and after.  Returns nothing. */
static void _json_jobs(mf_json_t *j, const mf_rctx_t *c)
{
	mf_json_begin_array(j, "jobs");
	for (guint i = 0; i < c->h->jobs->len; i++) {
		const mf_replay_job_t *jb = &g_array_index(c->h->jobs,
							   mf_replay_job_t, i);
		const mf_replay_out_t *b = &c->s[0].out[i], *a = &c->s[1].out[i];

		if (!b->rank && !a->rank)
			continue;
		mf_json_begin_object(j, NULL);
		mf_json_uint(j, "job_id", jb->job_id);
		mf_json_string(j, "account", _acct_of(c, jb));
		mf_json_string(j, "user", _user_of(c, jb));
		mf_json_int(j, "start", jb->start);
		mf_json_uint(j, "pending", b->pending);
		mf_json_uint(j, "priority_before", b->priority);
		mf_json_uint(j, "rank_before", b->rank);
		mf_json_uint(j, "priority_after", a->priority);
		mf_json_uint(j, "rank_after", a->rank);
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
}

/* The "users" array: each user's jobs, mean ranks and how many jobs
 * moved ahead or behind.  Returns nothing. */
static void _json_users(mf_json_t *j, const mf_rctx_t *c)
{
	_usum_t *sum = _user_sums(c);

	mf_json_begin_array(j, "users");
	for (guint i = 0; i < c->h->acct->len; i++) {
		const _usum_t *u = &sum[i];

		if (!u->jobs)
			continue;
		mf_json_begin_object(j, NULL);
		mf_json_string(j, "account", c->h->acct->pdata[i]);
		mf_json_string(j, "user", c->h->user->pdata[i]);
		mf_json_uint(j, "jobs", u->jobs);
		mf_json_double(j, "mean_rank_before", u->rank[0] / u->jobs);
		mf_json_double(j, "mean_rank_after", u->rank[1] / u->jobs);
		mf_json_uint(j, "ahead", u->ahead);
		mf_json_uint(j, "behind", u->behind);
		mf_json_end_object(j);
	}
	mf_json_end_array(j);
	g_free(sum);
}

/* The replay C of FROM to TO as JSON, the series of the users SEL
 * selects.  Returns nothing. */
void mf_replay_json(const mf_rctx_t *c, const bool *sel, time_t from, time_t to,
		  FILE *out)
{
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "note", mf_replay_note);
	mf_json_string(&j, "history", c->h->path);
	mf_json_int(&j, "from", (int64_t)from);
	mf_json_int(&j, "to", (int64_t)to);
	_json_side(&j, "before", &c->s[0]);
	_json_side(&j, "after", &c->s[1]);

	_json_series(&j, c, sel);
	_json_final(&j, c);
	_json_jobs(&j, c);
	_json_users(&j, c);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}

#define SVG_W 860.0
#define SVG_H 420.0
#define SVG_L 60.0
#define SVG_R 200.0
#define SVG_T 40.0
#define SVG_B 50.0

/* The SVG's opening, its axes and the first and last sample times T0 at
 * their ends.  Returns nothing. */
static void _svg_axes(FILE *out, const GArray *t0)
{
	guint ns = t0->len;
	double pw = SVG_W - SVG_L - SVG_R, ph = SVG_H - SVG_T - SVG_B;
	char tb[32];

	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"%.0f\" y=\"20\" font-size=\"14\">fair-share factor "
		"over time: before (dashed), after (solid)</text>\n",
		SVG_W, SVG_H, SVG_L);
	fprintf(out, "<g stroke=\"#999\">"
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\"/>"
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\"/></g>\n",
		SVG_L, SVG_T, SVG_L, SVG_T + ph, SVG_L, SVG_T + ph, SVG_L + pw,
		SVG_T + ph);
	for (int y = 0; y <= 4; y++)
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
			"%.2f</text>\n", SVG_L - 6, SVG_T + ph - ph * y / 4 + 4,
			y / 4.0);
	if (ns) {
		_time_str(g_array_index(t0, time_t, 0), tb, sizeof(tb));
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", SVG_L,
			SVG_T + ph + 20, tb);
		_time_str(g_array_index(t0, time_t, ns - 1), tb, sizeof(tb));
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
			"%s</text>\n", SVG_L + pw, SVG_T + ph + 20, tb);
	}
}

/* The lines of user U's fair-share factor before (dashed) and after, in
 * colour COL, and its name as the SHOWN-th in the key.  Returns
 * nothing. */
static void _svg_user(FILE *out, const mf_rctx_t *c, guint u, const char *col,
		      int shown)
{
	const GArray *t0 = c->s[0].times;
	const mf_assoc_t *a = mf_rctx_user(c, 0, u);
	guint n = c->users->len, ns = t0->len;
	double pw = SVG_W - SVG_L - SVG_R, ph = SVG_H - SVG_T - SVG_B;
	double tmin = ns ? (double)g_array_index(t0, time_t, 0) : 0;
	double tspan = ns > 1 ?
		       (double)g_array_index(t0, time_t, ns - 1) - tmin : 1;

	for (int side = 0; side < 2; side++) {
		guint cur = 0;

		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"1.5\"%s points=\"", col,
			side ? "" : " stroke-dasharray=\"5,3\"");
		for (guint k = 0; k < ns; k++) {
			guint kk = side ? mf_rctx_after_sample(c, k, &cur) : k;
			double x = SVG_L + pw *
				((double)g_array_index(t0, time_t, k) -
				 tmin) / tspan;
			double y = SVG_T + ph - ph *
				(double)mf_rside_fs_at(&c->s[side], n, kk, u);

			fprintf(out, "%.1f,%.1f ", x, y);
		}
		fprintf(out, "\"/>\n");
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">", SVG_L +
		pw + 10, SVG_T + 16.0 * shown + 10, col);
	mf_markup_text(out, a->acct);
	fputc('/', out);
	mf_markup_text(out, a->user);
	fprintf(out, "</text>\n");
}

/* The fair-share factors of the users SEL selects over time, before and
 * after, as SVG to PATH ("-": stdout).  Returns an exit status. */
int mf_replay_svg(const mf_rctx_t *c, const bool *sel, const char *path)
{
	static const char *const colors[] = {
		"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
		"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int shown = 0;

	if (!out) {
		mf_print_error("--svg %s: cannot write it", path);
		return MF_EXIT_INPUT;
	}
	_svg_axes(out, c->s[0].times);
	for (guint u = 0; u < c->users->len; u++) {
		if (!sel[u])
			continue;
		_svg_user(out, c, u, colors[shown % 10], shown);
		shown++;
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">%s</text>\n"
		"</svg>\n", SVG_L, SVG_H - 8, mf_replay_note);
	if (out != stdout ? fclose(out) : fflush(out)) {
		mf_print_error("--svg %s: write failed", path);
		return MF_EXIT_INPUT;
	}
	return MF_EXIT_OK;
}

