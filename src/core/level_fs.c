/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <string.h>

#include "level_fs.h"
#include "usage_norm.h"

typedef struct {
	uint32_t rank;       /* rank of the last user placed */
	uint32_t next;       /* rank the next untied user gets */
	uint32_t users;      /* N */
} _ranking_t;

/* A sibling as the sort sees it: its key next to it, so that comparing
 * two siblings reads one cache line, not two associations. */
typedef struct {
	long double level_fs;
	mf_assoc_t *a;
	bool user;
} _sib_t;

static int _cmp_sib(const _sib_t *x, const _sib_t *y);
static void _merge_sort(_sib_t *v, size_t n, _sib_t *tmp);
static void _rank_level(GPtrArray *siblings, _ranking_t *r, bool tied_in);

long double mf_level_fs_of(const mf_assoc_t *a)
{
	if (mf_assoc_is_parent_fs(a))
		return a->user ? (long double) INFINITY : MF_LEVEL_FS_UNSET;
	if (a->shares_norm == 0.0)
		return 0.0L;
	return (long double) a->shares_norm / a->usage_efctv;
}

/* Highest level_fs first; on equal values users before accounts.  Used with
 * a stable sort, so equal siblings keep their input order. */
static int _cmp_sib(const _sib_t *x, const _sib_t *y)
{
	if (x->level_fs != y->level_fs)
		return x->level_fs < y->level_fs ? 1 : -1;
	if (x->user == y->user)
		return 0;
	return x->user ? -1 : 1;
}

/*
 * Stable top-down merge sort of V (N entries) by _cmp_sib, TMP holding N.
 * It halves and merges the way GLib's g_ptr_array_sort (which this
 * replaced) does, taking from the left half on equal keys, so it makes
 * the same comparisons and gives the same order whatever the keys, NaN
 * included; it only spares each comparison two pointer loads.
 */
static void _merge_sort(_sib_t *v, size_t n, _sib_t *tmp)
{
	size_t half = n / 2, i = 0, j = half, k = 0;

	if (n <= 1)
		return;
	_merge_sort(v, half, tmp);
	_merge_sort(v + half, n - half, tmp);
	while (i < half && j < n) {
		if (_cmp_sib(&v[i], &v[j]) <= 0)
			tmp[k++] = v[i++];
		else
			tmp[k++] = v[j++];
	}
	while (i < half)
		tmp[k++] = v[i++];
	/* what is left of the right half is in place already */
	memcpy(v, tmp, k * sizeof(*v));
}

static void _rank_level(GPtrArray *siblings, _ranking_t *r, bool tied_in)
{
	guint n = siblings->len;
	_sib_t *sorted = g_new(_sib_t, 2 * (gsize)n);
	long double prev = MF_LEVEL_FS_UNSET;

	for (guint i = 0; i < n; i++) {
		mf_assoc_t *a = g_ptr_array_index(siblings, i);
		long double parent_raw = a->fs_parent->usage_raw;

		a->usage_efctv = parent_raw != 0.0L ?
			a->usage_raw / parent_raw : 0.0L;
		a->level_fs = mf_level_fs_of(a);
		sorted[i].level_fs = a->level_fs;
		sorted[i].a = a;
		sorted[i].user = a->user != NULL;
	}
	_merge_sort(sorted, n, sorted + n);

	for (guint i = 0; i < n; i++) {
		mf_assoc_t *a = sorted[i].a;
		bool tied = (i == 0 && tied_in) ? true : prev == a->level_fs;

		if (a->user) {
			if (!tied)
				r->rank = r->next;
			a->fs_factor = (double) r->rank / (double) r->users;
			r->next--;
		} else {
			_rank_level(a->fs_children, r, tied);
		}
		prev = a->level_fs;
	}
	g_free(sorted);
}

void mf_fair_tree(mf_tree_t *tree)
{
	_ranking_t r;

	r.users = tree->user_count;
	r.rank = r.next = r.users;
	mf_usage_norm(tree);
	tree->root->level_fs = MF_LEVEL_FS_UNSET;
	tree->root->usage_efctv = 1.0L;
	_rank_level(tree->root->fs_children, &r, false);
}
