/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "fairshare.h"
#include "fs_factor.h"
#include "level_fs.h"
#include "shares_norm.h"
#include "usage_efctv.h"
#include "usage_norm.h"

const char *mf_fs_algo_name(mf_fs_algo_t algo)
{
	switch (algo) {
	case MF_FS_FAIR_TREE:
		return "fair_tree";
	case MF_FS_CLASSIC:
		return "classic";
	case MF_FS_DEPTH_OBLIVIOUS:
		return "depth_oblivious";
	}
	return "unknown";
}

void mf_fairshare_compute(mf_tree_t *tree, const mf_fs_config_t *cfg)
{
	if (cfg->algo == MF_FS_FAIR_TREE) {
		mf_shares_norm(tree, MF_SHARES_LOCAL);
		mf_fair_tree(tree);
		return;
	}

	mf_shares_norm(tree, MF_SHARES_PRODUCT);
	mf_usage_norm(tree);
	if (cfg->algo == MF_FS_DEPTH_OBLIVIOUS)
		mf_usage_efctv_depth_oblivious(tree);
	else
		mf_usage_efctv_classic(tree);

	/* one association at a time: walk them in memory order, which at a
	 * million associations is much kinder to the caches than sshare's */
	for (guint i = 0; i < tree->input_order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(tree->input_order, i);

		a->fs_factor = mf_fs_factor(a->usage_efctv, a->shares_norm,
					    cfg->damp);
		a->level_fs = 0.0L;
	}
}
