/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assoc_tree: the association tree the fair-share algorithms work on.
 *
 * An association is an account (user == NULL) or a user in an account.
 * A user may hold several associations in one account: one per partition
 * (partition set) and at most one without partition, each its own leaf
 * with its own shares and usage, as Slurm keeps them; a leaf's key is
 * (account, user, partition).
 * Users and sub-accounts of an account are siblings.  The tree always has a
 * root account named "root".  Shares are raw shares as sacctmgr shows them,
 * or MF_SHARES_PARENT for FairShare=parent.
 *
 * Building: create the tree, add accounts and users in any order (parents
 * are found by name), then call mf_tree_finalize(), which links parents,
 * rejects unknown parents and cycles, and derives the fair-share links
 * (fs_parent, fs_children, level_shares) and the sshare display order.
 * After finalize the shape is frozen; usage and results may change.
 *
 * Ownership: the tree owns every mf_assoc_t and every string in it; callers
 * get borrowed pointers valid until mf_tree_destroy().  Associations are
 * carved from large blocks and names are stored once in a string chunk, so
 * a tree of a million associations costs a few allocations, not millions;
 * callers must not free or resize any of them, nor write into the names.
 */
#ifndef MFPRIO_ASSOC_TREE_H
#define MFPRIO_ASSOC_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "mf_error.h"

/* FairShare=parent (Slurm's SLURMDB_FS_USE_PARENT has the same value). */
#define MF_SHARES_PARENT 0x7fffffffU

typedef struct mf_assoc mf_assoc_t;

struct mf_assoc {
	/* Fields are grouped by size so that the struct has no holes: a
	 * tree holds one per association, up to millions. */

	/* --- identity, set when added.  Strings are the tree's, shared
	 * among associations (a user's parent_acct is its acct). --- */
	char *acct;              /* account name (a user's: its account) */
	char *user;              /* NULL for an account */
	char *parent_acct;       /* parent account name; NULL for root */
	char *partition;         /* a user's partition; NULL when the
				  * association has none (and accounts) */
	void *data;              /* caller's (the plugin: its Slurm record) */

	/* --- shape, derived by mf_tree_finalize() --- */
	mf_assoc_t *parent;      /* direct parent; NULL for root */
	mf_assoc_t *fs_parent;   /* nearest ancestor not FairShare=parent */
	GPtrArray *children;     /* direct children, sshare order; NULL for
				  * a user (users have no children) */
	GPtrArray *fs_children;  /* assocs whose fs_parent is this one;
				  * NULL for a user */

	/* --- input: usage_raw.  For users, set by the caller.  For accounts,
	 * the caller sets their own usage (usually 0) and mf_tree_sum_usage()
	 * adds the subtree, as Slurm charges a job to every ancestor. --- */
	long double usage_raw;

	/* --- results, written by the fair-share functions.  NAN means
	 * "not set" (sshare prints an empty field). --- */
	long double usage_norm;
	long double usage_efctv;
	long double level_fs;
	double shares_norm;
	double fs_factor;

	uint32_t shares_raw;     /* raw shares or MF_SHARES_PARENT (identity) */
	uint32_t level_shares;   /* sum of non-parent shares among the
				  * fs_children of fs_parent (shape) */
	int depth;               /* root is 0 (shape) */
};

typedef struct mf_tree {
	mf_assoc_t *root;
	GPtrArray *order;        /* all assocs in sshare order (after
				  * finalize): root first, then depth first;
				  * within an account users (by name) before
				  * sub-accounts (by name) */
	GPtrArray *input_order;  /* all assocs in the order they were added */
	GHashTable *accounts;    /* name -> mf_assoc_t (borrowed) */
	GHashTable *users;       /* "acct\nuser" or "acct\nuser\npartition"
				  * -> mf_assoc_t (borrowed) */
	uint32_t user_count;     /* number of user associations */
	bool finalized;

	/* private: where the associations and their strings live (a few
	 * large blocks rather than several allocations per association) */
	GPtrArray *slabs;        /* blocks of mf_assoc_t */
	mf_assoc_t *slab;        /* the block being filled */
	guint slab_used, slab_size;
	GStringChunk *names;     /* every name and user key */
	GString *key;            /* scratch for "acct\nuser" keys */
} mf_tree_t;

/* A new tree holding only the root account (shares 1).  Never NULL. */
mf_tree_t *mf_tree_create(void);

/* Free the tree and everything in it.  NULL is accepted. */
void mf_tree_destroy(mf_tree_t *tree);

/*
 * Add account NAME under account PARENT (NULL or "" means root) with SHARES.
 * Adding "root" itself only sets the root's shares.
 * Returns the new association, or NULL with errp filled when the name is
 * empty, already an account, or the tree is finalized.
 */
mf_assoc_t *mf_tree_add_account(mf_tree_t *tree, const char *name,
				 const char *parent, uint32_t shares,
				 mf_error_t *errp);

/*
 * Add USER in account ACCT with SHARES.  Returns the new association, or
 * NULL with errp filled on an empty name or a duplicate (acct, user).
 */
mf_assoc_t *mf_tree_add_user(mf_tree_t *tree, const char *user,
			     const char *acct, uint32_t shares,
			     mf_error_t *errp);

/*
 * Add USER's association in ACCT on PARTITION (NULL or "": the one without
 * partition) with SHARES.  Returns the new association, or NULL with errp
 * filled on an empty name or a duplicate (acct, user, partition).
 */
mf_assoc_t *mf_tree_add_user_part(mf_tree_t *tree, const char *user,
				  const char *acct, const char *partition,
				  uint32_t shares, mf_error_t *errp);

/*
 * Link the tree.  Returns 0, or -1 with errp naming the association whose
 * parent account does not exist, or the account that closes a cycle.
 */
int mf_tree_finalize(mf_tree_t *tree, mf_error_t *errp);

/* The account NAME, or NULL. */
mf_assoc_t *mf_tree_find_account(const mf_tree_t *tree, const char *name);

/* The association of USER in ACCT without partition, or NULL. */
mf_assoc_t *mf_tree_find_user(const mf_tree_t *tree, const char *acct,
			      const char *user);

/* The association of USER in ACCT on exactly PARTITION (NULL or "": the
 * one without partition), or NULL. */
mf_assoc_t *mf_tree_find_user_part(const mf_tree_t *tree, const char *acct,
				   const char *user, const char *partition);

/*
 * The association a job of USER under ACCT in PARTITION runs under, as
 * slurmctld picks it: USER's association in ACCT on PARTITION when there
 * is one, else the one without partition; NULL when neither exists.
 * PARTITION NULL or "" gives the one without partition.
 */
mf_assoc_t *mf_tree_find_job_assoc(const mf_tree_t *tree, const char *acct,
				   const char *user, const char *partition);

/*
 * Make every account's usage_raw its own usage plus the sum over its direct
 * children (bottom up).  Call once after setting users' usage; calling it
 * twice counts twice.  Requires a finalized tree.
 */
void mf_tree_sum_usage(mf_tree_t *tree);

/*
 * Set every association's results (usage_norm, usage_efctv, level_fs,
 * shares_norm, fs_factor) back to NAN, as a new tree has them, so that a
 * tree kept from one computation to the next (new usage_raw written in)
 * gives what a tree built anew would.  Shape and usage are untouched.
 */
void mf_tree_reset_results(mf_tree_t *tree);

/* True if A is FairShare=parent. */
static inline bool mf_assoc_is_parent_fs(const mf_assoc_t *a)
{
	return a->shares_raw == MF_SHARES_PARENT;
}

#endif
