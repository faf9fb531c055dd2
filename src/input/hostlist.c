/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist.h"

/* the most names one list may give: Slurm's own host lists stop at 256 Ki
 * (MAX_RANGES in its hostlist), and no cluster has more nodes */
#define _MAX_NAMES 262144

/* one bracket of a name: its ranges, in order */
struct _range {
	unsigned long lo, hi;
	int width; /* digits of LO as written: zero padding kept */
};

struct _part {
	char *text;	    /* the literal text before the bracket (or the tail) */
	GArray *ranges;	    /* of struct _range; NULL for the tail */
	guint at;	    /* the range the odometer is on */
	unsigned long n;    /* its number */
};

static void _part_clear(gpointer p)
{
	struct _part *part = p;

	g_free(part->text);
	if (part->ranges)
		g_array_unref(part->ranges);
}

/* Read BODY ("01-04,7") into RANGES; returns how many names it gives, or 0
 * with errp set. */
static unsigned long _read_ranges(const char *body, GArray *ranges,
				  const char *whole, mf_error_t *errp)
{
	char **items = g_strsplit(body, ",", -1);
	unsigned long count = 0;

	if (!*body) {
		mf_errprintf(errp, "host list '%s': empty brackets", whole);
		goto out;
	}
	for (int i = 0; items[i]; i++) {
		char *r = items[i], *dash = strchr(r, '-'), *end;
		struct _range rg;

		rg.width = (int)(dash ? (size_t)(dash - r) : strlen(r));
		errno = 0;
		rg.lo = strtoul(r, &end, 10);
		/* a number past unsigned long is no range (strtoul would give
		 * ULONG_MAX) */
		if (end == r || errno == ERANGE || *r == '-' || *r == '+' ||
		    (dash ? end != dash : *end != '\0'))
			goto bad;
		rg.hi = rg.lo;
		if (dash) {
			const char *h = dash + 1;

			errno = 0;
			rg.hi = strtoul(h, &end, 10);
			if (end == h || *end || errno == ERANGE || *h == '-' ||
			    *h == '+' || rg.hi < rg.lo)
				goto bad;
		}
		if (rg.hi - rg.lo >= _MAX_NAMES ||
		    count + (rg.hi - rg.lo + 1) > _MAX_NAMES) {
			mf_errprintf(errp, "host list '%s': more than %d "
				     "names", whole, _MAX_NAMES);
			count = 0;
			goto out;
		}
		count += rg.hi - rg.lo + 1;
		g_array_append_val(ranges, rg);
		continue;
bad:
		mf_errprintf(errp, "host list '%s': bad range '%s'", whole, r);
		count = 0;
		goto out;
	}
out:
	g_strfreev(items);
	return count;
}

/* Step the odometer of PARTS (the last bracket fastest); FALSE when it has
 * gone round. */
static gboolean _advance(GArray *parts)
{
	for (guint i = parts->len; i-- > 0;) {
		struct _part *p = &g_array_index(parts, struct _part, i);
		const struct _range *rg;

		if (!p->ranges)
			continue;
		rg = &g_array_index(p->ranges, struct _range, p->at);
		if (p->n < rg->hi) {
			p->n++;
			return TRUE;
		}
		if (p->at + 1 < p->ranges->len) {
			p->at++;
			p->n = g_array_index(p->ranges, struct _range,
					     p->at).lo;
			return TRUE;
		}
		p->at = 0;
		p->n = g_array_index(p->ranges, struct _range, 0).lo;
	}
	return FALSE;
}

/*
 * Expand one name (no top-level comma) into OUT.  The names are counted
 * before any is made, so that a list of a billion names ("a[1-999999][1-
 * 999999]") is refused at once rather than built up to the limit.
 * Returns 0 or -1.
 */
static int _expand_one(const char *name, GArray *parts, GPtrArray *out,
		       const char *whole, mf_error_t *errp)
{
	const char *p = name;
	unsigned long total = 1;
	GString *buf;

	g_array_set_size(parts, 0);
	for (;;) {
		const char *open = strpbrk(p, "[]"), *close;
		struct _part part = { 0 };
		unsigned long count;
		char *body;

		if (open && *open == ']')
			return mf_errprintf(errp, "host list '%s': unbalanced "
					    "']'", whole);
		if (!open) {
			part.text = g_strdup(p);
			g_array_append_val(parts, part);
			break;
		}
		close = strpbrk(open + 1, "[]");
		if (!close || *close == '[')
			return mf_errprintf(errp, "host list '%s': unbalanced "
					    "'['", whole);
		part.text = g_strndup(p, (gsize)(open - p));
		part.ranges = g_array_new(FALSE, FALSE, sizeof(struct _range));
		g_array_append_val(parts, part);
		body = g_strndup(open + 1, (gsize)(close - open - 1));
		count = _read_ranges(body, part.ranges, whole, errp);
		g_free(body);
		if (!count)
			return -1;
		if (total > _MAX_NAMES / count)
			total = _MAX_NAMES + 1UL;
		else
			total *= count;
		if (total + out->len > _MAX_NAMES)
			return mf_errprintf(errp, "host list '%s': more than "
					    "%d names", whole, _MAX_NAMES);
		part.n = g_array_index(part.ranges, struct _range, 0).lo;
		g_array_index(parts, struct _part, parts->len - 1) = part;
		p = close + 1;
	}
	if (out->len >= _MAX_NAMES)
		return mf_errprintf(errp, "host list '%s': more than %d names",
				    whole, _MAX_NAMES);
	buf = g_string_new(NULL);
	do {
		g_string_truncate(buf, 0);
		for (guint i = 0; i < parts->len; i++) {
			const struct _part *pt = &g_array_index(parts,
							struct _part, i);

			g_string_append(buf, pt->text);
			if (pt->ranges)
				g_string_append_printf(buf, "%0*lu",
					g_array_index(pt->ranges,
						      struct _range,
						      pt->at).width,
					pt->n);
		}
		g_ptr_array_add(out, g_strndup(buf->str, buf->len));
	} while (_advance(parts));
	g_string_free(buf, TRUE);
	return 0;
}

GPtrArray *mf_hostlist_expand(const char *s, mf_error_t *errp)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	GArray *parts = g_array_new(FALSE, FALSE, sizeof(struct _part));
	int depth = 0;
	const char *start = s;

	g_array_set_clear_func(parts, _part_clear);

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
				rc = _expand_one(item, parts, out, s, errp);
			g_free(item);
			if (rc) {
				g_array_unref(parts);
				g_ptr_array_unref(out);
				return NULL;
			}
			if (!*p)
				break;
			start = p + 1;
		}
	}
	g_array_unref(parts);
	return out;
}
