/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_view: what `mfprio tree` draws of an association tree
 * (tree_view.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rank_gap.h"
#include "tree_view.h"

/* A's part of its parent's shares, 0..1; NAN for FairShare=parent or
 * the root. */
double mf_tview_share_part(const mf_assoc_t *a)
{
	if (!a->parent || mf_assoc_is_parent_fs(a) || !a->level_shares)
		return NAN;
	return (double) a->shares_raw / a->level_shares;
}

/* A's part of its parent's usage, 0..1; NAN for the root or no usage. */
double mf_tview_usage_part(const mf_assoc_t *a)
{
	if (!a->parent || !(a->parent->usage_raw > 0))
		return NAN;
	return (double) (a->usage_raw / a->parent->usage_raw);
}

/* The weight of A among its siblings (for the widths). */
double mf_tview_weight(const mf_assoc_t *a)
{
	const GPtrArray *sib = a->parent->children;
	double sum = 0;
	guint n = 0;

	if (!mf_assoc_is_parent_fs(a))
		return a->shares_raw;
	for (guint i = 0; i < sib->len; i++) {
		const mf_assoc_t *s = sib->pdata[i];

		if (!mf_assoc_is_parent_fs(s)) {
			sum += s->shares_raw;
			n++;
		}
	}
	return n ? sum / n : 1.0;
}

static double _nan0(double v)
{
	return isnan(v) ? 0 : v;
}

/* How many users are under account A, at any depth. */
static guint _users_under(const mf_assoc_t *a)
{
	guint n = 0;

	if (a->children)
		for (guint i = 0; i < a->children->len; i++) {
			const mf_assoc_t *c = a->children->pdata[i];

			n += c->user ? 1 : _users_under(c);
		}
	return n;
}

/* Fold A (and, with DEEP, everything under it) into SUM. */
static void _sum_add(mf_tsum_t *sum, const mf_assoc_t *a, bool deep)
{
	if (a->user) {
		sum->users++;
		if (!isnan(a->fs_factor)) {
			if (!sum->fs_n || a->fs_factor < sum->fs_min) {
				sum->fs_min = a->fs_factor;
				sum->fs_min_a = a;
			}
			sum->fs_sum += a->fs_factor;
			sum->fs_n++;
		}
	} else {
		sum->accounts++;
		if (!deep)
			sum->held_users += (int) _users_under(a);
	}
	if (deep && a->children)
		for (guint i = 0; i < a->children->len; i++)
			_sum_add(sum, a->children->pdata[i], true);
}

static mf_titem_t *_item(GPtrArray *items, mf_titem_kind_t kind, const mf_assoc_t *a)
{
	mf_titem_t *it = g_new0(mf_titem_t, 1);

	it->kind = kind;
	it->a = a;
	g_ptr_array_add(items, it);
	return it;
}

/* Fold child C into the summary item IT (share, usage and weight too). */
static void _item_add(mf_titem_t *it, const mf_assoc_t *c)
{
	_sum_add(&it->sum, c, false);
	it->sum.share += _nan0(mf_tview_share_part(c));
	it->sum.usage += _nan0(mf_tview_usage_part(c));
	it->sum.weight += mf_tview_weight(c);
}

/*
 * What V draws under A: its children in sshare order, or, when --top
 * leaves some out, the children kept in rank order (rank_gap.h: largest
 * gap first, as the page draws a crowded level); then one item for its
 * folded users, then one for the children --top left out; or one
 * ITEM_BELOW when A is at the depth limit.  A new array (g_free each item).
 */
GPtrArray *mf_tview_items(const mf_assoc_t *a, const mf_tview_t *v)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(g_free);
	GHashTable *kept = NULL;
	mf_titem_t *users = NULL, *more = NULL;

	if (!a->children || !a->children->len)
		return items;
	if (v->depth && a->depth - v->top->depth >= v->depth) {
		mf_titem_t *below = _item(items, ITEM_BELOW, a);

		for (guint i = 0; i < a->children->len; i++)
			_sum_add(&below->sum, a->children->pdata[i], true);
		below->sum.share = below->sum.usage = 1;
		return items;
	}
	if (v->n_top) {
		/* the children fair-share acts on most (rank_gap.h), drawn
		 * in that order, as the page draws a crowded level */
		GPtrArray *cand = g_ptr_array_new();

		for (guint i = 0; i < a->children->len; i++) {
			const mf_assoc_t *c = a->children->pdata[i];

			if (!(c->user && v->fold_users))
				g_ptr_array_add(cand, (gpointer) c);
		}
		if (cand->len > (guint) v->n_top) {
			mf_rank_gap_sort((const mf_assoc_t **) cand->pdata,
					 cand->len);
			kept = g_hash_table_new(g_direct_hash, g_direct_equal);
			for (int i = 0; i < v->n_top; i++) {
				g_hash_table_add(kept, cand->pdata[i]);
				_item(items, ITEM_ASSOC, cand->pdata[i]);
			}
		}
		g_ptr_array_free(cand, TRUE);
	}
	for (guint i = 0; i < a->children->len; i++) {
		const mf_assoc_t *c = a->children->pdata[i];

		if (c->user && v->fold_users) {
			if (!users)
				users = g_new0(mf_titem_t, 1);
			_item_add(users, c);
		} else if (kept && !g_hash_table_contains(kept, c)) {
			if (!more)
				more = g_new0(mf_titem_t, 1);
			_item_add(more, c);
		} else if (!kept) {
			_item(items, ITEM_ASSOC, c);
		}
	}
	if (users) {
		users->kind = ITEM_USERS;
		users->a = a;
		g_ptr_array_add(items, users);
	}
	if (more) {
		more->kind = ITEM_MORE;
		more->a = a;
		g_ptr_array_add(items, more);
	}
	if (kept)
		g_hash_table_destroy(kept);
	return items;
}

