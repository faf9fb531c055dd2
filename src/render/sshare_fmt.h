/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sshare_fmt: print an association tree as `sshare -a -l -P` prints it,
 * for the columns
 *   Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|
 *   FairShare|LevelFS
 * in sshare's tree order, numbers as sshare formats them ("%f", whole
 * RawUsage, "parent", "inf", and empty fields where sshare leaves them
 * empty: root's RawShares and NormUsage, accounts' FairShare under Fair
 * Tree, FairShare=parent LevelFS, unset values).  With sshare's -m, a
 * Partition column after User: a user association's partition, empty for
 * one without partition and for accounts.
 */
#ifndef MFPRIO_SSHARE_FMT_H
#define MFPRIO_SSHARE_FMT_H

#include <stdbool.h>
#include <stdio.h>

#include "assoc_tree.h"
#include "fairshare.h"

/* The header line sshare -P prints for those columns (no newline). */
extern const char *const mf_sshare_header;

/* The header with -m (no newline). */
extern const char *const mf_sshare_header_part;

/* How to print: sshare's -n, -m, and which rows (-A, -u). */
typedef struct {
	bool noheader;           /* -n: no header line */
	bool partition;          /* -m: the Partition column */
	/* NULL: every row; else a row is printed when keep(a, keep_arg) */
	bool (*keep)(const mf_assoc_t *a, const void *keep_arg);
	const void *keep_arg;
} mf_sshare_opts_t;

/* Print the header (unless NOHEADER) and one row per association. */
void mf_sshare_print(FILE *out, const mf_tree_t *tree, mf_fs_algo_t algo,
		     bool noheader);

/* The same as O says (O NULL: as mf_sshare_print with NOHEADER false). */
void mf_sshare_print_opts(FILE *out, const mf_tree_t *tree,
			  mf_fs_algo_t algo, const mf_sshare_opts_t *o);

#endif
