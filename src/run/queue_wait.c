/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "queue_wait.h"

/* One account's waits while they are gathered. */
typedef struct {
	const char *account;
	GArray *waits;                /* gint64 */
} _gather_t;

static int _by_secs(gconstpointer x, gconstpointer y)
{
	gint64 a = *(const gint64 *)x, b = *(const gint64 *)y;

	return a < b ? -1 : a > b;
}

/* Longest median first, then longest wait, then name. */
static int _by_wait(gconstpointer x, gconstpointer y)
{
	const mf_qwait_acct_t *a = x, *b = y;

	if (a->median != b->median)
		return a->median > b->median ? -1 : 1;
	if (a->longest != b->longest)
		return a->longest > b->longest ? -1 : 1;
	return strcmp(a->account, b->account);
}

static void _gather_free(gpointer p)
{
	_gather_t *g = p;

	g_array_unref(g->waits);
	g_free(g);
}

GArray *mf_qwait_build(const mf_prun_ctx_t *c, time_t now)
{
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	GHashTable *by = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					       _gather_free);
	GArray *out = g_array_new(FALSE, TRUE, sizeof(mf_qwait_acct_t));
	GHashTableIter it;
	gpointer v;

	for (guint i = 0; c->rows && i < c->rows->len; i++) {
		const mf_prun_row_t *row = c->rows->pdata[i];
		const mf_prio_job_t *j = &row->job->job;
		const char *acct = row->job->line->account ?
				   row->job->line->account : "";
		time_t from = j->begin_time ? j->begin_time : j->submit_time;
		gint64 w = now > from ? (gint64)(now - from) : 0;
		_gather_t *g;

		if (!g_hash_table_add(seen, row->job))
			continue;
		if (!(g = g_hash_table_lookup(by, acct))) {
			g = g_new0(_gather_t, 1);
			g->account = acct;
			g->waits = g_array_new(FALSE, FALSE, sizeof(gint64));
			g_hash_table_insert(by, (gpointer)acct, g);
		}
		g_array_append_val(g->waits, w);
	}
	g_hash_table_iter_init(&it, by);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		_gather_t *g = v;
		mf_qwait_acct_t a = { g->account, g->waits->len, 0, 0 };

		g_array_sort(g->waits, _by_secs);
		a.median = g_array_index(g->waits, gint64,
					 (g->waits->len - 1) / 2);
		a.longest = g_array_index(g->waits, gint64,
					  g->waits->len - 1);
		g_array_append_val(out, a);
	}
	g_array_sort(out, _by_wait);
	g_hash_table_destroy(by);
	g_hash_table_destroy(seen);
	return out;
}

void mf_qwait_free(GArray *w)
{
	if (w)
		g_array_unref(w);
}
