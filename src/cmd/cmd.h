/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The subcommands of mfprio, which the dispatcher (mfprio.c) runs.  Each
 * returns the process exit status (cmd_error.h): 0 on success, 1 on bad
 * input, 2 on a usage error.
 */
#ifndef MFPRIO_CMD_H
#define MFPRIO_CMD_H

#include <stdio.h>

#include <glib.h>

#include "priority_types.h"

int cmd_fairshare(int argc, char **argv);
int cmd_priority(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_why(int argc, char **argv);
int cmd_check(int argc, char **argv);    /* exit 3: findings */
int cmd_tree(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* Take `mfprio snapshot DIR` of the cluster SLURM_CONF names (DIR new or
 * empty).  Returns 0, or -1 after printing the error. */
int cmd_snapshot_take(const char *dir);

#endif
