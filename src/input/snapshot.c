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
#include "snapshot.h"

/* One data line of a '|'-separated dump. */
typedef struct {
	char **fields;
	guint n;
	int line;
	bool cut;                /* the file's last line, without newline */
} _row_t;

/* An account row of the assoc file, kept for the parent checks. */
typedef struct {
	const char *name;
	const char *parent;
	int line;
} _acct_row_t;

static GPtrArray *_read_rows(const char *path, const mf_dump_kind_t *kind,
			     mf_error_t *errp);
static _row_t *_new_row(const char *l, guint nfields, int line);
static int _row_error(const _row_t *r, const char *path, mf_error_t *errp,
		      const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static guint _count_columns(const char *path);
static gint _name_cmp(gconstpointer a, gconstpointer b);
static int _pick_cluster(GPtrArray *rows, guint ncols, const char *cluster,
			 const char *path, mf_error_t *errp);
static void _row_free(gpointer p);
static int _parse_shares(const char *s, uint32_t *out);
static int _check_parents(GHashTable *accts, const char *path,
			  mf_error_t *errp);
static int _load_assocs(mf_tree_t *tree, const char *path,
			const char *cluster, mf_error_t *errp);
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
static bool _is_amgr(const char *path);

static void _row_free(gpointer p)
{
	_row_t *r = p;

	g_strfreev(r->fields);
	g_free(r);
}

/* LINE, a data line, split into a row of NFIELDS fields (one trailing
 * empty field, of a trailing '|', dropped); the fields not stripped. */
static _row_t *_new_row(const char *l, guint nfields, int line)
{
	_row_t *r = g_new0(_row_t, 1);

	r->line = line;
	r->fields = g_strsplit(l, "|", -1);
	r->n = g_strv_length(r->fields);
	if (r->n == nfields + 1 && !*r->fields[nfields]) {
		g_free(r->fields[nfields]);
		r->fields[nfields] = NULL;
		r->n = nfields;
	}
	return r;
}

/* mf_errprintf() of "PATH:LINE: " and FMT for row R, saying too that the
 * file ends in the middle of R when it does.  Returns -1. */
static int _row_error(const _row_t *r, const char *path, mf_error_t *errp,
		      const char *fmt, ...)
{
	char *where = g_strdup_printf("%s:%d: ", path, r->line);
	va_list ap;

	va_start(ap, fmt);
	mf_verrprintf(errp, where, fmt, ap);
	va_end(ap);
	g_free(where);
	if (r->cut)
		mf_dump_note_cut(errp, "this line");
	return -1;
}

/*
 * Read PATH as '|'-separated rows of as many fields as KIND has titles (one
 * optional trailing '|', as `-p` prints).  Blank lines and lines starting
 * with '#' are skipped, and so is a first line that is KIND's header.  A
 * file with no row, or whose first line is plainly of another kind, is
 * refused.
 */
static GPtrArray *_read_rows(const char *path, const mf_dump_kind_t *kind,
			     mf_error_t *errp)
{
	guint nfields = g_strv_length((char **)kind->titles);
	bool first = true;
	char *text = NULL;
	char **lines;
	GPtrArray *rows;
	gsize size = 0;
	int cut_line = 0;

	if (!(text = mf_dump_read(path, &size, errp)))
		return NULL;
	rows = g_ptr_array_new_with_free_func(_row_free);
	lines = g_strsplit(text, "\n", -1);
	if (mf_dump_ends_cut(text, size))
		cut_line = (int)g_strv_length(lines);
	g_free(text);
	for (int i = 0; lines[i]; i++) {
		char *l = lines[i];
		size_t len = strlen(l);
		_row_t *r;

		if (len && l[len - 1] == '\r')
			l[--len] = '\0';
		if (!len || l[0] == '#')
			continue;
		if (!g_utf8_validate(l, -1, NULL)) {
			mf_errprintf(errp, "%s:%d: not text", path, i + 1);
			goto fail;
		}
		if (first && mf_dump_is_header(l, kind->titles)) {
			first = false;
			continue;
		}
		if (first && mf_dump_check_kind(l, kind, path, i + 1, errp))
			goto fail;
		first = false;
		r = _new_row(l, nfields, i + 1);
		r->cut = (i + 1 == cut_line);
		g_ptr_array_add(rows, r);
		if (r->n != nfields) {
			_row_error(r, path, errp, "%u field%s where %u were "
				   "expected (`%s`)", r->n, r->n == 1 ? "" :
				   "s", nfields, kind->cmd);
			goto fail;
		}
		for (guint f = 0; f < nfields; f++)
			g_strstrip(r->fields[f]);
	}
	if (!rows->len) {
		mf_errprintf(errp, "%s: %s", path, kind->empty);
		goto fail;
	}
	g_strfreev(lines);
	return rows;
fail:
	g_strfreev(lines);
	g_ptr_array_free(rows, TRUE);
	return NULL;
}

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

/* The number of '|'-separated columns of PATH's first line that is not
 * blank nor a comment (a trailing '|' not counted); 0 if none. */
static guint _count_columns(const char *path)
{
	char *text = NULL;
	char **lines;
	guint n = 0;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return 0;
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	for (int i = 0; lines[i]; i++) {
		char *l = g_strstrip(lines[i]);
		size_t len = strlen(l);

		if (!len || *l == '#')
			continue;
		n = 1;
		for (const char *c = l; *c; c++)
			n += (*c == '|');
		if (l[len - 1] == '|')
			n--;
		break;
	}
	g_strfreev(lines);
	return n;
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
		_row_t *r = g_ptr_array_index(rows, i);

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
		_row_t *r = g_ptr_array_index(rows, i);
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
			_row_free(r);
		}
	}
	/* the rows now belong to KEPT's order, in ROWS */
	g_ptr_array_set_free_func(rows, NULL);
	g_ptr_array_set_size(rows, 0);
	g_ptr_array_set_free_func(rows, _row_free);
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
static int _check_row(const _row_t *r, const char *path, uint32_t *shares,
		      mf_error_t *errp)
{
	if (!*r->fields[0])
		return _row_error(r, path, errp, "empty Account field");
	if (_parse_shares(r->fields[3], shares))
		return _row_error(r, path, errp, "Fairshare '%s' is not a "
				  "whole number >= 0 or 'parent'",
				  r->fields[3]);
	return 0;
}

