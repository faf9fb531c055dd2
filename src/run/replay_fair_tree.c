/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_fair_tree: Fair Tree between a replay's samples
 * (replay_fair_tree.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "job_fs_factor.h"
#include "level_fs.h"
#include "replay_fair_tree.h"
#include "shares_norm.h"

/* mf_tree_sum_usage()'s sums: an account's usage is its own plus each
 * child's whole subtree, child after child (the children's sums done
 * first).  The accounts in an order where each comes after its
 * descendants (post-order), each with its children. */
static void _ft_sum_prog(mf_rft_t *f, GHashTable *pos, const mf_assoc_t *a)
{
	uint32_t first;

	if (!a->children)
		return;
	for (guint i = 0; i < a->children->len; i++)
		_ft_sum_prog(f, pos, a->children->pdata[i]);
	first = f->n_add;
	for (guint i = 0; i < a->children->len; i++)
		f->add_c[f->n_add++] = GPOINTER_TO_UINT(
			g_hash_table_lookup(pos, a->children->pdata[i])) - 1;
	f->sum_p[f->n_sum] = GPOINTER_TO_UINT(g_hash_table_lookup(pos, a)) - 1;
	f->sum_first[f->n_sum] = first;
	f->sum_cnt[f->n_sum++] = a->children->len;
}

/* Ready the flat Fair Tree of tree T (POS: association -> position + 1). */
void mf_rft_init(mf_rft_t *f, mf_tree_t *t, GHashTable *pos)
{
	uint32_t n = t->order->len, nk = 0;

	f->n = n;
	f->users = t->user_count;
	f->a = (mf_assoc_t **)t->order->pdata;
	f->root = GPOINTER_TO_UINT(g_hash_table_lookup(pos, t->root)) - 1;
	f->add_c = g_new(uint32_t, n);
	f->sum_p = g_new(uint32_t, n);
	f->sum_first = g_new(uint32_t, n);
	f->sum_cnt = g_new(uint32_t, n);
	_ft_sum_prog(f, pos, t->root);
	f->u = g_new(long double, n);
	f->lfs = g_new(long double, n);
	f->sn = g_new(double, n);
	f->kind = g_new(uint8_t, n);
	f->orig = g_new0(uint32_t, n);
	f->lvl = g_new(uint32_t, n);
	f->lvls = g_new(mf_rft_lvl_t, n);
	f->kid = g_new(uint32_t, n);
	f->tmp = g_new(uint32_t, n);
	f->fs = g_new0(double, n);
	f->of_rank = g_new(double, (gsize)f->users + 1);
	for (uint32_t k = 0; k <= f->users; k++)
		f->of_rank[k] = (double)k / (double)f->users;
	/* shares depend on the shape only: once for the whole replay */
	mf_shares_norm(t, MF_SHARES_LOCAL);
	for (uint32_t p = 0; p < n; p++) {
		const mf_assoc_t *a = f->a[p];

		f->sn[p] = a->shares_norm;
		f->kind[p] = (uint8_t)((a->user ? FT_USER : FT_ACCOUNT) +
				       (mf_assoc_is_parent_fs(a) ? 2 : 0));
		f->lvl[p] = UINT32_MAX;
		if (!a->fs_children)
			continue;
		f->lvl[p] = f->n_lvls;
		f->lvls[f->n_lvls++] = (mf_rft_lvl_t) { p, nk, a->fs_children->len };
		for (guint i = 0; i < a->fs_children->len; i++) {
			uint32_t c = GPOINTER_TO_UINT(g_hash_table_lookup(
				pos, a->fs_children->pdata[i])) - 1;

			f->orig[c] = i;
			f->kid[nk++] = c;
		}
	}
	f->on = f->lvl[f->root] != UINT32_MAX;
}

void mf_rft_free(mf_rft_t *f)
{
	g_free(f->add_c);
	g_free(f->sum_p);
	g_free(f->sum_first);
	g_free(f->sum_cnt);
	g_free(f->u);
	g_free(f->lfs);
	g_free(f->sn);
	g_free(f->kind);
	g_free(f->orig);
	g_free(f->lvl);
	g_free(f->lvls);
	g_free(f->kid);
	g_free(f->tmp);
	g_free(f->fs);
	g_free(f->of_rank);
}

static inline bool _ft_is_user(const mf_rft_t *f, uint32_t p)
{
	return f->kind[p] == FT_USER || f->kind[p] == FT_PARENT_USER;
}

/* Does X come before Y?  The core's order (level_fs high first, users
 * before accounts on a tie), ties left in the siblings' own order. */
static inline bool _ft_before(const mf_rft_t *f, uint32_t x, uint32_t y)
{
	if (f->lfs[x] != f->lfs[y])
		return f->lfs[x] > f->lfs[y];
	if (_ft_is_user(f, x) != _ft_is_user(f, y))
		return _ft_is_user(f, x);
	return f->orig[x] < f->orig[y];
}

static void _ft_merge_sort(const mf_rft_t *f, uint32_t *v, uint32_t n,
			   uint32_t *tmp)
{
	uint32_t half = n / 2, i = 0, j = half, k = 0;

	if (n <= 1)
		return;
	_ft_merge_sort(f, v, half, tmp);
	_ft_merge_sort(f, v + half, n - half, tmp);
	while (i < half && j < n)
		tmp[k++] = _ft_before(f, v[j], v[i]) ? v[j++] : v[i++];
	while (i < half)
		tmp[k++] = v[i++];
	memcpy(v, tmp, k * sizeof(*v));
}

/* Sort V (N positions): insertion sort while it costs little (last tick's
 * order is nearly this one's), else a merge sort. */
static void _ft_sort(const mf_rft_t *f, uint32_t *v, uint32_t n, uint32_t *tmp)
{
	size_t budget = 4 * (size_t)n + 16;

	for (uint32_t i = 1; i < n; i++) {
		uint32_t x = v[i], j = i;

		while (j > 0 && _ft_before(f, x, v[j - 1])) {
			v[j] = v[j - 1];
			j--;
			if (!--budget) {
				v[j] = x;
				_ft_merge_sort(f, v, n, tmp);
				return;
			}
		}
		v[j] = x;
	}
}

typedef struct {
	uint32_t rank, next;
} _ft_rank_t;

/* _rank_level() of level L (level_fs.c).  False on a NaN key. */
static bool _ft_level(mf_rft_t *f, uint32_t l, _ft_rank_t *r, bool tied_in)
{
	const mf_rft_lvl_t *lv = &f->lvls[l];
	uint32_t *k = f->kid + lv->first;
	long double parent_raw = f->u[lv->owner];
	long double prev = MF_LEVEL_FS_UNSET;

	for (uint32_t i = 0; i < lv->cnt; i++) {
		uint32_t p = k[i];
		long double x;

		switch (f->kind[p]) {
		case FT_PARENT_USER:
			x = (long double)INFINITY;
			break;
		case FT_PARENT_ACCOUNT:
			x = MF_LEVEL_FS_UNSET;
			break;
		default:
			if (f->sn[p] == 0.0) {
				x = 0.0L;
			} else {
				long double efctv = parent_raw != 0.0L ?
					f->u[p] / parent_raw : 0.0L;

				x = (long double)f->sn[p] / efctv;
			}
		}
		if (isnan(x))
			return false;
		f->lfs[p] = x;
	}
	_ft_sort(f, k, lv->cnt, f->tmp);
	for (uint32_t i = 0; i < lv->cnt; i++) {
		uint32_t p = k[i];
		bool tied = (i == 0 && tied_in) ? true : prev == f->lfs[p];

		if (_ft_is_user(f, p)) {
			if (!tied)
				r->rank = r->next;
			f->fs[p] = f->of_rank[r->rank];
			r->next--;
		} else if (f->lvl[p] != UINT32_MAX &&
			   !_ft_level(f, f->lvl[p], r, tied)) {
			return false;
		}
		prev = f->lfs[p];
	}
	return true;
}

/* The job fair-share factor of every association (FS) of a tick from OWN,
 * as _fairshare() and mf_replay_job_fs() give them (an account's is 0, as
 * Fair Tree gives accounts none: left as the core's last tick set it).
 * False: not done (a NaN), the core must do it. */
bool mf_rft_tick(mf_rft_t *f, const long double *own)
{
	_ft_rank_t r = { f->users, f->users };

	memcpy(f->u, own, f->n * sizeof(*own));
	for (uint32_t k = 0; k < f->n_sum; k++) {
		const uint32_t *c = f->add_c + f->sum_first[k];
		long double sum = f->u[f->sum_p[k]];

		for (uint32_t i = 0; i < f->sum_cnt[k]; i++)
			sum += f->u[c[i]];
		f->u[f->sum_p[k]] = sum;
	}
	return _ft_level(f, f->lvl[f->root], &r, false);
}

