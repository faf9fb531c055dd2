/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * snapshot: the association tree of a cluster, read from what an admin can
 * dump on any login node.
 *
 *   assoc file:  sacctmgr -P -n show assoc format=Account,User,ParentName,Fairshare
 *            or: format=Cluster,Account,User,ParentName,Fairshare, with
 *                Partition after User or not (told apart by the count of
 *                columns of the first line)
 *   usage file:  sshare -a -P -n -o Account,User,RawUsage
 *            or: scontrol show assoc_mgr flags=assoc (assoc_mgr.h), told
 *                apart by its first line: not '|'-separated, and either
 *                "Current Association Manager state", a section title
 *                ("... Records") or an association record (ClusterName=
 *                with Account= or UserName=: not slurm.conf's)
 *
 * Both '|' dumps may begin with the header line sacctmgr and sshare print
 * without -n: it is skipped (dump_header.h).
 *
 * In the usage file account rows (empty User) are accepted and ignored: an
 * account's usage is the sum over its subtree.  RawUsage may carry a
 * fraction (sshare prints whole numbers; `scontrol show assoc_mgr` gives
 * two decimals).  An assoc_mgr file's account records, like sshare's
 * account rows, are only checked to be in the tree; a user's record
 * without UsageRaw is an error.  Indented account names (sshare's tree) are accepted.
 *
 * A file with no row (a dump that failed), a first line plainly of
 * another dump (dump_header.h), and an association dump given as a usage
 * dump with Partition column (an account row with a partition) are
 * errors; an error in a last line without its newline says the dump may
 * have been cut short there.
 *
 * Dumps taken a few seconds apart may disagree: a usage row (or assoc_mgr
 * record) for a user or account the association file does not have is a
 * warning on stderr naming it and its row, and is left out; never fatal.
 */
#ifndef MFPRIO_SNAPSHOT_H
#define MFPRIO_SNAPSHOT_H

#include "assoc_tree.h"
#include "mf_error.h"

/*
 * Build a finalized tree from ASSOC_PATH, set users' usage from USAGE_PATH
 * (may be NULL: no usage), and sum account usage.  Returns the tree, or NULL
 * with errp naming the file and line of the first bad line (wrong number of
 * fields, empty account, non-numeric or negative shares or usage, duplicate
 * association, unknown parent, cycle).
 */
mf_tree_t *mf_snapshot_load(const char *assoc_path, const char *usage_path,
			    mf_error_t *errp);

/*
 * As mf_snapshot_load(), for an assoc file that may hold the associations
 * of several clusters (sacctmgr ... format=Cluster,Account,User,ParentName,
 * Fairshare, optionally with Partition after User): only CLUSTER's rows are
 * read.  CLUSTER NULL takes a file of one cluster and refuses one of
 * several, naming them.  A per-partition association (a user row with a
 * Partition) is not modelled apart: left out with a warning when the user
 * also has an association without partition in that account, else taken
 * as the user's association, with a warning.
 */
mf_tree_t *mf_snapshot_load_cluster(const char *assoc_path,
				    const char *usage_path,
				    const char *cluster, mf_error_t *errp);

#endif
