/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <string.h>

#include "assoc_tree.h"

static mf_assoc_t *_assoc_new(mf_tree_t *tree, const char *acct,
			      const char *user, const char *parent,
			      uint32_t shares);
static mf_assoc_t *_assoc_alloc(mf_tree_t *tree);
static void _assoc_free(gpointer p);
static const char *_user_key(mf_tree_t *tree, const char *acct,
			     const char *user, const char *partition);
static gint _cmp_display(gconstpointer a, gconstpointer b);
static void _display_walk(mf_tree_t *tree, mf_assoc_t *a, int depth);
static void _sum_usage(mf_assoc_t *a);

/* The first slab's size, and the largest: slabs double up to it. */
#define _SLAB_MIN 16
#define _SLAB_MAX 4096

/* A zeroed association from the tree's current slab. */
static mf_assoc_t *_assoc_alloc(mf_tree_t *tree)
{
	mf_assoc_t *a;

	if (!tree->slab || tree->slab_used == tree->slab_size) {
		tree->slab_size = tree->slab_size ?
			MIN(tree->slab_size * 2, _SLAB_MAX) : _SLAB_MIN;
		tree->slab = g_new(mf_assoc_t, tree->slab_size);
		tree->slab_used = 0;
		g_ptr_array_add(tree->slabs, tree->slab);
	}
	a = &tree->slab[tree->slab_used++];
	memset(a, 0, sizeof(*a));
	return a;
}

/* Account names are stored once however many associations name them; a
 * user's parent account is its account. */
static mf_assoc_t *_assoc_new(mf_tree_t *tree, const char *acct,
			      const char *user, const char *parent,
			      uint32_t shares)
{
	mf_assoc_t *a = _assoc_alloc(tree);

	a->acct = g_string_chunk_insert_const(tree->names, acct);
	if (user) {
		a->user = g_string_chunk_insert(tree->names, user);
		a->parent_acct = a->acct;
	} else {
		a->parent_acct = parent ?
			g_string_chunk_insert_const(tree->names, parent) :
			NULL;
		a->children = g_ptr_array_new();
		a->fs_children = g_ptr_array_new();
	}
	a->shares_raw = shares;
	a->shares_norm = NAN;
	a->usage_norm = NAN;
	a->usage_efctv = NAN;
	a->fs_factor = NAN;
	a->level_fs = NAN;
	return a;
}

static void _assoc_free(gpointer p)
{
	mf_assoc_t *a = p;

	if (!a)
		return;
	if (a->children)
		g_ptr_array_free(a->children, TRUE);
	if (a->fs_children)
		g_ptr_array_free(a->fs_children, TRUE);
}

/* "ACCT\nUSER", or "ACCT\nUSER\nPARTITION" when PARTITION is set and not
 * empty, in the tree's scratch string (valid until the next call). */
static const char *_user_key(mf_tree_t *tree, const char *acct,
			     const char *user, const char *partition)
{
	g_string_assign(tree->key, acct);
	g_string_append_c(tree->key, '\n');
	g_string_append(tree->key, user);
	if (partition && *partition) {
		g_string_append_c(tree->key, '\n');
		g_string_append(tree->key, partition);
	}
	return tree->key->str;
}

mf_tree_t *mf_tree_create(void)
{
	mf_tree_t *tree = g_new0(mf_tree_t, 1);

	tree->order = g_ptr_array_new();
	tree->input_order = g_ptr_array_new_with_free_func(_assoc_free);
	tree->accounts = g_hash_table_new(g_str_hash, g_str_equal);
	tree->users = g_hash_table_new(g_str_hash, g_str_equal);
	tree->slabs = g_ptr_array_new_with_free_func(g_free);
	tree->names = g_string_chunk_new(4096);
	tree->key = g_string_new(NULL);
	tree->root = _assoc_new(tree, "root", NULL, NULL, 1);
	g_ptr_array_add(tree->input_order, tree->root);
	g_hash_table_insert(tree->accounts, tree->root->acct, tree->root);
	return tree;
}

void mf_tree_destroy(mf_tree_t *tree)
{
	if (!tree)
		return;
	g_hash_table_destroy(tree->accounts);
	g_hash_table_destroy(tree->users);
	g_ptr_array_free(tree->order, TRUE);
	g_ptr_array_free(tree->input_order, TRUE);
	g_ptr_array_free(tree->slabs, TRUE);
	g_string_chunk_free(tree->names);
	g_string_free(tree->key, TRUE);
	g_free(tree);
}

