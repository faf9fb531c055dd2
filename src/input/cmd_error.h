/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_error: mfprio's exit statuses and its one error printer, for the
 * commands and the runs below them.  Every command returns the process
 * exit status: 0 on success, 1 on bad input (after printing
 * "mfprio: FILE:LINE: ..." to stderr), 2 on a usage error.
 */
#ifndef MFPRIO_CMD_ERROR_H
#define MFPRIO_CMD_ERROR_H

#define MF_EXIT_OK 0
#define MF_EXIT_INPUT 1
#define MF_EXIT_USAGE 2

/* Print "mfprio: " and the message to stderr. */
void mf_cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
