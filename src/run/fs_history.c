/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs_history: the accounts' fair-share figures over a directory of
 * snapshots (fs_history.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fs_history.h"
#include "level_fs.h"
#include "priority_flags.h"
#include "rank_gap.h"
#include "release.h"
#include "settings.h"
#include "snapshot.h"
#include "snapshot_dir.h"

enum { _SHARES, _USAGE, _RAW, _LEVEL_FS, _FS, _NFIG };

/* One account in one snapshot. */
typedef struct {
	double v[_NFIG];
	char *parent;
} _pt_t;

/* A snapshot found: its directory opened (time read), not yet read. */
typedef struct {
	char *name;
	char *path;
	time_t taken;
} _found_t;

static void _pt_free(gpointer p)
{
	_pt_t *pt = p;

	g_free(pt->parent);
	g_free(pt);
}

static void _snap_clear(gpointer p)
{
	g_free(((mf_fshist_snap_t *) p)->name);
}

static void _skip_clear(gpointer p)
{
	mf_fshist_skip_t *s = p;

	g_free(s->name);
	g_free(s->why);
}

static void _acct_free(gpointer p)
{
	mf_fshist_acct_t *a = p;

	g_free(a->acct);
	g_free(a->parent);
	g_free(a->shares);
	g_free(a->usage);
	g_free(a->raw);
	g_free(a->level_fs);
	g_free(a->fs);
	g_free(a);
}

static void _found_clear(gpointer p)
{
	_found_t *f = p;

	g_free(f->name);
	g_free(f->path);
}

static void _skip(mf_fshist_t *h, const char *name, const char *why)
{
	mf_fshist_skip_t s = { g_strdup(name), g_strdup(why) };

	g_array_append_val(h->skipped, s);
}

/* NAN for a figure sshare leaves empty (fairshare_json.c's rule). */
static double _fig(long double v)
{
	if (isnan(v) || isinf(v) || v == (long double) MF_LEVEL_FS_UNSET ||
	    v == 4294967295.0L)
		return NAN;
	return (double) v;
}

/* The accounts of TREE, computed with ALGO of release REL, into a new
 * table: account name -> _pt_t. */
static GHashTable *_points(const mf_tree_t *tree, mf_fs_algo_t algo,
			   mf_release_t rel)
{
	GHashTable *t = g_hash_table_new_full(g_str_hash, g_str_equal,
					      g_free, _pt_free);
	/* an account's FairShare as sshare prints it: classic only, and
	 * not from 25.11 (sshare_fmt.c's mf_sshare_fs_empty for accounts) */
	bool fs_shown = algo != MF_FS_FAIR_TREE &&
			!mf_release_sshare_fs_users_only(rel);

	for (guint i = 0; i < tree->order->len; i++) {
		const mf_assoc_t *a = g_ptr_array_index(tree->order, i);
		_pt_t *pt;

		if (a->user || a == tree->root)
			continue;
		pt = g_new0(_pt_t, 1);
		pt->v[_SHARES] = _fig(a->shares_norm);
		pt->v[_USAGE] = _fig(a->usage_efctv);
		pt->v[_RAW] = (double) a->usage_raw;
		/* LevelFS is Fair Tree's (sshare has no such column under
		 * the classic algorithm) */
		pt->v[_LEVEL_FS] = algo != MF_FS_FAIR_TREE ||
				   mf_assoc_is_parent_fs(a) ? NAN :
				   _fig(a->level_fs);
		pt->v[_FS] = fs_shown ? _fig(a->fs_factor) : NAN;
		pt->parent = g_strdup(a->parent_acct);
		g_hash_table_replace(t, g_strdup(a->acct), pt);
	}
	return t;
}

/* Read the snapshot F as `mfprio fairshare --snapshot` reads it, with
 * IN's what-ifs: its accounts into *PTS, its time and algorithm into
 * *SNAP.  Returns 0, or -1 with ERRP set. */
static int _read_one(const _found_t *f, const mf_fshist_in_t *in,
		     GHashTable **pts, mf_fshist_snap_t *snap,
		     mf_error_t *errp)
{
	mf_snapdir_t sd = { 0 };
	mf_settings_t s = { 0 };
	mf_fs_config_t cfg;
	mf_tree_t *tree = NULL;
	const char *usage;
	int rc = -1;

	if (mf_snapdir_open(f->path, &sd, errp))
		goto out;
	usage = sd.assoc_mgr ? sd.assoc_mgr : sd.usage;
	if (!sd.assoc) {
		mf_errprintf(errp, "%s: no assoc dump in it", f->path);
		goto out;
	}
	if (!usage) {
		mf_errprintf(errp, "%s: no usage dump in it (usage or "
			     "assoc-mgr): every usage would read 0", f->path);
		goto out;
	}
	{
		mf_settings_in_t si = { .conf = sd.conf, .sets = in->sets,
					.release = in->release,
					.cluster = in->cluster,
					.near = sd.assoc };

		if (mf_settings_read(&s, &si, errp))
			goto out;
	}
	if (!(tree = mf_snapshot_load_cluster(sd.assoc, usage, s.cluster,
					      errp)))
		goto out;
	cfg.algo = mf_priority_flags_algo(s.pc->flags);
	cfg.damp = s.pc->fs_damp;
	mf_fairshare_compute(tree, &cfg);
	*pts = _points(tree, cfg.algo, s.rel.release);
	snap->name = g_strdup(f->name);
	snap->taken = sd.taken;
	snap->algo = cfg.algo;
	rc = 0;
out:
	if (tree)
		mf_tree_destroy(tree);
	mf_settings_clear(&s);
	mf_snapdir_clear(&sd);
	return rc;
}

static gint _by_time(gconstpointer x, gconstpointer y)
{
	const _found_t *a = x, *b = y;

	if (a->taken != b->taken)
		return a->taken < b->taken ? -1 : 1;
	return strcmp(a->name, b->name);
}

static gint _by_name(gconstpointer x, gconstpointer y)
{
	return strcmp(*(char *const *) x, *(char *const *) y);
}

static gint _skip_by_name(gconstpointer x, gconstpointer y)
{
	return strcmp(((const mf_fshist_skip_t *) x)->name,
		      ((const mf_fshist_skip_t *) y)->name);
}

/* DIR's subdirectories, name order, into NAMES.  Returns 0, or -1 with
 * ERRP set. */
static int _list(const char *dir, GPtrArray *names, mf_error_t *errp)
{
	GError *ge = NULL;
	GDir *d = g_dir_open(dir, 0, &ge);
	const char *n;

	if (!d) {
		/* errno is g_dir_open's (kept over its GError) */
		int err = errno;

		mf_errprintf(errp, "%s: cannot read it as a directory of "
			     "snapshots: %s", dir, g_strerror(err));
		g_error_free(ge);
		return -1;
	}
	while ((n = g_dir_read_name(d))) {
		char *p;

		if (*n == '.')
			continue;
		p = g_build_filename(dir, n, NULL);
		if (g_file_test(p, G_FILE_TEST_IS_DIR))
			g_ptr_array_add(names, g_strdup(n));
		g_free(p);
	}
	g_dir_close(d);
	g_ptr_array_sort(names, _by_name);
	return 0;
}

/* The snapshots of NAMES in DIR whose time can be read, time order, in
 * FOUND; the others skipped into H. */
static void _find(mf_fshist_t *h, const char *dir, GPtrArray *names,
		  GArray *found)
{
	for (guint i = 0; i < names->len; i++) {
		const char *n = names->pdata[i];
		_found_t f = { g_strdup(n), g_build_filename(dir, n, NULL), 0 };
		mf_snapdir_t sd = { 0 };
		mf_error_t e;

		if (mf_snapdir_open(f.path, &sd, &e)) {
			_skip(h, n, e.text);
			_found_clear(&f);
			continue;
		}
		f.taken = sd.taken;
		mf_snapdir_clear(&sd);
		g_array_append_val(found, f);
	}
	g_array_sort(found, _by_time);
}

bool *mf_fshist_pick(guint n, guint max)
{
	const guint64 m = max < 2 ? 2 : max;
	bool *c = g_new0(bool, n ? n : 1);

	for (guint i = 0; i < n; i++)
		c[i] = n <= m;
	for (guint64 k = 0; n > m && k < m; k++)
		c[(k * (n - 1) * 2 + (m - 1)) / ((m - 1) * 2)] = true;
	return c;
}

/* The account ACCT's row of the tables PTS (one per snapshot). */
static mf_fshist_acct_t *_row(const char *acct, GPtrArray *pts)
{
	mf_fshist_acct_t *a = g_new0(mf_fshist_acct_t, 1);
	double **fig[_NFIG] = { &a->shares, &a->usage, &a->raw,
				&a->level_fs, &a->fs };

	a->acct = g_strdup(acct);
	for (int k = 0; k < _NFIG; k++)
		*fig[k] = g_new(double, pts->len);
	for (guint i = 0; i < pts->len; i++) {
		const _pt_t *pt = g_hash_table_lookup(pts->pdata[i], acct);

		for (int k = 0; k < _NFIG; k++)
			(*fig[k])[i] = pt ? pt->v[k] : NAN;
		if (pt) {
			g_free(a->parent);
			a->parent = g_strdup(pt->parent);
		}
	}
	return a;
}

/* H's rows of the accounts in PTS: first IN->now's in rank order, then
 * the others by name. */
static void _rows(mf_fshist_t *h, GPtrArray *pts, const mf_tree_t *now)
{
	GHashTable *all = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *rest = g_ptr_array_new();

	for (guint i = 0; i < pts->len; i++) {
		GHashTableIter it;
		gpointer k;

		g_hash_table_iter_init(&it, pts->pdata[i]);
		while (g_hash_table_iter_next(&it, &k, NULL))
			g_hash_table_add(all, k);
	}
	if (now) {
		const mf_assoc_t **v = g_new(const mf_assoc_t *,
					     now->order->len);
		size_t n = 0;

		for (guint i = 0; i < now->order->len; i++) {
			const mf_assoc_t *a = now->order->pdata[i];

			if (!a->user && a != now->root &&
			    g_hash_table_contains(all, a->acct))
				v[n++] = a;
		}
		mf_rank_gap_sort(v, n);
		for (size_t i = 0; i < n; i++) {
			g_ptr_array_add(h->accts, _row(v[i]->acct, pts));
			g_hash_table_remove(all, v[i]->acct);
		}
		g_free(v);
	}
	{
		GHashTableIter it;
		gpointer k;

		g_hash_table_iter_init(&it, all);
		while (g_hash_table_iter_next(&it, &k, NULL))
			g_ptr_array_add(rest, k);
	}
	g_ptr_array_sort(rest, _by_name);
	for (guint i = 0; i < rest->len; i++)
		g_ptr_array_add(h->accts, _row(rest->pdata[i], pts));
	g_ptr_array_free(rest, TRUE);
	g_hash_table_destroy(all);
}

int mf_fshist_load(mf_fshist_t *h, const char *dir,
		   const mf_fshist_in_t *in, mf_error_t *errp)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GArray *found = g_array_new(FALSE, FALSE, sizeof(_found_t));
	GPtrArray *pts = g_ptr_array_new_with_free_func(
		(GDestroyNotify) g_hash_table_destroy);
	bool *chosen = NULL;
	int rc = -1;

	memset(h, 0, sizeof(*h));
	h->dir = g_strdup(dir);
	h->snaps = g_array_new(FALSE, FALSE, sizeof(mf_fshist_snap_t));
	g_array_set_clear_func(h->snaps, _snap_clear);
	h->skipped = g_array_new(FALSE, FALSE, sizeof(mf_fshist_skip_t));
	g_array_set_clear_func(h->skipped, _skip_clear);
	h->accts = g_ptr_array_new_with_free_func(_acct_free);
	g_array_set_clear_func(found, _found_clear);
	if (_list(dir, names, errp))
		goto out;
	if (!names->len) {
		char *t = g_build_filename(dir, MF_SNAP_TIME, NULL);
		bool one = g_file_test(t, G_FILE_TEST_IS_REGULAR);

		g_free(t);
		mf_errprintf(errp, "%s: no snapshot in it (a directory of "
			     "directories, each written by mfprio snapshot)%s",
			     dir, one ? ": it is one snapshot itself; give "
			     "the directory that holds the snapshots" : "");
		goto out;
	}
	_find(h, dir, names, found);
	h->n_found = found->len;
	chosen = mf_fshist_pick(found->len, MF_FSHIST_MAX_POINTS);
	for (guint i = 0; i < found->len; i++) {
		const _found_t *f = &g_array_index(found, _found_t, i);
		mf_fshist_snap_t s = { 0 };
		GHashTable *t;
		mf_error_t e;

		if (!chosen[i])
			continue;
		if (_read_one(f, in, &t, &s, &e)) {
			_skip(h, f->name, e.text);
			continue;
		}
		g_array_append_val(h->snaps, s);
		g_ptr_array_add(pts, t);
	}
	g_array_sort(h->skipped, _skip_by_name);
	if (!h->snaps->len) {
		mf_errprintf(errp, "%s: none of its %u directories could be "
			     "read as a snapshot (the first: %s)", dir,
			     names->len, g_array_index(h->skipped,
						       mf_fshist_skip_t,
						       0).why);
		goto out;
	}
	_rows(h, pts, in->now);
	rc = 0;
out:
	g_free(chosen);
	g_ptr_array_free(pts, TRUE);
	g_array_free(found, TRUE);
	g_ptr_array_free(names, TRUE);
	return rc;
}

void mf_fshist_clear(mf_fshist_t *h)
{
	if (h->snaps)
		g_array_free(h->snaps, TRUE);
	if (h->skipped)
		g_array_free(h->skipped, TRUE);
	if (h->accts)
		g_ptr_array_free(h->accts, TRUE);
	g_free(h->dir);
	memset(h, 0, sizeof(*h));
}
