/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * history_json: the accounts' figures over time as JSON (history_json.h).
 */
#include <math.h>

#include <glib.h>

#include "history_json.h"
#include "json_out.h"

/* The N figures V as an array KEY, 6 significant digits, NAN as null. */
static void _figures(mf_json_t *j, const char *key, const double *v,
		     guint n)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	mf_json_begin_array(j, key);
	for (guint i = 0; i < n; i++) {
		if (!isfinite(v[i])) {
			mf_json_null(j, NULL);
			continue;
		}
		g_ascii_formatd(buf, sizeof(buf), "%.6g", v[i]);
		mf_json_double(j, NULL, g_ascii_strtod(buf, NULL));
	}
	mf_json_end_array(j);
}

void mf_history_json(FILE *out, const mf_fshist_t *h)
{
	guint n = h->snaps->len;
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "kind", "snapshots");
	mf_json_string(&j, "dir", h->dir);
	mf_json_uint(&j, "found", h->n_found);
	mf_json_uint(&j, "max_points", MF_FSHIST_MAX_POINTS);
	mf_json_begin_array(&j, "snapshots");
	for (guint i = 0; i < n; i++) {
		const mf_fshist_snap_t *s =
			&g_array_index(h->snaps, mf_fshist_snap_t, i);

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "name", s->name);
		mf_json_int(&j, "time", (int64_t) s->taken);
		mf_json_string(&j, "algorithm", mf_fs_algo_name(s->algo));
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_begin_array(&j, "skipped");
	for (guint i = 0; i < h->skipped->len; i++) {
		const mf_fshist_skip_t *s =
			&g_array_index(h->skipped, mf_fshist_skip_t, i);

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "name", s->name);
		mf_json_string(&j, "why", s->why);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_begin_array(&j, "accounts");
	for (guint i = 0; i < h->accts->len; i++) {
		const mf_fshist_acct_t *a = h->accts->pdata[i];

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "account", a->acct);
		mf_json_string(&j, "parent", a->parent);
		_figures(&j, "norm_shares", a->shares, n);
		_figures(&j, "effective_usage", a->usage, n);
		_figures(&j, "raw_usage", a->raw, n);
		_figures(&j, "level_fs", a->level_fs, n);
		_figures(&j, "fairshare", a->fs, n);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}

void mf_history_replay_json(FILE *out, const mf_rjson_t *r,
			    const char *path)
{
	guint users = MIN(r->series->len, MF_HISTORY_MAX_USERS);
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "kind", "replay");
	mf_json_string(&j, "file", path);
	mf_json_string(&j, "history", r->history);
	mf_json_int(&j, "from", r->from);
	mf_json_int(&j, "to", r->to);
	mf_json_string(&j, "before", r->algo_before);
	mf_json_string(&j, "after", r->algo_after);
	mf_json_uint(&j, "max_points", MF_FSHIST_MAX_POINTS);
	mf_json_uint(&j, "series_in_file", r->series->len);
	mf_json_begin_array(&j, "users");
	for (guint i = 0; i < users; i++) {
		const mf_rjson_series_t *s = r->series->pdata[i];
		bool *keep = mf_fshist_pick(s->n, MF_FSHIST_MAX_POINTS);
		double *v[2] = { g_new(double, s->n + 1),
				 g_new(double, s->n + 1) };
		guint m = 0;

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "account", s->acct);
		mf_json_string(&j, "user", s->user);
		mf_json_begin_array(&j, "time");
		for (guint k = 0; k < s->n; k++) {
			if (!keep[k])
				continue;
			mf_json_int(&j, NULL, s->time[k]);
			v[0][m] = s->before[k];
			v[1][m++] = s->after[k];
		}
		mf_json_end_array(&j);
		_figures(&j, "fs_before", v[0], m);
		_figures(&j, "fs_after", v[1], m);
		mf_json_end_object(&j);
		g_free(v[0]);
		g_free(v[1]);
		g_free(keep);
	}
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}
