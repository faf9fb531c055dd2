/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
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
} _row_t;

/* An account row of the assoc file, kept for the parent checks. */
typedef struct {
	const char *name;
	const char *parent;
	int line;
} _acct_row_t;

static GPtrArray *_read_rows(const char *path, const char *const *titles,
			     mf_error_t *errp);
static void _row_free(gpointer p);
static int _parse_shares(const char *s, uint32_t *out);
static int _parse_usage(const char *s, long double *out);
static int _check_parents(GHashTable *accts, const char *path,
			  mf_error_t *errp);
static int _load_assocs(mf_tree_t *tree, const char *path, mf_error_t *errp);
static int _load_usage(mf_tree_t *tree, const char *path, mf_error_t *errp);
static int _set_usage(mf_tree_t *tree, GHashTable *seen, const char *acct,
		      const char *user, long double usage, const char *path,
		      int line, mf_error_t *errp);
static int _load_amgr_usage(mf_tree_t *tree, const char *path,
			    mf_error_t *errp);
static bool _is_amgr(const char *path);

static void _row_free(gpointer p)
{
	_row_t *r = p;

	g_strfreev(r->fields);
	g_free(r);
}

/*
 * Read PATH as '|'-separated rows of as many fields as TITLES has (one
 * optional trailing '|', as `-p` prints).  Blank lines and lines starting
 * with '#' are skipped, and so is a first line that is TITLES' header.
 */