mf_assoc_t *mf_tree_add_account(mf_tree_t *tree, const char *name,
				 const char *parent, uint32_t shares,
				 mf_error_t *errp)
{
	mf_assoc_t *a;

	if (tree->finalized) {
		mf_errprintf(errp, "account '%s' added after the tree was "
			     "finalized", name ? name : "");
		return NULL;
	}
	if (!name || !*name) {
		mf_errprintf(errp, "account with an empty name");
		return NULL;
	}
	if (!strcmp(name, "root")) {
		if (parent && *parent) {
			mf_errprintf(errp, "account 'root' cannot have a "
				     "parent ('%s')", parent);
			return NULL;
		}
		tree->root->shares_raw = shares;
		return tree->root;
	}
	if (g_hash_table_contains(tree->accounts, name)) {
		mf_errprintf(errp, "duplicate account '%s'", name);
		return NULL;
	}
	if (!parent || !*parent)
		parent = "root";
	if (!strcmp(parent, name)) {
		mf_errprintf(errp, "account '%s' is its own parent", name);
		return NULL;
	}
	a = _assoc_new(tree, name, NULL, parent, shares);
	g_ptr_array_add(tree->input_order, a);
	g_hash_table_insert(tree->accounts, a->acct, a);
	return a;
}

mf_assoc_t *mf_tree_add_user(mf_tree_t *tree, const char *user,
			     const char *acct, uint32_t shares,
			     mf_error_t *errp)
{
	return mf_tree_add_user_part(tree, user, acct, NULL, shares, errp);
}

mf_assoc_t *mf_tree_add_user_part(mf_tree_t *tree, const char *user,
				  const char *acct, const char *partition,
				  uint32_t shares, mf_error_t *errp)
{
	mf_assoc_t *a;
	const char *key;

	if (tree->finalized) {
		mf_errprintf(errp, "user '%s' added after the tree was "
			     "finalized", user ? user : "");
		return NULL;
	}
	if (!user || !*user) {
		mf_errprintf(errp, "user with an empty name");
		return NULL;
	}
	if (!acct || !*acct) {
		mf_errprintf(errp, "user '%s' has no account", user);
		return NULL;
	}
	key = _user_key(tree, acct, user, partition);
	if (g_hash_table_contains(tree->users, key)) {
		if (partition && *partition)
			mf_errprintf(errp, "duplicate association of user "
				     "'%s' in account '%s' on partition '%s'",
				     user, acct, partition);
		else
			mf_errprintf(errp, "duplicate association of user "
				     "'%s' in account '%s'", user, acct);
		return NULL;
	}
	a = _assoc_new(tree, acct, user, acct, shares);
	if (partition && *partition)
		a->partition = g_string_chunk_insert_const(tree->names,
							   partition);
	g_ptr_array_add(tree->input_order, a);
	g_hash_table_insert(tree->users,
			    g_string_chunk_insert_len(tree->names, key,
						      tree->key->len), a);
	tree->user_count++;
	return a;
}

mf_assoc_t *mf_tree_find_account(const mf_tree_t *tree, const char *name)
{
	return g_hash_table_lookup(tree->accounts, name);
}

mf_assoc_t *mf_tree_find_user(const mf_tree_t *tree, const char *acct,
			      const char *user)
{
	return mf_tree_find_user_part(tree, acct, user, NULL);
}

mf_assoc_t *mf_tree_find_user_part(const mf_tree_t *tree, const char *acct,
				   const char *user, const char *partition)
{
	/* no scratch string here: the tree is const, and lookups may run
	 * side by side */
	char *key = partition && *partition ?
		g_strconcat(acct, "\n", user, "\n", partition, NULL) :
		g_strconcat(acct, "\n", user, NULL);
	mf_assoc_t *a = g_hash_table_lookup(tree->users, key);

	g_free(key);
	return a;
}

mf_assoc_t *mf_tree_find_job_assoc(const mf_tree_t *tree, const char *acct,
				   const char *user, const char *partition)
{
	mf_assoc_t *a = NULL;

	if (partition && *partition)
		a = mf_tree_find_user_part(tree, acct, user, partition);
	return a ? a : mf_tree_find_user_part(tree, acct, user, NULL);
}

