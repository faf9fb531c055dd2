/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

#include "fs_run.h"
#include "priority_flags.h"
#include "snapshot.h"

void mf_fs_run_config(const mf_settings_t *s, mf_fs_config_t *cfg)
{
	cfg->algo = mf_priority_flags_algo(s->pc->flags);
	cfg->damp = s->pc->fs_damp;
	if (cfg->algo == MF_FS_FAIR_TREE && cfg->damp != 1)
		fprintf(stderr, "mfprio: warning: FairShareDampeningFactor %u "
			"has no effect: Fair Tree has no dampening (set "
			"PriorityFlags=NO_FAIR_TREE for the classic "
			"algorithm)\n", (unsigned) cfg->damp);
}

mf_tree_t *mf_fs_run(const char *assoc, const char *usage,
		     const mf_settings_t *s, const mf_fs_config_t *cfg,
		     mf_error_t *errp)
{
	mf_tree_t *tree = mf_snapshot_load_cluster(assoc, usage, s->cluster,
						   errp);

	if (tree)
		mf_fairshare_compute(tree, cfg);
	return tree;
}
