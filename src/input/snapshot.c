/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_mgr.h"
#include "dump_header.h"
#include "dump_rows.h"
#include "usage_input.h"
#include "snapshot.h"

/* One data line of a '|'-separated dump. */
typedef struct {
	const char *name;
	const char *parent;
	int line;
} _acct_row_t;

static gint _name_cmp(gconstpointer a, gconstpointer b);
static int _pick_cluster(GPtrArray *rows, guint ncols, const char *cluster,
			 const char *path, mf_error_t *errp);
static int _parse_shares(const char *s, uint32_t *out);
static int _check_parents(GHashTable *accts, const char *path,
			  mf_error_t *errp);
static int _load_assocs(mf_tree_t *tree, const char *path,
			const char *cluster, mf_error_t *errp);


/* Raw shares: a whole number below FairShare=parent's value, or "parent". */
static int _parse_shares(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (!g_ascii_strcasecmp(s, "parent")) {
		*out = MF_SHARES_PARENT;
		return 0;
	}
	if (!*s || !g_ascii_isdigit(*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v >= MF_SHARES_PARENT)
		return -1;
	*out = (uint32_t) v;
	return 0;
}

/* Every account's parent exists, and following parents reaches root. */
static int _check_parents(GHashTable *accts, const char *path,
			  mf_error_t *errp)
{
	GHashTableIter it;
	gpointer v;
	guint n = g_hash_table_size(accts);

	g_hash_table_iter_init(&it, accts);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const _acct_row_t *a = v, *p = a;
		guint steps = 0;

		while (p && strcmp(p->name, "root")) {
			const _acct_row_t *next =
				g_hash_table_lookup(accts, p->parent);

			if (!next && strcmp(p->parent, "root"))
				return mf_errprintf(errp, "%s:%d: account "
					"'%s' has parent '%s', which is not "
					"in the file", path, p->line, p->name,
					p->parent);
			if (++steps > n)
				return mf_errprintf(errp, "%s:%d: account "
					"'%s' is in a cycle of parents", path,
					a->line, a->name);
			p = next;
		}
	}
	return 0;
}

/* g_ptr_array_sort()'s comparison of two strings. */
static gint _name_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/*
 * Reduce ROWS of NCOLS columns (5: Cluster first; 6: Partition after User
 * too) to the four of the plain dump plus the partition (fifth, "" when
 * none), keeping the rows of CLUSTER (NULL: the dump must hold one cluster
 * only).  A user's row with a Partition is that user's association on that
 * partition, a leaf of its own beside the user's other ones.
 */
static int _pick_cluster(GPtrArray *rows, guint ncols, const char *cluster,
			 const char *path, mf_error_t *errp)
{
	/* cluster names in lower case, as slurmctld and sacctmgr keep them */
	GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, NULL);
	char *want = cluster ? g_ascii_strdown(cluster, -1) : NULL;
	GPtrArray *kept = g_ptr_array_new();
	int rc = 0;

	for (guint i = 0; i < rows->len; i++) {
		mf_drow_t *r = g_ptr_array_index(rows, i);

		g_hash_table_add(names, g_ascii_strdown(r->fields[0], -1));
	}
	if (!cluster && g_hash_table_size(names) > 1) {
		GPtrArray *l = g_ptr_array_new();
		GHashTableIter it;
		gpointer k;
		char *list;

		g_hash_table_iter_init(&it, names);
		while (g_hash_table_iter_next(&it, &k, NULL))
			g_ptr_array_add(l, k);
		g_ptr_array_sort(l, _name_cmp);
		g_ptr_array_add(l, NULL);
		list = g_strjoinv(", ", (char **) l->pdata);
		rc = mf_errprintf(errp, "%s: associations of %u clusters (%s): "
				  "name one (ClusterName in slurm.conf, or "
				  "--cluster)", path,
				  g_hash_table_size(names), list);
		g_free(list);
		g_ptr_array_free(l, TRUE);
		goto out;
	}
	if (want && !g_hash_table_contains(names, want)) {
		rc = mf_errprintf(errp, "%s: no association of cluster '%s'",
				  path, cluster);
		goto out;
	}
	for (guint i = 0; i < rows->len; i++) {
		mf_drow_t *r = g_ptr_array_index(rows, i);
		char **f = r->fields;
		bool take = !want || !g_ascii_strcasecmp(f[0], want);

		if (take) {
			char **four = g_new0(char *, 6);

			four[0] = g_strdup(f[1]);
			four[1] = g_strdup(f[2]);
			four[2] = g_strdup(f[ncols - 2]);
			four[3] = g_strdup(f[ncols - 1]);
			four[4] = g_strdup(ncols == 6 && *f[2] ? f[3] : "");
			g_strfreev(r->fields);
			r->fields = four;
			r->n = 5;
			g_ptr_array_add(kept, r);
		} else {
			mf_drow_free(r);
		}
	}
	/* the rows now belong to KEPT's order, in ROWS */
	g_ptr_array_set_free_func(rows, NULL);
	g_ptr_array_set_size(rows, 0);
	g_ptr_array_set_free_func(rows, mf_drow_free);
	for (guint i = 0; i < kept->len; i++)
		g_ptr_array_add(rows, kept->pdata[i]);
out:
	g_ptr_array_free(kept, TRUE);
	g_hash_table_destroy(names);
	g_free(want);
	return rc;
}