/* sshare's order among siblings: users before accounts, each by name; a
 * user's associations in one account (one per partition) keep the order
 * they were added in (the sort is stable), as sshare keeps the order the
 * database lists them in. */
static gint _cmp_display(gconstpointer pa, gconstpointer pb)
{
	const mf_assoc_t *a = *(mf_assoc_t *const *)pa;
	const mf_assoc_t *b = *(mf_assoc_t *const *)pb;

	if (!a->user != !b->user)
		return a->user ? -1 : 1;
	return strcmp(a->user ? a->user : a->acct,
		      b->user ? b->user : b->acct);
}

static void _display_walk(mf_tree_t *tree, mf_assoc_t *a, int depth)
{
	a->depth = depth;
	g_ptr_array_add(tree->order, a);
	if (!a->children)
		return;
	g_ptr_array_sort(a->children, _cmp_display);
	for (guint i = 0; i < a->children->len; i++)
		_display_walk(tree, g_ptr_array_index(a->children, i),
			      depth + 1);
}

int mf_tree_finalize(mf_tree_t *tree, mf_error_t *errp)
{
	GPtrArray *all = tree->input_order;

	if (tree->finalized)
		return 0;

	/* direct parents */
	for (guint i = 0; i < all->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(all, i);

		if (a == tree->root)
			continue;
		a->parent = g_hash_table_lookup(tree->accounts,
						a->parent_acct);
		if (!a->parent) {
			if (a->user)
				return mf_errprintf(errp, "user '%s' is in "
					"account '%s', which does not exist",
					a->user, a->acct);
			return mf_errprintf(errp, "account '%s' has parent "
					    "'%s', which does not exist",
					    a->acct, a->parent_acct);
		}
	}

	/* every account must reach root within as many steps as there are
	 * accounts; otherwise it sits on a cycle */
	for (guint i = 0; i < all->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(all, i);
		guint steps = 0;

		for (mf_assoc_t *p = a; p && p != tree->root; p = p->parent) {
			if (++steps > all->len)
				return mf_errprintf(errp, "account '%s' is "
					"in a cycle of parents", a->acct);
		}
	}

	for (guint i = 0; i < all->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(all, i);

		if (a->parent)
			g_ptr_array_add(a->parent->children, a);
	}

	/* fair-share parent: the nearest ancestor not FairShare=parent;
	 * root stops the walk whatever its shares */
	for (guint i = 0; i < all->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(all, i);
		mf_assoc_t *p = a->parent;

		if (!p)
			continue;
		while (p->parent && mf_assoc_is_parent_fs(p))
			p = p->parent;
		a->fs_parent = p;
		g_ptr_array_add(p->fs_children, a);
	}

	/* level shares: non-parent shares among fair-share siblings */
	for (guint i = 0; i < all->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(all, i);
		uint32_t sum = 0;

		if (!a->fs_children)
			continue;
		for (guint j = 0; j < a->fs_children->len; j++) {
			mf_assoc_t *c = g_ptr_array_index(a->fs_children, j);

			if (!mf_assoc_is_parent_fs(c))
				sum += c->shares_raw;
		}
		for (guint j = 0; j < a->fs_children->len; j++) {
			mf_assoc_t *c = g_ptr_array_index(a->fs_children, j);

			c->level_shares = sum;
		}
	}

	g_ptr_array_set_size(tree->order, 0);
	_display_walk(tree, tree->root, 0);
	tree->finalized = true;
	return 0;
}

static void _sum_usage(mf_assoc_t *a)
{
	if (!a->children)
		return;
	for (guint i = 0; i < a->children->len; i++) {
		mf_assoc_t *c = g_ptr_array_index(a->children, i);

		_sum_usage(c);
		a->usage_raw += c->usage_raw;
	}
}

void mf_tree_sum_usage(mf_tree_t *tree)
{
	_sum_usage(tree->root);
}

void mf_tree_reset_results(mf_tree_t *tree)
{
	for (guint i = 0; i < tree->input_order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(tree->input_order, i);

		a->usage_norm = NAN;
		a->usage_efctv = NAN;
		a->level_fs = NAN;
		a->shares_norm = NAN;
		a->fs_factor = NAN;
	}
}
