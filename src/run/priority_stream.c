/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_stream: the plain table's run over a dump of any size
 * (priority_stream.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_status.h"
#include "jobs_input.h"
#include "priority_stream.h"

/* Whether NAME is in the NULL-ended LIST (NULL: every name is). */
static bool _in_list(char *const *list, const char *name)
{
	if (!list)
		return true;
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/* Whether the row of job J in R's partition is one sprio's -j, -u, -p
 * select. */
static bool _selected(const mf_prun_opts_t *o, const mf_prun_job_t *j,
		      const mf_prio_result_t *r)
{
	char id[16];

	if (o->sel_jobs) {
		snprintf(id, sizeof(id), "%u", j->job.job_id);
		if (!_in_list(o->sel_jobs, id))
			return false;
	}
	return _in_list(o->sel_users, j->line->user) &&
	       _in_list(o->sel_parts, r->partition ? r->partition->name : "");
}

static void _lean_add(mf_pstream_t *st, const mf_prun_job_t *j,
		      const mf_prio_result_t *r)
{
	mf_lean_t row = {
		.job_id = j->job.job_id, .direct = r->direct,
		.user = j->line->user, .part = r->partition,
		.sprio = mf_prun_sprio_sum(r),
		.w = { r->w_age, r->w_assoc, r->w_fs, r->w_js, r->w_part,
		       r->w_qos },
		.site = r->site, .nice = r->nice,
	};

	if (!_selected(st->o, j, r))
		return;
	if (r->clamped && !st->c->clamp_warned) {
		mf_prun_warn("job %u: priority %.0f is above 4294967295 and is "
		      "clamped to it (Slurm does the same and logs it; sprio "
		      "shows the unclamped sum); lower the weights",
		      j->job.job_id, r->sum);
		st->c->clamp_warned = true;
	}
	for (uint32_t k = 0; k < st->weighted_cnt; k++)
		g_array_append_val(st->tres, r->w_tres[st->weighted[k]]);
	g_array_append_val(st->rows, row);
}

static int _stream_fn(mf_job_line_t *l, void *arg)
{
	mf_pstream_t *st = arg;
	mf_prun_ctx_t *c = st->c;
	uint32_t tres_cnt = c->pc->tres->cnt;
	mf_prun_job_t j = { .line = l };
	int rc;

	if (!mf_prun_listed(c, l, st->now)) {
		mf_job_line_free(l);
		return 0;
	}
	if ((rc = mf_prun_build_job(c, &j, st->now, &st->bc))) {
		if (rc == MF_PRUN_BUILD_SKIP)
			rc = 0;
		goto out;
	}
	mf_prio_result_bind(&j.base, tres_cnt, st->scratch);
	mf_priority_compute(&c->cfg, &j.job, st->now, &j.base);
	if (!j.job.parts) {
		_lean_add(st, &j, &j.base);
	} else {
		mf_prio_result_t r;

		mf_prio_result_bind(&r, tres_cnt, st->scratch + 2 * tres_cnt);
		for (uint32_t k = 0; k < j.job.part_cnt; k++) {
			mf_priority_in_part(&c->cfg, &j.job, &j.base,
					    j.job.parts[k], &r);
			_lean_add(st, &j, &r);
		}
		mf_prio_result_clear(&r);
	}
out:
	mf_prun_job_clear(&j);
	mf_job_line_free(l);
	return rc;
}

/* Sort keys: job id in the high half, row index in the low one (a job's
 * partitions stay in tier order, as computed). */
static int _key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* -S: compare two rows (their indexes in A and B) field by field. */
typedef struct {
	const mf_lean_t *rows;
	const double *tres;
	uint32_t tres_cnt;
	const char *sort;
	uint32_t weighted_cnt;       /* a row's weighted TRES (MF_TRES_AT) */
} _sort_ctx_t;

static double _tres_sum(const _sort_ctx_t *s, const mf_lean_t *r)
{
	double sum = 0.0;

	for (uint32_t k = 0; k < s->tres_cnt; k++)
		sum += s->tres[MF_TRES_AT(r - s->rows, s->weighted_cnt) + k];
	return sum;
}

static int _sort_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const _sort_ctx_t *s = data;
	uint32_t ia = (uint32_t)*(const uint64_t *)a;
	uint32_t ib = (uint32_t)*(const uint64_t *)b;
	const mf_lean_t *x = &s->rows[ia], *y = &s->rows[ib];

	for (const char *p = s->sort; *p; p++) {
		bool desc = p > s->sort && p[-1] == '-';
		double dx = 0, dy = 0;
		int c = 0;

		switch (*p) {
		case 'i': dx = x->job_id; dy = y->job_id; break;
		case 'y': case 'Y': dx = x->sprio; dy = y->sprio; break;
		case 'a': case 'A': dx = x->w[0]; dy = y->w[0]; break;
		case 'f': case 'F': dx = x->w[2]; dy = y->w[2]; break;
		case 'j': case 'J': dx = x->w[3]; dy = y->w[3]; break;
		case 'p': case 'P': dx = x->w[4]; dy = y->w[4]; break;
		case 'q': case 'Q': dx = x->w[5]; dy = y->w[5]; break;
		case 'N': dx = (double)x->nice; dy = (double)y->nice; break;
		case 't': case 'T':
			dx = _tres_sum(s, x);
			dy = _tres_sum(s, y);
			break;
		case 'u': c = strcmp(x->user, y->user); break;
		case 'r':
			c = strcmp(x->part ? x->part->name : "",
				   y->part ? y->part->name : "");
			break;
		default: continue;
		}
		if (!c)
			c = (dx > dy) - (dx < dy);
		if (c)
			return desc ? -c : c;
	}
	return ia < ib ? -1 : ia > ib;
}

/* Whether SORT is a list sprio takes of the fields _sort_cmp() knows. */
bool mf_pstream_sort_valid(const char *sort)
{
	for (const char *p = sort; *p; p++)
		if (*p != ',' && *p != '+' && *p != '-' &&
		    !strchr("iyYaAfFjJpPqQNtTur", *p))
			return false;
	return true;
}

uint64_t *mf_pstream_order(const mf_pstream_t *st, const char *sort)
{
	const mf_lean_t *rows = (const mf_lean_t *)(void *)st->rows->data;
	const double *tres = (const double *)(void *)st->tres->data;
	uint64_t *order = g_new(uint64_t, st->rows->len ? st->rows->len : 1);
	bool sorted = true;

	for (guint i = 0; i < st->rows->len; i++) {
		order[i] = (uint64_t)rows[i].job_id << 32 | i;
		sorted = sorted && (!i || order[i - 1] < order[i]);
	}
	if (sort) {
		_sort_ctx_t sc = { rows, tres, st->c->pc->tres->cnt, sort,
				   st->weighted_cnt };

		g_qsort_with_data(order, (gint)st->rows->len, sizeof(*order),
				  _sort_cmp, &sc);
	} else if (!sorted) {
		qsort(order, st->rows->len, sizeof(*order), _key_cmp);
	}
	return order;
}

int mf_pstream_run(mf_pstream_t *st, mf_prun_ctx_t *c, const mf_prun_opts_t *o)
{
	mf_error_t e;
	int rc;

	memset(st, 0, sizeof(*st));
	st->c = c;
	st->o = o;
	st->now = o->now;
	st->rows = g_array_new(FALSE, FALSE, sizeof(mf_lean_t));
	st->tres = g_array_new(FALSE, FALSE, sizeof(double));
	st->weighted = g_new0(uint32_t, c->pc->tres->cnt + 1);
	for (uint32_t k = 0; c->cfg.weight_tres && k < c->pc->tres->cnt; k++)
		if (c->cfg.weight_tres[k])
			st->weighted[st->weighted_cnt++] = k;
	mf_prun_bcache_init(&st->bc);
	st->scratch = g_new0(double, 4 * (size_t)c->pc->tres->cnt + 1);
	rc = mf_jobs_each(o->jobs, _stream_fn, st, &e);
	mf_prun_bcache_clear(&st->bc);
	g_free(st->scratch);
	st->scratch = NULL;
	if (rc < 0) {
		mf_print_error("%s", e.text);
		rc = MF_EXIT_INPUT;
	}
	return rc;
}

void mf_pstream_clear(mf_pstream_t *st)
{
	if (st->rows)
		g_array_free(st->rows, TRUE);
	if (st->tres)
		g_array_free(st->tres, TRUE);
	g_free(st->weighted);
	memset(st, 0, sizeof(*st));
}
