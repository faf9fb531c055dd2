/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "level_fs.h"
#include "usage_norm.h"

typedef struct {
	uint32_t rank;       /* rank of the last user placed */
	uint32_t next;       /* rank the next untied user gets */
	uint32_t users;      /* N */
} _ranking_t;

static gint _cmp_level_fs(gconstpointer pa, gconstpointer pb);
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
static gint _cmp_level_fs(gconstpointer pa, gconstpointer pb)
{
	const mf_assoc_t *a = *(mf_assoc_t *const *)pa;
	const mf_assoc_t *b = *(mf_assoc_t *const *)pb;

	if (a->level_fs != b->level_fs)
		return a->level_fs < b->level_fs ? 1 : -1;
	if (!a->user == !b->user)
		return 0;
	return a->user ? -1 : 1;
}

static void _rank_level(GPtrArray *siblings, _ranking_t *r, bool tied_in)
{
	GPtrArray *sorted = g_ptr_array_sized_new(siblings->len);
	long double prev = MF_LEVEL_FS_UNSET;

	for (guint i = 0; i < siblings->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(siblings, i);
		long double parent_raw = a->fs_parent->usage_raw;

		a->usage_efctv = parent_raw != 0.0L ?
			a->usage_raw / parent_raw : 0.0L;
		a->level_fs = mf_level_fs_of(a);
		g_ptr_array_add(sorted, a);
	}
	/* g_ptr_array_sort is a stable merge sort since GLib 2.32 */
	g_ptr_array_sort(sorted, _cmp_level_fs);

	for (guint i = 0; i < sorted->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(sorted, i);
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
	g_ptr_array_free(sorted, TRUE);
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
