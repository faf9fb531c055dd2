/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "mfp_tree.h"

#include "src/core/usage_efctv.h"
#include "src/core/usage_norm.h"

static int _add_assoc(mf_tree_t *tree, slurmdb_assoc_rec_t *rec,
		      mf_error_t *errp);
static const char *_parent_name(slurmdb_assoc_rec_t *rec);
static void _fill_one(mf_assoc_t *dst, slurmdb_assoc_rec_t *rec);

/* The name of REC's direct parent account, or NULL for root. */
static const char *_parent_name(slurmdb_assoc_rec_t *rec)
{
	if (rec->usage && rec->usage->parent_assoc_ptr)
		return rec->usage->parent_assoc_ptr->acct;
	return rec->parent_acct;
}

/*
 * Add REC to TREE.  Returns 1 when added, 0 when it had to be left out
 * (a per-partition duplicate of a user association), -1 with errp filled
 * on a malformed record.
 */
static int _add_assoc(mf_tree_t *tree, slurmdb_assoc_rec_t *rec,
		      mf_error_t *errp)
{
	mf_assoc_t *a;

	if (!rec->acct || !rec->usage)
		return mf_errprintf(errp, "association %u has no account or "
				    "no usage record", rec->id);
	if (rec == assoc_mgr_root_assoc) {
		a = tree->root;
	} else if (!rec->user) {
		a = mf_tree_add_account(tree, rec->acct, _parent_name(rec),
					rec->shares_raw, errp);
		if (!a)
			return -1;
	} else {
		/* a user may have one association per partition */
		a = mf_tree_add_user_part(tree, rec->user, rec->acct,
					  rec->partition, rec->shares_raw,
					  NULL);
		if (!a)
			return 0;
	}
	a->data = rec;
	a->usage_raw = rec->usage->usage_raw;
	return 1;
}

mf_tree_t *mfp_tree_build(int *skipped, mf_error_t *errp)
{
	mf_tree_t *tree;
	list_itr_t *itr;
	slurmdb_assoc_rec_t *rec;
	int left_out = 0, rc = 0;

	if (!assoc_mgr_assoc_list || !assoc_mgr_root_assoc) {
		mf_errprintf(errp, "assoc_mgr has no associations loaded");
		return NULL;
	}
	tree = mf_tree_create();
	itr = list_iterator_create(assoc_mgr_assoc_list);
	while ((rec = list_next(itr))) {
		rc = _add_assoc(tree, rec, errp);
		if (rc < 0)
			break;
		if (rc == 0)
			left_out++;
	}
	list_iterator_destroy(itr);
	if (rc < 0 || mf_tree_finalize(tree, errp) < 0) {
		mf_tree_destroy(tree);
		return NULL;
	}
	if (skipped)
		*skipped = left_out;
	return tree;
}

void mfp_tree_apply(const mf_tree_t *tree, mf_fs_algo_t algo)
{
	for (guint i = 0; i < tree->order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(tree->order, i);
		slurmdb_assoc_rec_t *rec = a->data;
		slurmdb_assoc_usage_t *u;

		if (!rec || !rec->usage)
			continue;
		u = rec->usage;
		if (algo == MF_FS_FAIR_TREE)
			u->level_fs = a->level_fs;
		/* Slurm keeps root's own figures (usage_efctv 1, the rest
		 * untouched): sshare prints them as such */
		if (a == tree->root)
			continue;
		if (!isnan(a->shares_norm))
			u->shares_norm = a->shares_norm;
		if (!isnan(a->usage_norm))
			u->usage_norm = a->usage_norm;
		if (!isnan(a->usage_efctv))
			u->usage_efctv = a->usage_efctv;
		if (!isnan(a->fs_factor))
			u->fs_factor = a->fs_factor;
	}
}

int mfp_tree_recompute(const mf_fs_config_t *cfg, mf_error_t *errp)
{
	mf_tree_t *tree;
	int skipped = 0;

	if (!(tree = mfp_tree_build(&skipped, errp)))
		return -1;
	if (skipped)
		debug("mfprio: %d per-partition user associations share "
		      "their user's fair-share figures", skipped);
	mf_fairshare_compute(tree, cfg);
	mfp_tree_apply(tree, cfg->algo);
	mf_tree_destroy(tree);
	return 0;
}

/* Copy what the one-association formulas read from REC into DST. */
static void _fill_one(mf_assoc_t *dst, slurmdb_assoc_rec_t *rec)
{
	dst->shares_raw = rec->shares_raw;
	dst->usage_raw = rec->usage->usage_raw;
	dst->shares_norm = rec->usage->shares_norm;
	dst->usage_norm = rec->usage->usage_norm;
	dst->usage_efctv = rec->usage->usage_efctv;
	dst->level_shares = rec->usage->level_shares;
	dst->data = rec;
}

void mfp_tree_set_one(slurmdb_assoc_rec_t *assoc, mf_fs_algo_t algo)
{
	slurmdb_assoc_rec_t *root = assoc_mgr_root_assoc;
	slurmdb_assoc_rec_t *fs_rec, *sib;
	mf_assoc_t grand = { 0 }, parent = { 0 }, self = { 0 };
	mf_assoc_t *sibs = NULL;
	GPtrArray *fs_children;
	list_itr_t *itr;
	int n = 0;

	if (!root || !assoc || !assoc->usage)
		return;
	assoc->usage->usage_norm =
		mf_usage_norm_of(assoc->usage->usage_raw,
				 root->usage->usage_raw);
	if (assoc == root)
		return;
	fs_rec = assoc->usage->fs_assoc_ptr;
	if (!fs_rec || !fs_rec->usage) {
		assoc->usage->usage_efctv = assoc->usage->usage_norm;
		return;
	}
	if (algo == MF_FS_FAIR_TREE) {
		/* Fair Tree's effective usage: the share of the parent's */
		assoc->usage->usage_efctv = fs_rec->usage->usage_raw ?
			assoc->usage->usage_raw / fs_rec->usage->usage_raw :
			0.0L;
		return;
	}

	/* A three-level stand-in: self under its fair-share parent, with the
	 * parent's siblings as the formulas read them. */
	_fill_one(&parent, fs_rec);
	_fill_one(&self, assoc);
	parent.fs_parent = (fs_rec == root) ? NULL : &grand;
	self.fs_parent = &parent;
	fs_children = g_ptr_array_new();
	if (fs_rec->usage->children_list) {
		sibs = g_new0(mf_assoc_t,
			      list_count(fs_rec->usage->children_list));
		itr = list_iterator_create(fs_rec->usage->children_list);
		while ((sib = list_next(itr))) {
			if (sib == assoc) {
				g_ptr_array_add(fs_children, &self);
				continue;
			}
			_fill_one(&sibs[n], sib);
			g_ptr_array_add(fs_children, &sibs[n++]);
		}
		list_iterator_destroy(itr);
	}
	parent.fs_children = fs_children;
	if (algo == MF_FS_DEPTH_OBLIVIOUS)
		mf_usage_efctv_depth_oblivious_one(&self);
	else
		mf_usage_efctv_classic_one(&self);
	assoc->usage->usage_efctv = self.usage_efctv;
	g_ptr_array_free(fs_children, TRUE);
	g_free(sibs);
}
