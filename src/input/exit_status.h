/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exit_status: mfprio's exit statuses and its one error printer, for the
 * commands and the runs below them.  Every command returns one of
 * mf_exit_t as the process exit status; mfprio(1), EXIT STATUS, says the
 * same.  Errors are printed as "mfprio: FILE:LINE: ..." to stderr.
 */
#ifndef MFPRIO_EXIT_STATUS_H
#define MFPRIO_EXIT_STATUS_H

/* The exit statuses of every command.  The sanitizers' own (86, 87, 88:
 * Makefile.am) are none of these. */
typedef enum {
	MF_EXIT_OK = 0,          /* done: the output is whole */
	MF_EXIT_INPUT = 1,       /* an input cannot be read, is empty, is a
				  * dump of another kind or holds a bad
				  * line; or the output cannot be written */
	MF_EXIT_USAGE = 2,       /* a usage error: an option or operand */
	MF_EXIT_FINDINGS = 3,    /* `mfprio check` only: it found something
				  * (the output is whole) */
} mf_exit_t;

/* Print "mfprio: " and the message to stderr. */
void mf_print_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
