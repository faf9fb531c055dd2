/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <glib.h>

#include "assoc_mgr.h"
#include "sshare_tres.h"

struct mf_sshare_tres {
	mf_amgr_t *dump;
	GHashTable *rows;        /* key (_key) -> mf_amgr_assoc_t*, not owned */
};

static char *_key(const char *acct, const char *user, const char *part);
static const mf_amgr_assoc_t *_find(const mf_sshare_tres_t *t,
				    const char *acct, const char *user,
				    const char *part);

/* The lookup key of a row: its three names, separated by '|' (which none
 * of them holds). */
static char *_key(const char *acct, const char *user, const char *part)
{
	return g_strdup_printf("%s|%s|%s", acct, user ? user : "",
			       part ? part : "");
}

mf_sshare_tres_t *mf_sshare_tres_load(const char *path, mf_error_t *errp)
{
	mf_sshare_tres_t *t = g_new0(mf_sshare_tres_t, 1);

	if (!(t->dump = mf_amgr_load(path, errp))) {
		g_free(t);
		return NULL;
	}
	t->rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < t->dump->assocs->len; i++) {
		mf_amgr_assoc_t *a = t->dump->assocs->pdata[i];

		/* the first record of a row wins, as in the usage reader */
		char *k = _key(a->account, a->user, a->partition);

		if (g_hash_table_contains(t->rows, k))
			g_free(k);
		else
			g_hash_table_insert(t->rows, k, a);
	}
	return t;
}

static const mf_amgr_assoc_t *_find(const mf_sshare_tres_t *t,
				    const char *acct, const char *user,
				    const char *part)
{
	char *k;
	const mf_amgr_assoc_t *a;

	if (!t)
		return NULL;
	k = _key(acct, user, part);
	a = g_hash_table_lookup(t->rows, k);
	g_free(k);
	return a;
}

const char *mf_sshare_tres_grp_mins(const mf_sshare_tres_t *t,
				    const char *acct, const char *user,
				    const char *partition)
{
	const mf_amgr_assoc_t *a = _find(t, acct, user, partition);

	return a ? a->grp_tres_mins : NULL;
}

const char *mf_sshare_tres_run_mins(const mf_sshare_tres_t *t,
				    const char *acct, const char *user,
				    const char *partition)
{
	const mf_amgr_assoc_t *a = _find(t, acct, user, partition);

	return a ? a->tres_run_mins : NULL;
}

void mf_sshare_tres_free(mf_sshare_tres_t *t)
{
	if (!t)
		return;
	if (t->rows)
		g_hash_table_destroy(t->rows);
	mf_amgr_free(t->dump);
	g_free(t);
}
