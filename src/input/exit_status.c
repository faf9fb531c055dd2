/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exit_status: the one printer of mfprio's error messages.
 */
#include <stdarg.h>
#include <stdio.h>

#include "exit_status.h"

void mf_print_error(const char *fmt, ...)
{
	va_list ap;

	fputs("mfprio: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
