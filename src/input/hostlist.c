/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist.h"

#define _MAX_NAMES 1000000

/* Expand one name (no top-level comma) into OUT.  Returns 0 or -1. */
static int _expand_one(const char *name, GPtrArray *out, const char *whole,
		       mf_error_t *errp)
{
	const char *open = strchr(name, '['), *close;
	char *prefix, *body;
	char **ranges;
	int rc = 0;

	if (!open) {
		if (strchr(name, ']'))
			return mf_errprintf(errp, "host list '%s': unbalanced "
					    "']'", whole);
		if (out->len >= _MAX_NAMES)
			return mf_errprintf(errp, "host list '%s': more than "
					    "%d names", whole, _MAX_NAMES);
		g_ptr_array_add(out, g_strdup(name));
		return 0;
	}
	close = strchr(open, ']');
	if (!close)
		return mf_errprintf(errp, "host list '%s': unbalanced '['",
				    whole);
	prefix = g_strndup(name, (gsize)(open - name));
	body = g_strndup(open + 1, (gsize)(close - open - 1));
	ranges = g_strsplit(body, ",", -1);
	for (int i = 0; ranges[i] && !rc; i++) {
		char *r = ranges[i], *dash = strchr(r, '-'), *end;
		unsigned long lo, hi;
		int width = (int)(dash ? (size_t)(dash - r) : strlen(r));

		errno = 0;
		lo = strtoul(r, &end, 10);
		/* a number past unsigned long is no range (strtoul would give
		 * ULONG_MAX) */
		if (end == r || errno == ERANGE ||
		    (dash ? end != dash : *end != '\0')) {
			rc = mf_errprintf(errp, "host list '%s': bad range "
					  "'%s'", whole, r);
			break;
		}
		hi = lo;
		if (dash) {
			errno = 0;
			hi = strtoul(dash + 1, &end, 10);
			if (end == dash + 1 || *end || errno == ERANGE ||
			    hi < lo) {
				rc = mf_errprintf(errp, "host list '%s': bad "
						  "range '%s'", whole, r);
				break;
			}
		}
		if (hi - lo >= _MAX_NAMES) {
			rc = mf_errprintf(errp, "host list '%s': more than %d "
					  "names", whole, _MAX_NAMES);
			break;
		}
		/* up to HI included, with no N past it: HI may be ULONG_MAX */
		for (unsigned long n = lo; !rc; n++) {
			char *next = g_strdup_printf("%s%0*lu%s", prefix, width,
						     n, close + 1);

			rc = _expand_one(next, out, whole, errp);
			g_free(next);
			if (n == hi)
				break;
		}
	}
	if (!ranges[0] || !*body)
		rc = mf_errprintf(errp, "host list '%s': empty brackets",
				  whole);
	g_strfreev(ranges);
	g_free(body);
	g_free(prefix);
	return rc;
}

GPtrArray *mf_hostlist_expand(const char *s, mf_error_t *errp)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	int depth = 0;
	const char *start = s;

	/* split on commas outside brackets */
	for (const char *p = s;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			char *item = g_strndup(start, (gsize)(p - start));
			int rc = 0;

			g_strstrip(item);
			if (*item)
				rc = _expand_one(item, out, s, errp);
			g_free(item);
			if (rc) {
				g_ptr_array_unref(out);
				return NULL;
			}
			if (!*p)
				break;
			start = p + 1;
		}
	}
	return out;
}