/* The account of row R (no User) into TREE and ACCTS (name -> its
 * _acct_row_t).  Returns 0 or -1. */
static int _add_account_row(mf_tree_t *tree, GHashTable *accts,
			    const _row_t *r, uint32_t shares,
			    const char *path, mf_error_t *errp)
{
	const char *acct = r->fields[0], *parent = r->fields[2];
	_acct_row_t *ar;
	mf_error_t e;

	if (!strcmp(acct, "root") && *parent)
		return _row_error(r, path, errp, "account 'root' has a parent "
				  "('%s')", parent);
	if (strcmp(acct, "root") && !*parent)
		return _row_error(r, path, errp, "account '%s' has no "
				  "ParentName", acct);
	if (g_hash_table_contains(accts, acct))
		return _row_error(r, path, errp, "duplicate account '%s'",
				  acct);
	if (!mf_tree_add_account(tree, acct, parent, shares, &e))
		return _row_error(r, path, errp, "%s", e.text);
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
			 const _row_t *r, const char *path, mf_error_t *errp)
{
	const char *acct = r->fields[0], *user = r->fields[1];
	const char *part = r->n > 4 ? r->fields[4] : NULL;
	uint32_t shares;
	mf_error_t e;

	if (!g_hash_table_contains(accts, acct) && strcmp(acct, "root"))
		return _row_error(r, path, errp, "user '%s' is in account "
				  "'%s', which is not in the file", user,
				  acct);
	(void) _parse_shares(r->fields[3], &shares);
	if (!mf_tree_add_user_part(tree, user, acct, part, shares, &e))
		/* a user twice in a dump without Partition column: most
		 * likely per-partition associations */
		return _row_error(r, path, errp, "%s%s", e.text, part ? "" :
				  " (associations per partition? dump them "
				  "with format=Cluster,Account,User,"
				  "Partition,ParentName,Fairshare)");
	return 0;
}

