/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <glib.h>

#include "mfp_runs.h"

static GHashTable *_runs;       /* job id -> mfp_run_t (g_new) */

void mfp_runs_note(uint32_t job_id, const mfp_run_t *run)
{
	mfp_run_t *r;

	if (!_runs)
		_runs = g_hash_table_new_full(g_direct_hash, g_direct_equal,
					      NULL, g_free);
	r = g_hash_table_lookup(_runs, GUINT_TO_POINTER(job_id));
	if (!r) {
		r = g_new(mfp_run_t, 1);
		g_hash_table_insert(_runs, GUINT_TO_POINTER(job_id), r);
	}
	*r = *run;
}

const mfp_run_t *mfp_runs_get(uint32_t job_id)
{
	return _runs ? g_hash_table_lookup(_runs, GUINT_TO_POINTER(job_id)) :
		NULL;
}

void mfp_runs_forget(uint32_t job_id)
{
	if (_runs)
		g_hash_table_remove(_runs, GUINT_TO_POINTER(job_id));
}

unsigned mfp_runs_count(void)
{
	return _runs ? g_hash_table_size(_runs) : 0;
}

void mfp_runs_each(mfp_runs_fn fn, void *arg)
{
	GHashTableIter it;
	gpointer key, value;

	if (!_runs)
		return;
	g_hash_table_iter_init(&it, _runs);
	while (g_hash_table_iter_next(&it, &key, &value))
		if (fn(GPOINTER_TO_UINT(key), value, arg))
			g_hash_table_iter_remove(&it);
}

void mfp_runs_shift(time_t by)
{
	GHashTableIter it;
	gpointer value;

	if (!_runs || !by)
		return;
	g_hash_table_iter_init(&it, _runs);
	while (g_hash_table_iter_next(&it, NULL, &value))
		((mfp_run_t *) value)->charged_to += by;
}

void mfp_runs_clear(void)
{
	if (_runs) {
		g_hash_table_destroy(_runs);
		_runs = NULL;
	}
}
