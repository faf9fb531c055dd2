/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_input: a usage dump read into an association tree
 * (usage_input.h).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_mgr.h"
#include "dump_header.h"
#include "dump_rows.h"
#include "usage_input.h"

static int _load_usage(mf_tree_t *tree, const char *path, mf_error_t *errp);
static int _set_usage(mf_tree_t *tree, GHashTable *seen, const char *acct,
		      const char *user, const char *part, long double usage,
		      const char *path, int line, mf_error_t *errp);
static int _set_usage_in(mf_tree_t *tree, GHashTable *seen,
			 GHashTable *byuser, const char *acct,
			 const char *user, const char *part,
			 long double usage, const char *path, int line,
			 mf_error_t *errp);
static GHashTable *_user_assocs(const mf_tree_t *tree);
static int _load_amgr_usage(mf_tree_t *tree, const char *path,
			    mf_error_t *errp);

/*
 * "ACCT\nUSER" -> the GPtrArray of USER's associations in ACCT (one per
 * partition, and the one without), in sshare's order: for a usage dump
 * without Partition column, whose rows of one user and account come in
 * that order.
 */
static GHashTable *_user_assocs(const mf_tree_t *tree)
{
	GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      (GDestroyNotify) g_ptr_array_unref);

	for (guint i = 0; i < tree->order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(tree->order, i);
		char *key;
		GPtrArray *l;

		if (!a->user)
			continue;
		key = g_strconcat(a->acct, "\n", a->user, NULL);
		l = g_hash_table_lookup(h, key);
		if (!l) {
			l = g_ptr_array_new();
			g_hash_table_insert(h, key, l);
		} else {
			g_free(key);
		}
		g_ptr_array_add(l, a);
	}
	return h;
}

/*
 * One usage figure of PATH:LINE: a user's (ACCT, USER, PART) is set, once
 * (SEEN holds those set); an account's (USER "") only checked to be in the
 * tree, as an account's usage is the sum over its subtree.  PART NULL (a
 * dump without Partition column): the first of the user's associations in
 * ACCT, in sshare's order, not set yet (BYUSER: _user_assocs()).
 */
static int _set_usage_in(mf_tree_t *tree, GHashTable *seen,
			 GHashTable *byuser, const char *acct,
			 const char *user, const char *part,
			 long double usage, const char *path, int line,
			 mf_error_t *errp)
{
	mf_assoc_t *a = NULL;

	if (!*user) {
		if (!mf_tree_find_account(tree, acct))
			fprintf(stderr, "mfprio: warning: %s:%d: account '%s' "
				"is not in the association file (dumps taken "
				"apart?): row ignored\n", path, line, acct);
		return 0;
	}
	if (part) {
		a = mf_tree_find_user_part(tree, acct, user, part);
	} else {
		char *key = g_strconcat(acct, "\n", user, NULL);
		GPtrArray *l = byuser ? g_hash_table_lookup(byuser, key) :
			       NULL;

		g_free(key);
		for (guint i = 0; l && i < l->len; i++) {
			a = g_ptr_array_index(l, i);
			if (!g_hash_table_contains(seen, a))
				break;
		}
	}
	if (!a) {
		fprintf(stderr, "mfprio: warning: %s:%d: user '%s' in account "
			"'%s'%s%s%s is not in the association file (dumps "
			"taken apart?): its usage, %.0Lf, is left out\n", path,
			line, user, acct, part && *part ? " on partition '" :
			"", part && *part ? part : "", part && *part ? "'" :
			"", usage);
		return 0;
	}
	if (g_hash_table_contains(seen, a)) {
		if (a->partition)
			return mf_errprintf(errp, "%s:%d: second usage row for "
					    "user '%s' in account '%s' on "
					    "partition '%s'", path, line, user,
					    acct, a->partition);
		return mf_errprintf(errp, "%s:%d: second usage row for user "
				    "'%s' in account '%s'", path, line, user,
				    acct);
	}
	g_hash_table_add(seen, a);
	a->usage_raw = usage;
	return 0;
}

static int _set_usage(mf_tree_t *tree, GHashTable *seen, const char *acct,
		      const char *user, const char *part, long double usage,
		      const char *path, int line, mf_error_t *errp)
{
	return _set_usage_in(tree, seen, NULL, acct, user, part ? part : "",
			     usage, path, line, errp);
}

