/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs_run: one association tree with its fair share computed, as
 * `mfprio fairshare` and `mfprio tree` show it: the settings read once
 * (settings.h) give the algorithm and the dampening, the snapshot's
 * association dump (and usage) gives the tree.
 */
#ifndef MFPRIO_FS_RUN_H
#define MFPRIO_FS_RUN_H

#include "assoc_tree.h"
#include "fairshare.h"
#include "mf_error.h"
#include "settings.h"

/* The fair-share configuration of S (its PriorityFlags' algorithm, its
 * FairShareDampeningFactor) in *CFG, with a warning ("mfprio: warning:
 * ...", on stderr) when it asks for a dampening its algorithm has not
 * (Fair Tree).  Returns nothing. */
void mf_fs_run_config(const mf_settings_t *s, mf_fs_config_t *cfg);

/*
 * The tree of ASSOC (and USAGE, or NULL) for S's cluster, its fair share
 * computed by CFG.  Returns a new tree (mf_tree_destroy()), or NULL with
 * errp naming the input that could not be read.
 */
mf_tree_t *mf_fs_run(const char *assoc, const char *usage,
		     const mf_settings_t *s, const mf_fs_config_t *cfg,
		     mf_error_t *errp);

#endif
