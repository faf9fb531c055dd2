/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conf_values: the values of slurm.conf's priority and cluster settings
 * as slurmctld reads them, and the warnings about them (conf_values.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf_values.h"

/* Append "FILE:LINE: KEY=VALUE: <message>" to the warnings. */
void mf_pconf_warn(mf_prio_conf_t *pc, const mf_conf_pair_t *p,
		  const char *fmt, ...)
{
	char *where = p ? g_strdup_printf("%s:%d: %s=%s: ", p->file, p->line,
					  p->key, p->value) : NULL;
	va_list ap;

	va_start(ap, fmt);
	mf_warning_vadd(pc->warnings, where, fmt, ap);
	g_ptr_array_add(pc->warned, g_strdup(p ? p->key : ""));
	va_end(ap);
	g_free(where);
}

/*
 * Slurm's unsigned 32-bit reading: strtoul base 0, an optional k/K
 * (x1024), or UNLIMITED/INFINITE.  Returns 0 or -1 with WHY set.
 */
int mf_pconf_u32(const char *s, uint32_t *out, const char **why)
{
	char *end;
	unsigned long long n;

	if (!strcasecmp(s, "UNLIMITED") || !strcasecmp(s, "INFINITE")) {
		*out = 0xffffffffU;
		return 0;
	}
	if (s[0] == '-') {
		*why = "is less than zero";
		return -1;
	}
	errno = 0;
	n = strtoull(s, &end, 0);
	if (end == s) {
		*why = "is not a number";
		return -1;
	}
	if (*end == 'k' || *end == 'K') {
		n *= 1024;
		end++;
	}
	if (*end) {
		*why = "is not a number";
		return -1;
	}
	if (errno == ERANGE || n > 0xffffffffULL) {
		*why = "is greater than 4294967295";
		return -1;
	}
	*out = (uint32_t)n;
	return 0;
}

int mf_pconf_u16(const char *s, uint16_t *out, const char **why)
{
	uint32_t v;

	if (!strcasecmp(s, "UNLIMITED") || !strcasecmp(s, "INFINITE")) {
		*out = 0xffff;
		return 0;
	}
	if (mf_pconf_u32(s, &v, why))
		return -1;
	if (v > 0xffff) {
		*why = "is greater than 65535";
		return -1;
	}
	*out = (uint16_t)v;
	return 0;
}

int mf_pconf_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "up", "true", "1" };
	static const char *const no[] = { "no", "down", "false", "0" };

	for (size_t i = 0; i < G_N_ELEMENTS(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

