/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_input: the usage of an association tree (snapshot.h) from
 * `sshare -a -P -n -o Account,User[,Partition],RawUsage` (a user's rows in
 * one account without Partition column taken in sshare's order) or
 * `scontrol show assoc_mgr flags=assoc` (UsageRaw with two decimals),
 * told apart by the first line.
 */
#ifndef MFPRIO_USAGE_INPUT_H
#define MFPRIO_USAGE_INPUT_H

#include <stdbool.h>

#include "assoc_tree.h"
#include "mf_error.h"

/* Set the raw usage of TREE's associations from the usage dump PATH
 * (before mf_tree_sum_usage()).  Returns 0, or -1 with errp naming
 * PATH:LINE. */
int mf_usage_load(mf_tree_t *tree, const char *path, mf_error_t *errp);

/* Whether PATH's first line that is neither blank nor a comment is
 * assoc_mgr's (false also when PATH cannot be read: the reader says so). */
bool mf_usage_is_amgr(const char *path);

#endif
