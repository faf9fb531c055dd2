/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The subcommands of mfprio, which the dispatcher (mfprio.c) runs.  Each
 * returns the process exit status, one of exit_status.h's mf_exit_t.
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
int cmd_check(int argc, char **argv);    /* MF_EXIT_FINDINGS too */
int cmd_tree(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_report(int argc, char **argv);
/* report --user (report_user.c): the page of USER from the dumps of
 * `mfprio why` in DIR (LIVE: taken by cmd_report_user_dump()), to HTML
 * ("-": stdout); an unknown USER is MF_EXIT_USAGE. */
int cmd_report_user(const char *dir, bool live, const char *user,
		    const char *html);
/* Those dumps, of every job the caller sees, and who took them, into the
 * directory DIR. */
int cmd_report_user_dump(const char *dir);

/* Take `mfprio snapshot DIR` of the cluster SLURM_CONF names (DIR new or
 * empty).  Returns 0, or -1 after printing the error. */
int cmd_snapshot_take(const char *dir);

#endif
