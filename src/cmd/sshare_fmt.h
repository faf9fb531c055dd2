/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sshare_fmt: print an association tree as `sshare -a -l -P` prints it,
 * for the columns
 *   Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|
 *   FairShare|LevelFS
 * in sshare's tree order, numbers as sshare formats them ("%f", whole
 * RawUsage, "parent", "inf", and empty fields where sshare leaves them
 * empty: root's RawShares and NormUsage, accounts' FairShare under Fair
 * Tree, FairShare=parent LevelFS, unset values).
 */
#ifndef MFPRIO_SSHARE_FMT_H
#define MFPRIO_SSHARE_FMT_H

#include <stdbool.h>
#include <stdio.h>

#include "assoc_tree.h"
#include "fairshare.h"

/* The header line sshare -P prints for those columns (no newline). */
extern const char *const mf_sshare_header;

/* Print the header (unless NOHEADER) and one row per association. */
void mf_sshare_print(FILE *out, const mf_tree_t *tree, mf_fs_algo_t algo,
		     bool noheader);

#endif