/* The label of a summary item (g_free). */
char *mf_tview_sum_label(const mf_titem_t *it)
{
	const mf_tsum_t *s = &it->sum;
	char *acc, *label;

	switch (it->kind) {
	case ITEM_USERS:
		return g_strdup_printf("[%d user%s]", s->users,
				       s->users == 1 ? "" : "s");
	case ITEM_MORE:
		if (!s->accounts)
			return g_strdup_printf("+%d more user%s", s->users,
					       s->users == 1 ? "" : "s");
		acc = g_strdup_printf("account%s (%d user%s)",
				      s->accounts == 1 ? "" : "s",
				      s->held_users,
				      s->held_users == 1 ? "" : "s");
		if (!s->users)
			label = g_strdup_printf("+%d more %s", s->accounts, acc);
		else
			label = g_strdup_printf("+%d more: %d %s, %d user%s",
						s->accounts + s->users,
						s->accounts, acc,
						s->users,
						s->users == 1 ? "" : "s");
		g_free(acc);
		return label;
	case ITEM_BELOW:
		if (!s->accounts)
			return g_strdup_printf("[below: %d user%s]", s->users,
					       s->users == 1 ? "" : "s");
		return g_strdup_printf("[below: %d account%s, %d user%s]",
				       s->accounts, s->accounts == 1 ? "" : "s",
				       s->users, s->users == 1 ? "" : "s");
	default:
		return g_strdup("?");
	}
}


/* How many text rows V draws for A and under it, no further than LIMIT. */
guint mf_tview_rows(const mf_assoc_t *a, const mf_tview_t *v, guint limit)
{
	GPtrArray *items = mf_tview_items(a, v);
	guint n = 1;

	for (guint i = 0; i < items->len && n <= limit; i++) {
		const mf_titem_t *it = items->pdata[i];

		if (it->kind == ITEM_ASSOC)
			n += mf_tview_rows(it->a, v, limit - n);
		else if (it->kind != ITEM_USERS)
			n++;
	}
	g_ptr_array_free(items, TRUE);
	return MIN(n, limit + 1);
}

/* The most items any account of V under A has. */
guint mf_tview_widest(const mf_assoc_t *a, const mf_tview_t *v)
{
	GPtrArray *items = mf_tview_items(a, v);
	guint w = items->len;

	for (guint i = 0; i < items->len; i++) {
		const mf_titem_t *it = items->pdata[i];

		if (it->kind == ITEM_ASSOC)
			w = MAX(w, mf_tview_widest(it->a, v));
	}
	g_ptr_array_free(items, TRUE);
	return w;
}
