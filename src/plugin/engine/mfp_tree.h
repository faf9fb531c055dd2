/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_tree: the bridge between assoc_mgr's associations and the core's
 * mf_tree_t.
 *
 * mfp_tree_build() reads assoc_mgr_assoc_list into a new finalized tree,
 * each mf_assoc_t's data pointing at its slurmdb_assoc_rec_t and its
 * usage_raw copied from Slurm (Slurm already charges every job to all
 * ancestors, so account usage needs no summing).  mfp_tree_apply() writes the
 * core's results back into the Slurm records the way slurmctld and sshare
 * read them.
 *
 * Locking: the caller holds assoc_mgr's assoc lock, READ for build, WRITE
 * for apply; the tree holds borrowed pointers into assoc_mgr only until that
 * lock is released, so build, compute and apply under one lock.
 */
#ifndef MFPRIO_PLUGIN_MFP_TREE_H
#define MFPRIO_PLUGIN_MFP_TREE_H

#include "src/plugin/access/access.h"

#include "src/core/assoc_tree.h"
#include "src/core/fairshare.h"

/*
 * A new tree of every association in assoc_mgr_assoc_list, or NULL with
 * errp filled when assoc_mgr has no root or the hierarchy is inconsistent.
 * Associations that cannot be placed (a user association repeated for
 * another partition) are left out and counted in *skipped (may be NULL).
 */
mf_tree_t *mfp_tree_build(int *skipped, mf_error_t *errp);

/* Write shares_norm, usage_norm, usage_efctv, fs_factor and (Fair Tree)
 * level_fs of every association back to its Slurm record. */
void mfp_tree_apply(const mf_tree_t *tree, mf_fs_algo_t algo);

/*
 * Compute with CFG and apply, under the caller's assoc WRITE lock, on the
 * tree kept from the last call when assoc_mgr still holds the same
 * associations (same records, ids, parents and raw shares; only their
 * usage is read again), else on a tree built anew and kept for the next
 * call.  Returns 0, or -1 with errp filled (nothing is written then).
 */
int mfp_tree_recompute(const mf_fs_config_t *cfg, mf_error_t *errp);

/* Free the kept tree (the next recompute builds one).  Under the assoc
 * WRITE lock, or when no other thread can recompute. */
void mfp_tree_forget(void);

/* How many trees mfp_tree_recompute() has built (rather than reused) since
 * the plugin was loaded.  Under the assoc lock, or from the decay thread. */
uint64_t mfp_tree_builds(void);

/*
 * Usage figures of a single association ASSOC (usage_norm, usage_efctv),
 * as slurmctld asks for them between two recomputations
 * (priority_p_set_assoc_usage).  Its fair-share parent's figures must be
 * current.  The caller holds the assoc lock.
 */
void mfp_tree_set_one(slurmdb_assoc_rec_t *assoc, mf_fs_algo_t algo);

#endif