bool mf_usage_is_amgr(const char *path)
{
	char *text = NULL;
	char **lines;
	bool amgr = false;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return false;
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	for (int i = 0; lines[i]; i++) {
		char *l = g_strstrip(lines[i]);

		if (!*l || *l == '#')
			continue;
		amgr = mf_dump_is_amgr(l);
		break;
	}
	g_strfreev(lines);
	return amgr;
}

static int _load_amgr_usage(mf_tree_t *tree, const char *path,
			    mf_error_t *errp)
{
	mf_amgr_t *m = mf_amgr_load(path, errp);
	GHashTable *seen;
	int rc = 0;

	if (!m)
		return -1;
	if (!m->assocs->len) {
		mf_amgr_free(m);
		return mf_errprintf(errp, "%s: no association record in it "
				    "(scontrol show assoc_mgr flags=assoc "
				    "lists root's at least)", path);
	}
	seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (guint i = 0; i < m->assocs->len && !rc; i++) {
		const mf_amgr_assoc_t *a = m->assocs->pdata[i];

		if (*a->user && !a->has_usage) {
			rc = mf_errprintf(errp, "%s:%d: no UsageRaw in the "
					  "record of user '%s' in account "
					  "'%s'", path, a->line, a->user,
					  a->account);
			if (mf_amgr_record_cut(m, a->line))
				mf_dump_note_cut(errp, "this record");
		} else {
			rc = _set_usage(tree, seen, a->account, a->user,
					a->partition, a->usage_raw, path,
					a->line, errp);
		}
	}
	g_hash_table_destroy(seen);
	mf_amgr_free(m);
	return rc;
}

/* The usage of row R of PATH into *USAGE, its fields checked; PARTS: the
 * dump has a Partition column.  Returns 0 or -1. */
static int _row_usage(const mf_drow_t *r, bool parts, const char *path,
		      long double *usage, mf_error_t *errp)
{
	const char *raw = r->fields[parts ? 3 : 2];

	if (!*r->fields[0])
		return mf_drow_error(r, path, errp, "empty Account field");
	/* sshare prints no partition on an account's row; the association
	 * dump has the same four columns, ParentName third */
	if (parts && !*r->fields[1] && *r->fields[2])
		return mf_drow_error(r, path, errp, "account '%s' with Partition "
				  "'%s': sshare prints no partition on an "
				  "account's row (is this the association "
				  "dump, Account|User|ParentName|Fairshare?)",
				  r->fields[0], r->fields[2]);
	if (mf_amgr_parse_usage(raw, usage))
		return mf_drow_error(r, path, errp, "RawUsage '%s' is not a "
				  "number >= 0", raw);
	return 0;
}

static int _load_usage(mf_tree_t *tree, const char *path, mf_error_t *errp)
{
	/* with a Partition column (sshare -o Account,User,Partition,RawUsage)
	 * each row names its association; without, a user's rows in one
	 * account come in sshare's order */
	bool parts = mf_drows_columns(path) == 4;
	GPtrArray *rows = mf_drows_read(path, parts ? &mf_dump_usage_part :
				     &mf_dump_usage, errp);
	GHashTable *seen, *byuser = NULL;
	int rc = 0;

	if (!rows)
		return -1;
	seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	if (!parts)
		byuser = _user_assocs(tree);
	for (guint i = 0; i < rows->len && !rc; i++) {
		const mf_drow_t *r = g_ptr_array_index(rows, i);
		long double usage = 0.0L;

		rc = _row_usage(r, parts, path, &usage, errp);
		if (!rc)
			rc = _set_usage_in(tree, seen, byuser, r->fields[0],
					   r->fields[1], parts ? r->fields[2] :
					   NULL, usage, path, r->line, errp);
	}
	if (byuser)
		g_hash_table_destroy(byuser);
	g_hash_table_destroy(seen);
	g_ptr_array_free(rows, TRUE);
	return rc;
}

int mf_usage_load(mf_tree_t *tree, const char *path, mf_error_t *errp)
{
	return mf_usage_is_amgr(path) ? _load_amgr_usage(tree, path, errp) :
				_load_usage(tree, path, errp);
}
