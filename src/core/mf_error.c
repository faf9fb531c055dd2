/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <errno.h>

#include "mf_error.h"

int mf_errprintf(mf_error_t *errp, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	if (errp) {
		va_start(ap, fmt);
		vsnprintf(errp->text, sizeof(errp->text), fmt, ap);
		va_end(ap);
	}
	errno = saved;
	return -1;
}

int mf_verrprintf(mf_error_t *errp, const char *prefix, const char *fmt,
		  va_list ap)
{
	int saved = errno;
	int n;

	if (errp) {
		n = snprintf(errp->text, sizeof(errp->text), "%s",
			     prefix ? prefix : "");
		if (n >= 0 && (size_t)n < sizeof(errp->text))
			vsnprintf(errp->text + n, sizeof(errp->text) - (size_t)n,
				  fmt, ap);
	}
	errno = saved;
	return -1;
}