static int _load_assocs(mf_tree_t *tree, const char *path,
			const char *cluster, mf_error_t *errp)
{
	guint ncols = _count_columns(path);
	const mf_dump_kind_t *kind = ncols == 5 ? &mf_dump_assoc_cluster :
				     ncols == 6 ? &mf_dump_assoc_cluster_part :
				     &mf_dump_assoc;
	GPtrArray *rows = _read_rows(path, kind, errp);
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
		const _row_t *r = g_ptr_array_index(rows, i);
		uint32_t shares;

		rc = _check_row(r, path, &shares, errp);
		if (!rc && !*r->fields[1])
			rc = _add_account_row(tree, accts, r, shares, path,
					      errp);
	}
	if (!rc)
		rc = _check_parents(accts, path, errp);
	for (guint i = 0; i < rows->len && !rc; i++) {
		const _row_t *r = g_ptr_array_index(rows, i);

		if (*r->fields[1])
			rc = _add_user_row(tree, accts, r, path, errp);
	}
	g_hash_table_destroy(accts);
	g_ptr_array_free(rows, TRUE);
	if (!rc && mf_tree_finalize(tree, &e))
		rc = mf_errprintf(errp, "%s: %s", path, e.text);
	return rc;
}

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

/* PATH's first line that is not blank nor a comment is not '|'-separated
 * and is assoc_mgr's (a read error is left for the reader to report). */
static bool _is_amgr(const char *path)
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
static int _row_usage(const _row_t *r, bool parts, const char *path,
		      long double *usage, mf_error_t *errp)
{
	const char *raw = r->fields[parts ? 3 : 2];

	if (!*r->fields[0])
		return _row_error(r, path, errp, "empty Account field");
	/* sshare prints no partition on an account's row; the association
	 * dump has the same four columns, ParentName third */
	if (parts && !*r->fields[1] && *r->fields[2])
		return _row_error(r, path, errp, "account '%s' with Partition "
				  "'%s': sshare prints no partition on an "
				  "account's row (is this the association "
				  "dump, Account|User|ParentName|Fairshare?)",
				  r->fields[0], r->fields[2]);
	if (mf_amgr_parse_usage(raw, usage))
		return _row_error(r, path, errp, "RawUsage '%s' is not a "
				  "number >= 0", raw);
	return 0;
}

static int _load_usage(mf_tree_t *tree, const char *path, mf_error_t *errp)
{
	/* with a Partition column (sshare -o Account,User,Partition,RawUsage)
	 * each row names its association; without, a user's rows in one
	 * account come in sshare's order */
	bool parts = _count_columns(path) == 4;
	GPtrArray *rows = _read_rows(path, parts ? &mf_dump_usage_part :
				     &mf_dump_usage, errp);
	GHashTable *seen, *byuser = NULL;
	int rc = 0;

	if (!rows)
		return -1;
	seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	if (!parts)
		byuser = _user_assocs(tree);
	for (guint i = 0; i < rows->len && !rc; i++) {
		const _row_t *r = g_ptr_array_index(rows, i);
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
	    (usage_path && (_is_amgr(usage_path) ?
			    _load_amgr_usage(tree, usage_path, errp) :
			    _load_usage(tree, usage_path, errp)))) {
		mf_tree_destroy(tree);
		return NULL;
	}
	mf_tree_sum_usage(tree);
	return tree;
}


