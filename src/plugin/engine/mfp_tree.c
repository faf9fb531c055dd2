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

/*
 * The tree is kept from one recomputation to the next: building it (names
 * looked up, sorted, linked) costs more than computing on it.  What it was
 * built from is remembered per association, in assoc_mgr's list order; a
 * recomputation walks that list once, and when every association is the
 * one remembered (same record, id, parent and raw shares) it only copies
 * the usage in.  Anything else (an association added, removed, moved or
 * given other shares) builds the tree anew.  The assoc write lock that
 * mfp_tree_recompute()'s caller holds guards all of it.
 */
typedef struct {
	slurmdb_assoc_rec_t *rec;
	slurmdb_assoc_rec_t *parent;
	uint32_t id;
	uint32_t shares_raw;
} _seen_t;

static mf_tree_t *_kept;
static uint64_t _builds;        /* trees built since the plugin loaded */
static _seen_t *_seen;          /* one per association of the list */
static uint32_t _seen_cnt;

typedef struct {
	uint32_t i;                  /* the next entry of _seen */
	bool same;
} _check_t;

static slurmdb_assoc_rec_t *_parent_of(slurmdb_assoc_rec_t *rec)
{
	return rec->usage ? rec->usage->parent_assoc_ptr : NULL;
}

/* list_for_each: is REC the association remembered at this place? */
static int _check_one(void *x, void *arg)
{
	slurmdb_assoc_rec_t *rec = x;
	_check_t *c = arg;
	_seen_t *s = (c->i < _seen_cnt) ? &_seen[c->i] : NULL;

	if (!s || s->rec != rec || s->id != rec->id ||
	    s->parent != _parent_of(rec) || s->shares_raw != rec->shares_raw ||
	    !rec->usage) {
		c->same = false;
		return -1;
	}
	c->i++;
	return 0;
}

/* Remember what TREE was built from: assoc_mgr's list as it is now. */
static void _remember(mf_tree_t *tree)
{
	list_itr_t *itr;
	slurmdb_assoc_rec_t *rec;
	uint32_t n = 0;

	_kept = tree;
	_seen_cnt = list_count(assoc_mgr_assoc_list);
	_seen = xcalloc(_seen_cnt ? _seen_cnt : 1, sizeof(*_seen));
	itr = list_iterator_create(assoc_mgr_assoc_list);
	while ((rec = list_next(itr)) && n < _seen_cnt) {
		_seen[n++] = (_seen_t) { .rec = rec, .parent = _parent_of(rec),
					 .id = rec->id,
					 .shares_raw = rec->shares_raw };
	}
	list_iterator_destroy(itr);
}

void mfp_tree_forget(void)
{
	if (_kept)
		mf_tree_destroy(_kept);
	_kept = NULL;
	xfree(_seen);
	_seen_cnt = 0;
}

/* The kept tree if assoc_mgr's associations are still those it was built
 * from, with their usage copied in; else NULL. */
static mf_tree_t *_reuse(void)
{
	_check_t c = { .same = true };

	if (!_kept || !assoc_mgr_assoc_list)
		return NULL;
	(void) list_for_each(assoc_mgr_assoc_list, _check_one, &c);
	if (!c.same || c.i != _seen_cnt)
		return NULL;
	mf_tree_reset_results(_kept);
	for (guint i = 0; i < _kept->input_order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(_kept->input_order, i);
		slurmdb_assoc_rec_t *rec = a->data;

		if (rec)
			a->usage_raw = rec->usage->usage_raw;
	}
	return _kept;
}

int mfp_tree_recompute(const mf_fs_config_t *cfg, mf_error_t *errp)
{
	mf_tree_t *tree;
	int skipped = 0;

	if (!(tree = _reuse())) {
		mfp_tree_forget();
		if (!(tree = mfp_tree_build(&skipped, errp)))
			return -1;
		if (skipped)
			debug("mfprio: %d per-partition user associations "
			      "share their user's fair-share figures",
			      skipped);
		_remember(tree);
		_builds++;
	}
	mf_fairshare_compute(tree, cfg);
	mfp_tree_apply(tree, cfg->algo);
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

uint64_t mfp_tree_builds(void)
{
	return _builds;
}
