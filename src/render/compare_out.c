/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_out: `mfprio compare`'s moves as text and JSON
 * (compare_out.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_out.h"
#include "json_out.h"
#include "priority_json.h"

/* --- output ----------------------------------------------------------- */

static const char *const _job_header[] = {
	"JOBID", "USER", "ACCOUNT", "PARTITION", "RANK_BEFORE", "RANK_AFTER",
	"MOVE", "PRIO_BEFORE", "PRIO_AFTER", "CHANGE",
};
static const int _job_width[] = { -10, -10, -10, -10, 11, 10, 6, 11, 10,
				   10 };
static const char *const _user_header[] = {
	"USER", "ACCOUNT", "JOBS", "BEST_BEFORE", "BEST_AFTER", "MOVE",
	"MEAN_BEFORE", "MEAN_AFTER", "FS_BEFORE", "FS_AFTER",
};
static const int _user_width[] = { -10, -10, 5, 11, 10, 6, 11, 10, 9, 9 };

/* Print N fields, '|'-separated or padded to WIDTH (negative: left). */
static void _fields(FILE *out, char *const *f, const int *width, size_t n,
		    bool parsable)
{
	for (size_t i = 0; i < n; i++) {
		if (parsable)
			fprintf(out, "%s%s", i ? "|" : "", f[i]);
		else
			fprintf(out, "%s%*s", i ? " " : "", width[i], f[i]);
	}
	fputc('\n', out);
}

static char *_num(bool set, long long v)
{
	return set ? g_strdup_printf("%lld", v) : g_strdup("-");
}

static char *_signed(bool set, long long v)
{
	if (!set)
		return g_strdup("-");
	return v ? g_strdup_printf("%+lld", v) : g_strdup("0");
}

/* V with DECIMALS decimals, or "-" for NaN (nothing listed). */
static char *_real(double v, int decimals)
{
	return isnan(v) ? g_strdup("-") : g_strdup_printf("%.*f", decimals, v);
}

static void _free_fields(char **f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		g_free(f[i]);
}

void mf_cmp_print_text(FILE *out, const mf_prun_opts_t *o,
			const GPtrArray *jobs, const GPtrArray *users,
			uint32_t moved, uint32_t changed)
{
	if (!o->parsable) {
		fprintf(out, "before: %s as it is\n", o->conf);
		if (o->sets->len)
			fprintf(out, "after:  %s with", o->conf);
		else
			fprintf(out, "after:  the same (no --set, --flags or "
				"--damp given)");
		for (guint i = 0; i < o->sets->len; i++) {
			const mf_conf_pair_t *p = o->sets->pdata[i];

			fprintf(out, "%s %s=%s", i ? "," : "", p->key,
				p->value);
		}
		fprintf(out, "\n%u job(s) ranked: %u moved, %u changed "
			"priority\n\n", jobs->len, moved, changed);
	}
	if (!o->noheader)
		_fields(out, (char *const *)_job_header, _job_width,
			G_N_ELEMENTS(_job_header), o->parsable);
	for (guint i = 0; i < jobs->len; i++) {
		const mf_cmp_job_t *e = jobs->pdata[i];
		const mf_cmp_side_t *b = &e->s[0], *a = &e->s[1];
		bool both = a->listed && b->listed;
		char *f[G_N_ELEMENTS(_job_header)];

		f[0] = g_strdup_printf("%u", e->job_id);
		f[1] = g_strdup(e->user);
		f[2] = g_strdup(e->account);
		f[3] = g_strdup(e->partition);
		f[4] = _num(b->listed, b->rank);
		f[5] = _num(a->listed, a->rank);
		f[6] = _signed(both, (long long)b->rank - (long long)a->rank);
		f[7] = _num(b->listed, b->priority);
		f[8] = _num(a->listed, a->priority);
		f[9] = _signed(both, (long long)a->priority -
			       (long long)b->priority);
		_fields(out, f, _job_width, G_N_ELEMENTS(f), o->parsable);
		_free_fields(f, G_N_ELEMENTS(f));
	}
	fputc('\n', out);
	if (!o->noheader)
		_fields(out, (char *const *)_user_header, _user_width,
			G_N_ELEMENTS(_user_header), o->parsable);
	for (guint i = 0; i < users->len; i++) {
		const mf_cmp_user_t *u = users->pdata[i];
		char *f[G_N_ELEMENTS(_user_header)];

		f[0] = g_strdup(u->user);
		f[1] = g_strdup(u->account);
		f[2] = g_strdup_printf("%u", u->jobs);
		f[3] = _num(u->best[0], u->best[0]);
		f[4] = _num(u->best[1], u->best[1]);
		f[5] = _signed(u->best[0] && u->best[1],
			       (long long)u->best[0] - (long long)u->best[1]);
		f[6] = _real(u->n[0] ? u->rank_sum[0] / u->n[0] : NAN, 2);
		f[7] = _real(u->n[1] ? u->rank_sum[1] / u->n[1] : NAN, 2);
		f[8] = _real(u->fs[0], 6);
		f[9] = _real(u->fs[1], 6);
		_fields(out, f, _user_width, G_N_ELEMENTS(f), o->parsable);
		_free_fields(f, G_N_ELEMENTS(f));
	}
}

/* A member that is VALUE when SET, else null. */
static void _opt_int(mf_json_t *j, const char *key, bool set, int64_t v)
{
	if (set)
		mf_json_int(j, key, v);
	else
		mf_json_null(j, key);
}

void mf_cmp_print_json(FILE *out, const mf_prun_ctx_t c[2],
			const mf_prun_opts_t o[2], const GPtrArray *jobs,
			const GPtrArray *users, uint32_t moved,
			uint32_t changed)
{
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "command", "compare");
	mf_json_begin_object(&j, "settings");
	mf_prun_json_settings(&j, "before", &c[0], &o[0]);
	mf_prun_json_settings(&j, "after", &c[1], &o[1]);
	mf_json_end_object(&j);
	mf_json_begin_object(&j, "summary");
	mf_json_uint(&j, "jobs", jobs->len);
	mf_json_uint(&j, "moved", moved);
	mf_json_uint(&j, "priority_changed", changed);
	mf_json_end_object(&j);
	mf_json_begin_array(&j, "jobs");
	for (guint i = 0; i < jobs->len; i++) {
		const mf_cmp_job_t *e = jobs->pdata[i];
		const mf_cmp_side_t *b = &e->s[0], *a = &e->s[1];
		bool both = a->listed && b->listed;

		mf_json_begin_object(&j, NULL);
		mf_json_uint(&j, "job_id", e->job_id);
		mf_json_string(&j, "user", e->user);
		mf_json_string(&j, "account", e->account);
		mf_json_string(&j, "partition", e->partition);
		_opt_int(&j, "rank_before", b->listed, b->rank);
		_opt_int(&j, "rank_after", a->listed, a->rank);
		_opt_int(&j, "move", both, (int64_t)b->rank - a->rank);
		_opt_int(&j, "priority_before", b->listed, b->priority);
		_opt_int(&j, "priority_after", a->listed, a->priority);
		_opt_int(&j, "change", both,
			 (int64_t)a->priority - (int64_t)b->priority);
		mf_json_double(&j, "fairshare_before", b->listed ? b->fs : NAN);
		mf_json_double(&j, "fairshare_after", a->listed ? a->fs : NAN);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_begin_array(&j, "users");
	for (guint i = 0; i < users->len; i++) {
		const mf_cmp_user_t *u = users->pdata[i];

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "user", u->user);
		mf_json_string(&j, "account", u->account);
		mf_json_uint(&j, "jobs", u->jobs);
		_opt_int(&j, "best_rank_before", u->best[0], u->best[0]);
		_opt_int(&j, "best_rank_after", u->best[1], u->best[1]);
		_opt_int(&j, "move", u->best[0] && u->best[1],
			 (int64_t)u->best[0] - (int64_t)u->best[1]);
		mf_json_double(&j, "mean_rank_before",
			       u->n[0] ? u->rank_sum[0] / u->n[0] : NAN);
		mf_json_double(&j, "mean_rank_after",
			       u->n[1] ? u->rank_sum[1] / u->n[1] : NAN);
		mf_json_double(&j, "fairshare_before", u->fs[0]);
		mf_json_double(&j, "fairshare_after", u->fs[1]);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}

