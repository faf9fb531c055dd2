/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mf_error: the one error carrier of the core.
 *
 * Every core function that can fail takes an `mf_error_t *errp` (may be
 * NULL) and, on failure, fills errp->text with one sentence naming the thing
 * that is wrong and where it is, then returns -1 (or NULL).  The core never
 * prints and never exits: the caller decides how to report.
 */
#ifndef MFPRIO_MF_ERROR_H
#define MFPRIO_MF_ERROR_H

#include <stdarg.h>

typedef struct {
	char text[512];
} mf_error_t;

/*
 * Format a message into *errp (if not NULL).
 * Returns -1, always, so that failures read `return mf_errprintf (...)`.
 */
int mf_errprintf(mf_error_t *errp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Write PREFIX (may be NULL) then FMT's message from AP into *errp (if not
 * NULL).  Returns -1, always.
 */
int mf_verrprintf(mf_error_t *errp, const char *prefix, const char *fmt,
		  va_list ap) __attribute__((format(printf, 3, 0)));

#endif
