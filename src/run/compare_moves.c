/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_moves: what `mfprio compare` finds between two runs
 * (compare_moves.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_moves.h"

/* Job ids of C's listed jobs by priority (highest first), then id. */
static gint _by_rank(gconstpointer a, gconstpointer b)
{
	const mf_prun_row_t *x = *(mf_prun_row_t *const *)a;
	const mf_prun_row_t *y = *(mf_prun_row_t *const *)b;

	if (x->r.priority != y->r.priority)
		return x->r.priority > y->r.priority ? -1 : 1;
	if (x->job->job.job_id != y->job->job.job_id)
		return x->job->job.job_id < y->job->job.job_id ? -1 : 1;
	return 0;
}

/* Fill side SIDE of the entries in BY_ID (job id -> mf_cmp_job_t, added as
 * needed to ALL) from C. */
void mf_cmp_side(const mf_prun_ctx_t *c, int side, GHashTable *by_id,
		  GPtrArray *all)
{
	GPtrArray *rows = g_ptr_array_new();

	for (guint i = 0; i < c->jobs->len; i++) {
		const mf_prun_row_t *row = mf_prun_job_row(c,
							   c->jobs->pdata[i]);

		if (row)
			g_ptr_array_add(rows, (gpointer)row);
	}
	g_ptr_array_sort(rows, _by_rank);
	for (guint i = 0; i < rows->len; i++) {
		const mf_prun_row_t *row = rows->pdata[i];
		uint32_t id = row->job->job.job_id;
		mf_cmp_job_t *e = g_hash_table_lookup(by_id,
						    GUINT_TO_POINTER(id));

		if (!e) {
			e = g_new0(mf_cmp_job_t, 1);
			e->job_id = id;
			e->user = row->job->line->user;
			e->account = row->job->line->account;
			e->partition = row->r.partition ?
				       row->r.partition->name : "";
			g_hash_table_insert(by_id, GUINT_TO_POINTER(id), e);
			g_ptr_array_add(all, e);
		}
		e->s[side].listed = true;
		e->s[side].rank = i + 1;
		e->s[side].priority = row->r.priority;
		e->s[side].fs = row->r.fs;
	}
	g_ptr_array_unref(rows);
}

/* How far a job moved: a job listed on one side only counts as the
 * largest move. */
int64_t mf_cmp_rank_move(const mf_cmp_job_t *e)
{
	if (!e->s[0].listed || !e->s[1].listed)
		return INT64_MAX;
	return llabs((long long)e->s[0].rank - (long long)e->s[1].rank);
}

int64_t mf_cmp_prio_change(const mf_cmp_job_t *e)
{
	if (!e->s[0].listed || !e->s[1].listed)
		return INT64_MAX;
	return llabs((long long)e->s[1].priority -
		     (long long)e->s[0].priority);
}

/* Largest rank move first, then largest priority change, then job id. */
gint mf_cmp_by_move(gconstpointer a, gconstpointer b)
{
	const mf_cmp_job_t *x = *(mf_cmp_job_t *const *)a;
	const mf_cmp_job_t *y = *(mf_cmp_job_t *const *)b;
	int64_t mx = mf_cmp_rank_move(x), my = mf_cmp_rank_move(y);

	if (mx != my)
		return mx > my ? -1 : 1;
	mx = mf_cmp_prio_change(x);
	my = mf_cmp_prio_change(y);
	if (mx != my)
		return mx > my ? -1 : 1;
	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

double mf_cmp_user_best_move(const mf_cmp_user_t *u)
{
	if (!u->best[0] || !u->best[1])
		return INFINITY;
	return fabs((double)u->best[0] - (double)u->best[1]);
}

double mf_cmp_user_mean_move(const mf_cmp_user_t *u)
{
	if (!u->n[0] || !u->n[1])
		return INFINITY;
	return fabs(u->rank_sum[0] / u->n[0] - u->rank_sum[1] / u->n[1]);
}

/* Largest best-rank move first, then mean-rank move, then fair-share
 * change, then user and account names. */
static gint _user_by_move(gconstpointer a, gconstpointer b)
{
	const mf_cmp_user_t *x = *(mf_cmp_user_t *const *)a;
	const mf_cmp_user_t *y = *(mf_cmp_user_t *const *)b;
	double mx = mf_cmp_user_best_move(x), my = mf_cmp_user_best_move(y);
	int r;

	if (mx != my)
		return mx > my ? -1 : 1;
	mx = mf_cmp_user_mean_move(x);
	my = mf_cmp_user_mean_move(y);
	if (mx != my)
		return mx > my ? -1 : 1;
	mx = fabs(x->fs[1] - x->fs[0]);
	my = fabs(y->fs[1] - y->fs[0]);
	if (!isnan(mx) && !isnan(my) && mx != my)
		return mx > my ? -1 : 1;
	if ((r = strcmp(x->user, y->user)))
		return r;
	return strcmp(x->account, y->account);
}

/* The users (user in account) of JOBS, in JOBS' order of appearance. */
GPtrArray *mf_cmp_users(const GPtrArray *jobs)
{
	GPtrArray *users = g_ptr_array_new_with_free_func(g_free);
	GHashTable *by_key = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, NULL);

	for (guint i = 0; i < jobs->len; i++) {
		const mf_cmp_job_t *e = jobs->pdata[i];
		char *key = g_strdup_printf("%s\n%s", e->user, e->account);
		mf_cmp_user_t *u = g_hash_table_lookup(by_key, key);

		if (!u) {
			u = g_new0(mf_cmp_user_t, 1);
			u->user = e->user;
			u->account = e->account;
			u->fs[0] = u->fs[1] = NAN;
			g_hash_table_insert(by_key, key, u);
			g_ptr_array_add(users, u);
		} else {
			g_free(key);
		}
		u->jobs++;
		for (int s = 0; s < 2; s++) {
			if (!e->s[s].listed)
				continue;
			u->n[s]++;
			u->rank_sum[s] += e->s[s].rank;
			if (!u->best[s] || e->s[s].rank < u->best[s])
				u->best[s] = e->s[s].rank;
			u->fs[s] = e->s[s].fs;
		}
	}
	g_hash_table_unref(by_key);
	g_ptr_array_sort(users, _user_by_move);
	return users;
}

