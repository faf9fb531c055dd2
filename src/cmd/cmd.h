/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The subcommands of mfprio.  Each returns the process exit status:
 * 0 on success, 1 on bad input (after printing "mfprio: FILE:LINE: ..." to
 * stderr), 2 on a usage error.
 */
#ifndef MFPRIO_CMD_H
#define MFPRIO_CMD_H

#define MF_EXIT_OK 0
#define MF_EXIT_INPUT 1
#define MF_EXIT_USAGE 2

int cmd_fairshare(int argc, char **argv);
int cmd_priority(int argc, char **argv);

/* Print "mfprio: " and the message to stderr. */
void mf_cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