/* Row R of PATH, an account's (no User) or a user's: its Account and
 * Fairshare fields checked, its shares in *SHARES.  Returns 0 or -1. */
static int _check_row(const mf_drow_t *r, const char *path, uint32_t *shares,
		      mf_error_t *errp)
{
	if (!*r->fields[0])
		return mf_drow_error(r, path, errp, "empty Account field");
	if (_parse_shares(r->fields[3], shares))
		return mf_drow_error(r, path, errp, "Fairshare '%s' is not a "
				  "whole number >= 0 or 'parent'",
				  r->fields[3]);
	return 0;
}

/* The account of row R (no User) into TREE and ACCTS (name -> its
 * _acct_row_t).  Returns 0 or -1. */
static int _add_account_row(mf_tree_t *tree, GHashTable *accts,
			    const mf_drow_t *r, uint32_t shares,
			    const char *path, mf_error_t *errp)
{
	const char *acct = r->fields[0], *parent = r->fields[2];
	_acct_row_t *ar;
	mf_error_t e;

	if (!strcmp(acct, "root") && *parent)
		return mf_drow_error(r, path, errp, "account 'root' has a parent "
				  "('%s')", parent);
	if (strcmp(acct, "root") && !*parent)
		return mf_drow_error(r, path, errp, "account '%s' has no "
				  "ParentName", acct);
	if (g_hash_table_contains(accts, acct))
		return mf_drow_error(r, path, errp, "duplicate account '%s'",
				  acct);
	if (!mf_tree_add_account(tree, acct, parent, shares, &e))
		return mf_drow_error(r, path, errp, "%s", e.text);
	ar = g_new0(_acct_row_t, 1);
	ar->name = acct;
	ar->parent = *parent ? parent : "root";
	ar->line = r->line;
	g_hash_table_insert(accts, (gpointer) acct, ar);
	return 0;
}

/* The user association of row R into TREE, its account in ACCTS or root.
 * Returns 0 or -1. */
static int _add_user_row(mf_tree_t *tree, GHashTable *accts,
			 const mf_drow_t *r, const char *path, mf_error_t *errp)
{
	const char *acct = r->fields[0], *user = r->fields[1];
	const char *part = r->n > 4 ? r->fields[4] : NULL;
	uint32_t shares;
	mf_error_t e;

	if (!g_hash_table_contains(accts, acct) && strcmp(acct, "root"))
		return mf_drow_error(r, path, errp, "user '%s' is in account "
				  "'%s', which is not in the file", user,
				  acct);
	(void) _parse_shares(r->fields[3], &shares);
	if (!mf_tree_add_user_part(tree, user, acct, part, shares, &e))
		/* a user twice in a dump without Partition column: most
		 * likely per-partition associations */
		return mf_drow_error(r, path, errp, "%s%s", e.text, part ? "" :
				  " (associations per partition? dump them "
				  "with format=Cluster,Account,User,"
				  "Partition,ParentName,Fairshare)");
	return 0;
}

static int _load_assocs(mf_tree_t *tree, const char *path,
			const char *cluster, mf_error_t *errp)
{
	guint ncols = mf_drows_columns(path);
	const mf_dump_kind_t *kind = ncols == 5 ? &mf_dump_assoc_cluster :
				     ncols == 6 ? &mf_dump_assoc_cluster_part :
				     &mf_dump_assoc;
	GPtrArray *rows = mf_drows_read(path, kind, errp);
	GHashTable *accts;
	mf_error_t e;
	int rc = 0;

	if (!rows)
		return -1;
	if ((ncols == 5 || ncols == 6) &&
	    _pick_cluster(rows, ncols, cluster, path, errp)) {
		g_ptr_array_free(rows, TRUE);
		return -1;
	}
	accts = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	/* accounts first, so users may come before their account */
	for (guint i = 0; i < rows->len && !rc; i++) {
		const mf_drow_t *r = g_ptr_array_index(rows, i);
		uint32_t shares;

		rc = _check_row(r, path, &shares, errp);
		if (!rc && !*r->fields[1])
			rc = _add_account_row(tree, accts, r, shares, path,
					      errp);
	}
	if (!rc)
		rc = _check_parents(accts, path, errp);
	for (guint i = 0; i < rows->len && !rc; i++) {
		const mf_drow_t *r = g_ptr_array_index(rows, i);

		if (*r->fields[1])
			rc = _add_user_row(tree, accts, r, path, errp);
	}
	g_hash_table_destroy(accts);
	g_ptr_array_free(rows, TRUE);
	if (!rc && mf_tree_finalize(tree, &e))
		rc = mf_errprintf(errp, "%s: %s", path, e.text);
	return rc;
}

mf_tree_t *mf_snapshot_load(const char *assoc_path, const char *usage_path,
			    mf_error_t *errp)
{
	return mf_snapshot_load_cluster(assoc_path, usage_path, NULL, errp);
}

mf_tree_t *mf_snapshot_load_cluster(const char *assoc_path,
				    const char *usage_path,
				    const char *cluster, mf_error_t *errp)
{
	mf_tree_t *tree = mf_tree_create();

	if (_load_assocs(tree, assoc_path, cluster, errp) ||
	    (usage_path && mf_usage_load(tree, usage_path, errp))) {
		mf_tree_destroy(tree);
		return NULL;
	}
	mf_tree_sum_usage(tree);
	return tree;
}


