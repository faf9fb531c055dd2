/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "priority_run.h"
#include "queue_top.h"

/* Accounts by best rank, then by name. */
static gint _by_best(gconstpointer x, gconstpointer y)
{
	const mf_qtop_acct_t *a = x, *b = y;

	if (a->best_rank != b->best_rank)
		return a->best_rank < b->best_rank ? -1 : 1;
	return strcmp(a->account, b->account);
}

/* Rows by job id, then partition tier order (c->rows' own order). */
static gint _by_index(gconstpointer x, gconstpointer y, gpointer order)
{
	guint a = GPOINTER_TO_UINT(g_hash_table_lookup(order,
				   *(gpointer const *)x));
	guint b = GPOINTER_TO_UINT(g_hash_table_lookup(order,
				   *(gpointer const *)y));

	return a < b ? -1 : a > b;
}

/* The accounts of RANKED (rank order) with their counts, in P. */
static void _accounts(GPtrArray *ranked, mf_qtop_part_t *p)
{
	GHashTable *at = g_hash_table_new(g_str_hash, g_str_equal);

	p->accounts = g_array_new(FALSE, TRUE, sizeof(mf_qtop_acct_t));
	for (guint i = 0; i < ranked->len; i++) {
		const mf_prun_row_t *row = ranked->pdata[i];
		const char *acct = row->job->line->account ?
				   row->job->line->account : "";
		gpointer k = g_hash_table_lookup(at, acct);
		mf_qtop_acct_t a = { acct, 0, i + 1 };

		if (!k) {
			g_array_append_val(p->accounts, a);
			k = GUINT_TO_POINTER(p->accounts->len);
			g_hash_table_insert(at, (gpointer)acct, k);
		}
		g_array_index(p->accounts, mf_qtop_acct_t,
			      GPOINTER_TO_UINT(k) - 1).rows++;
	}
	g_array_sort(p->accounts, _by_best);
	g_hash_table_destroy(at);
}

void mf_qtop_build(const mf_prun_ctx_t *c, guint top_n, mf_qtop_t *q)
{
	GHashTable *order = g_hash_table_new(NULL, NULL);

	memset(q, 0, sizeof(*q));
	q->top_n = top_n;
	q->parts = g_array_new(FALSE, TRUE, sizeof(mf_qtop_part_t));
	q->shown = g_ptr_array_new();
	for (guint i = 0; i < c->rows->len; i++)
		g_hash_table_insert(order, c->rows->pdata[i],
				    GUINT_TO_POINTER(i));
	for (guint i = 0; c->pc && i < c->pc->parts->len; i++) {
		const mf_conf_part_t *cp = c->pc->parts->pdata[i];
		mf_qtop_part_t p = { .part = &cp->part };
		GPtrArray *ranked = mf_prun_part_ranked(c, &cp->part);

		if (!ranked->len) {
			g_ptr_array_unref(ranked);
			continue;
		}
		p.rows = ranked->len;
		_accounts(ranked, &p);
		if (top_n && ranked->len > top_n)
			g_ptr_array_set_size(ranked, top_n);
		p.top = ranked;
		for (guint k = 0; k < ranked->len; k++)
			g_ptr_array_add(q->shown, ranked->pdata[k]);
		g_array_append_val(q->parts, p);
	}
	g_ptr_array_sort_with_data(q->shown, _by_index, order);
	g_hash_table_destroy(order);
}

void mf_qtop_clear(mf_qtop_t *q)
{
	for (guint i = 0; q->parts && i < q->parts->len; i++) {
		mf_qtop_part_t *p = &g_array_index(q->parts, mf_qtop_part_t, i);

		g_ptr_array_unref(p->top);
		g_array_unref(p->accounts);
	}
	if (q->parts)
		g_array_unref(q->parts);
	if (q->shown)
		g_ptr_array_unref(q->shown);
	memset(q, 0, sizeof(*q));
}
