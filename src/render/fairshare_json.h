/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fairshare_json: `mfprio fairshare --json`: the rows `sshare -a -l -P`
 * would print (the columns of sshare_fmt.h, same order), as one JSON
 * object with the settings used (see doc/mfprio.1, JSON OUTPUT).
 *
 * A figure sshare leaves empty (root's RawShares and NormUsage, accounts'
 * FairShare under Fair Tree, the LevelFS of a FairShare=parent
 * association) is null; so is a figure that is not finite (LevelFS of an
 * association with no usage, which sshare prints as "inf"), JSON having no
 * infinity.  RawUsage is the usage as read, not rounded as sshare prints
 * it.
 */
#ifndef MFPRIO_FAIRSHARE_JSON_H
#define MFPRIO_FAIRSHARE_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "assoc_tree.h"
#include "fairshare.h"
#include "release.h"

/* What the figures were computed with (paths may be NULL). */
typedef struct {
	const char *snapshot;        /* --snapshot DIR */
	const char *assoc, *usage, *conf;
	uint32_t flags;              /* MF_FLAG_* */
	mf_fs_config_t fs;
	const char *release;         /* "22.05" */
	mf_release_t release_num;    /* the same (whose empty FairShare) */
	const char *release_source;
} mf_fs_json_settings_t;

/* Write TREE's rows and S to OUT. */
void mf_fairshare_json(FILE *out, const mf_tree_t *tree,
		       const mf_fs_json_settings_t *s);

#endif