static GPtrArray *_read_rows(const char *path, const char *const *titles,
			     mf_error_t *errp)
{
	guint nfields = g_strv_length((char **)titles);
	bool first = true;
	char *text = NULL;
	char **lines;
	GError *gerr = NULL;
	GPtrArray *rows;
	gsize size = 0;
	const char *nul;

	if (!g_file_get_contents(path, &text, &size, &gerr)) {
		mf_errprintf(errp, "%s: %s", path, gerr->message);
		g_error_free(gerr);
		return NULL;
	}
	if ((nul = memchr(text, '\0', size)) != NULL) {
		int line = 1;

		for (const char *c = text; c < nul; c++)
			line += (*c == '\n');
		g_free(text);
		mf_errprintf(errp, "%s:%d: a NUL byte: not a text dump", path,
			     line);
		return NULL;
	}
	rows = g_ptr_array_new_with_free_func(_row_free);
	lines = g_strsplit(text, "\n", -1);
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
		if (first && mf_dump_is_header(l, titles)) {
			first = false;
			continue;
		}
		first = false;
		r = g_new0(_row_t, 1);
		r->line = i + 1;
		r->fields = g_strsplit(l, "|", -1);
		r->n = g_strv_length(r->fields);
		if (r->n == nfields + 1 && !*r->fields[nfields]) {
			g_free(r->fields[nfields]);
			r->fields[nfields] = NULL;
			r->n = nfields;
		}
		g_ptr_array_add(rows, r);
		if (r->n != nfields) {
			mf_errprintf(errp, "%s:%d: %u fields where %u were "
				     "expected", path, i + 1, r->n, nfields);
			goto fail;
		}
		for (guint f = 0; f < nfields; f++)
			g_strstrip(r->fields[f]);
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

/* Raw usage: a finite number >= 0 (a fraction is allowed). */
static int _parse_usage(const char *s, long double *out)
{
	char *end;
	long double v;

	if (!*s || !(g_ascii_isdigit(*s) || *s == '.'))
		return -1;
	errno = 0;
	v = strtold(s, &end);
	if (errno || *end || !isfinite(v) || v < 0.0L)
		return -1;
	*out = v;
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

static int _load_assocs(mf_tree_t *tree, const char *path, mf_error_t *errp)
{
	GPtrArray *rows = _read_rows(path, mf_header_assoc, errp);
	GHashTable *accts;
	mf_error_t e;
	int rc = 0;

	if (!rows)
		return -1;
	accts = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);

	/* accounts first, so users may come before their account */
	for (guint i = 0; i < rows->len && !rc; i++) {
		_row_t *r = g_ptr_array_index(rows, i);
		const char *acct = r->fields[0], *user = r->fields[1];
		const char *parent = r->fields[2];
		uint32_t shares;
		_acct_row_t *ar;

		if (!*acct) {
			rc = mf_errprintf(errp, "%s:%d: empty Account field",
					  path, r->line);
			break;
		}
		if (_parse_shares(r->fields[3], &shares)) {
			rc = mf_errprintf(errp, "%s:%d: Fairshare '%s' is not "
					  "a whole number >= 0 or 'parent'",
					  path, r->line, r->fields[3]);
			break;
		}
		if (*user)
			continue;
		if (!strcmp(acct, "root") && *parent) {
			rc = mf_errprintf(errp, "%s:%d: account 'root' has a "
					  "parent ('%s')", path, r->line,
					  parent);
			break;
		}
		if (strcmp(acct, "root") && !*parent) {
			rc = mf_errprintf(errp, "%s:%d: account '%s' has no "
					  "ParentName", path, r->line, acct);
			break;
		}
		if (g_hash_table_contains(accts, acct)) {
			rc = mf_errprintf(errp, "%s:%d: duplicate account "
					  "'%s'", path, r->line, acct);
			break;
		}
		if (!mf_tree_add_account(tree, acct, parent, shares, &e)) {
			rc = mf_errprintf(errp, "%s:%d: %s", path, r->line,
					  e.text);
			break;
		}
		ar = g_new0(_acct_row_t, 1);
		ar->name = acct;
		ar->parent = *parent ? parent : "root";
		ar->line = r->line;
		g_hash_table_insert(accts, (gpointer) acct, ar);
	}
	if (!rc)
		rc = _check_parents(accts, path, errp);

	for (guint i = 0; i < rows->len && !rc; i++) {
		_row_t *r = g_ptr_array_index(rows, i);
		const char *acct = r->fields[0], *user = r->fields[1];
		uint32_t shares;

		if (!*user)
			continue;
		if (!g_hash_table_contains(accts, acct) &&
		    strcmp(acct, "root")) {
			rc = mf_errprintf(errp, "%s:%d: user '%s' is in "
					  "account '%s', which is not in the "
					  "file", path, r->line, user, acct);
			break;
		}
		(void) _parse_shares(r->fields[3], &shares);
		if (!mf_tree_add_user(tree, user, acct, shares, &e))
			rc = mf_errprintf(errp, "%s:%d: %s", path, r->line,
					  e.text);
	}
	g_hash_table_destroy(accts);
	g_ptr_array_free(rows, TRUE);
	if (!rc && mf_tree_finalize(tree, &e))
		rc = mf_errprintf(errp, "%s: %s", path, e.text);
	return rc;
}

/*
 * One usage figure of PATH:LINE: a user's (ACCT, USER) is set, once (SEEN
 * holds those set); an account's (USER "") only checked to be in the tree,
 * as an account's usage is the sum over its subtree.
 */
static int _set_usage(mf_tree_t *tree, GHashTable *seen, const char *acct,
		      const char *user, long double usage, const char *path,
		      int line, mf_error_t *errp)
{
	mf_assoc_t *a;

	if (!*user) {
		if (!mf_tree_find_account(tree, acct))
			fprintf(stderr, "mfprio: warning: %s:%d: account '%s' "
				"is not in the association file (dumps taken "
				"apart?): row ignored\n", path, line, acct);
		return 0;
	}
	a = mf_tree_find_user(tree, acct, user);
	if (!a) {
		fprintf(stderr, "mfprio: warning: %s:%d: user '%s' in account "
			"'%s' is not in the association file (dumps taken "
			"apart?): its usage, %.0Lf, is left out\n", path,
			line, user, acct, usage);
		return 0;
	}
	if (g_hash_table_contains(seen, a))
		return mf_errprintf(errp, "%s:%d: second usage row for user "
				    "'%s' in account '%s'", path, line, user,
				    acct);
	g_hash_table_add(seen, a);
	a->usage_raw = usage;
	return 0;
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
		amgr = !strchr(l, '|') &&
		       (g_str_has_prefix(l, "Current Association Manager") ||
			g_str_has_suffix(l, " Records") ||
			g_str_has_prefix(l, "ClusterName="));
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
	seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (guint i = 0; i < m->assocs->len && !rc; i++) {
		const mf_amgr_assoc_t *a = m->assocs->pdata[i];

		if (*a->user && !a->has_usage)
			rc = mf_errprintf(errp, "%s:%d: no UsageRaw in the "
					  "record of user '%s' in account "
					  "'%s'", path, a->line, a->user,
					  a->account);
		else
			rc = _set_usage(tree, seen, a->account, a->user,
					a->usage_raw, path, a->line, errp);
	}
	g_hash_table_destroy(seen);
	mf_amgr_free(m);
	return rc;
}

static int _load_usage(mf_tree_t *tree, const char *path, mf_error_t *errp)
{
	GPtrArray *rows = _read_rows(path, mf_header_usage, errp);
	GHashTable *seen;
	int rc = 0;

	if (!rows)
		return -1;
	seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (guint i = 0; i < rows->len && !rc; i++) {
		_row_t *r = g_ptr_array_index(rows, i);
		const char *acct = r->fields[0], *user = r->fields[1];
		long double usage;

		if (!*acct) {
			rc = mf_errprintf(errp, "%s:%d: empty Account field",
					  path, r->line);
			break;
		}
		if (_parse_usage(r->fields[2], &usage)) {
			rc = mf_errprintf(errp, "%s:%d: RawUsage '%s' is not "
					  "a number >= 0", path, r->line,
					  r->fields[2]);
			break;
		}
		rc = _set_usage(tree, seen, acct, user, usage, path, r->line,
				errp);
	}
	g_hash_table_destroy(seen);
	g_ptr_array_free(rows, TRUE);
	return rc;
}

mf_tree_t *mf_snapshot_load(const char *assoc_path, const char *usage_path,
			    mf_error_t *errp)
{
	mf_tree_t *tree = mf_tree_create();

	if (_load_assocs(tree, assoc_path, errp) ||
	    (usage_path && (_is_amgr(usage_path) ?
			    _load_amgr_usage(tree, usage_path, errp) :
			    _load_usage(tree, usage_path, errp)))) {
		mf_tree_destroy(tree);
		return NULL;
	}
	mf_tree_sum_usage(tree);
	return tree;
}


