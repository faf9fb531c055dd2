/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "shares_norm.h"

static double _local(const mf_assoc_t *a);
static double _product(const mf_assoc_t *a);

/* S_a / S_siblings, or 0 when the siblings hold no shares. */
static double _local(const mf_assoc_t *a)
{
	if (!a->level_shares)
		return 0.0;
	return (double) a->shares_raw / (double) a->level_shares;
}

static double _product(const mf_assoc_t *a)
{
	double s = 1.0;

	for (const mf_assoc_t *p = a; p->parent; p = p->parent) {
		if (mf_assoc_is_parent_fs(p))
			continue;
		if (!p->level_shares)
			return 0.0;
		s *= _local(p);
	}
	return s;
}

void mf_shares_norm(mf_tree_t *tree, mf_shares_mode_t mode)
{
	GPtrArray *all = tree->order;

	/* parents come before children in display order, so a
	 * FairShare=parent association finds its fs_parent already done */
	for (guint i = 0; i < all->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(all, i);

		if (!a->parent)
			a->shares_norm = (mode == MF_SHARES_PRODUCT) ? 1.0 : 0.0;
		else if (mf_assoc_is_parent_fs(a))
			a->shares_norm = a->fs_parent->shares_norm;
		else if (mode == MF_SHARES_PRODUCT)
			a->shares_norm = _product(a);
		else
			a->shares_norm = _local(a);
	}
}
