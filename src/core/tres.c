/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "tres.h"

static const char *const _fixed[MF_TRES_FIXED_CNT] = {
	"cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages",
};

/* Lower-case NAME with ':' turned into '/' (gres:gpu -> gres/gpu). */
static char *_normal_name(const char *name)
{
	char *n = g_ascii_strdown(name, -1);

	for (char *p = n; *p; p++)
		if (*p == ':')
			*p = '/';
	return n;
}

mf_tres_set_t *mf_tres_set_create(void)
{
	mf_tres_set_t *set = g_new0(mf_tres_set_t, 1);

	set->cnt = MF_TRES_FIXED_CNT;
	set->names = g_new0(char *, set->cnt + 1);
	for (uint32_t i = 0; i < set->cnt; i++)
		set->names[i] = g_strdup(_fixed[i]);
	return set;
}

void mf_tres_set_free(mf_tres_set_t *set)
{
	if (!set)
		return;
	g_strfreev(set->names);
	g_free(set);
}

int mf_tres_find(const mf_tres_set_t *set, const char *name)
{
	char *n = _normal_name(name);
	int pos = -1;

	for (uint32_t i = 0; i < set->cnt; i++)
		if (!strcmp(set->names[i], n)) {
			pos = (int)i;
			break;
		}
	g_free(n);
	return pos;
}

int mf_tres_add(mf_tres_set_t *set, const char *name, mf_error_t *errp)
{
	int pos;

	if (!name || !*name)
		return mf_errprintf(errp, "empty TRES name");
	pos = mf_tres_find(set, name);
	if (pos >= 0)
		return pos;
	set->names = g_renew(char *, set->names, set->cnt + 2);
	set->names[set->cnt] = _normal_name(name);
	set->names[set->cnt + 1] = NULL;
	return (int)set->cnt++;
}

bool mf_tres_is_node_type(const mf_tres_set_t *set, uint32_t pos)
{
	if (pos == MF_TRES_CPU || pos == MF_TRES_MEM || pos == MF_TRES_NODE)
		return true;
	return pos < set->cnt && !strncmp(set->names[pos], "gres/", 5);
}

/* Slurm's unit letters: position in "\0KMGTP". */
static int _unit_rank(char c)
{
	static const char units[] = "KMGTP";
	const char *p = strchr(units, toupper((unsigned char)c));

	return (c && p) ? (int)(p - units) + 1 : -1;
}

/* The unit rank of a TRES's counts: megabytes for mem and bb. */
static int _base_rank(const char *name)
{
	if (!strcmp(name, "mem") || !strncmp(name, "bb", 2))
		return 2;
	return 0;
}

/* 1024^(unit - base) for a unit above the base; 1 otherwise. */
static double _unit_scale(int unit, int base)
{
	double scale = 1.0;

	while (base++ < unit)
		scale *= 1024.0;
	return scale;
}

/* Split "TYPE[/NAME]=VALUE" into a normalized name and the value text. */
static int _split_item(const char *item, char **name, const char **value,
		       const char *what, mf_error_t *errp)
{
	const char *eq = strchr(item, '=');

	if (!eq || eq == item)
		return mf_errprintf(errp, "%s entry '%s' is not TYPE=VALUE",
				    what, item);
	if (!eq[1])
		return mf_errprintf(errp, "%s entry '%s' has no value",
				    what, item);
	{
		char *raw = g_strndup(item, (gsize)(eq - item));

		*name = _normal_name(g_strstrip(raw));
		g_free(raw);
	}
	*value = eq + 1;
	return 0;
}

/*
 * Each non-empty "TYPE[/NAME]=VALUE" item of the comma-separated list S,
 * split (WHAT names the list in messages) and handed to EACH with the
 * name's position in SET (-1: not a configured TRES).  Stops at the first
 * item that does not split or that EACH refuses: -1, errp filled.
 */
typedef int (*_item_fn)(const char *item, const char *name, int pos,
			const char *value, void *arg, mf_error_t *errp);

static int _each_item(const mf_tres_set_t *set, const char *s,
		      const char *what, _item_fn each, void *arg,
		      mf_error_t *errp)
{
	char **items;
	int rc = 0;

	if (!s)
		return 0;
	items = g_strsplit(s, ",", -1);
	for (int i = 0; items[i] && !rc; i++) {
		char *item = g_strstrip(items[i]);
		char *name = NULL;
		const char *value = NULL;

		if (!*item)
			continue;
		if (_split_item(item, &name, &value, what, errp))
			rc = -1;
		else
			rc = each(item, name, mf_tres_find(set, name), value,
				  arg, errp);
		g_free(name);
	}
	g_strfreev(items);
	return rc;
}

/* _each_item: one weight, per unit of its TRES's base unit. */
static int _weight_item(const char *item, const char *name, int pos,
			const char *value, void *arg, mf_error_t *errp)
{
	double *weights = arg, w;
	char *end;

	errno = 0;
	w = strtod(value, &end);
	if (pos < 0)
		return mf_errprintf(errp, "TRES weight '%s': '%s' is not a "
				    "configured TRES", item, name);
	if (end == value || errno || !isfinite(w))
		return mf_errprintf(errp, "TRES weight '%s': '%s' is not a "
				    "number", item, value);
	if (*end && _unit_rank(*end) < 0)
		return mf_errprintf(errp, "TRES weight '%s': unknown unit "
				    "'%s' (K, M, G, T or P)", item, end);
	if (*end)
		w /= _unit_scale(_unit_rank(*end), _base_rank(name));
	weights[pos] = w;
	return 0;
}

int mf_tres_weights_parse(const mf_tres_set_t *set, const char *s,
			  double *weights, mf_error_t *errp)
{
	int rc;

	memset(weights, 0, sizeof(*weights) * set->cnt);
	rc = _each_item(set, s, "TRES weight", _weight_item, weights, errp);
	if (rc)
		memset(weights, 0, sizeof(*weights) * set->cnt);
	return rc;
}

int mf_tres_priority_weights_parse(const mf_tres_set_t *set, const char *s,
				   double *weights, mf_error_t *errp)
{
	if (mf_tres_weights_parse(set, s, weights, errp))
		return -1;
	for (uint32_t i = 0; i < set->cnt; i++) {
		if (weights[i] < 0) {
			memset(weights, 0, sizeof(*weights) * set->cnt);
			return mf_errprintf(errp, "the weight of %s is negative",
					    set->names[i]);
		}
	}
	return 0;
}

typedef struct {
	uint64_t *counts;
	GPtrArray *unknown;      /* NULL: an unknown TRES is an error */
} _counts_t;

/* _each_item: one count, in its TRES's base unit. */
static int _count_item(const char *item, const char *name, int pos,
		       const char *value, void *arg, mf_error_t *errp)
{
	_counts_t *c = arg;
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (end == value || errno || !isfinite(v) || v < 0 ||
	    !isdigit((unsigned char)*value))
		return mf_errprintf(errp, "TRES '%s': '%s' is not a count",
				    item, value);
	if (*end && (_unit_rank(*end) < 0 || end[1]))
		return mf_errprintf(errp, "TRES '%s': unknown unit '%s' (K, "
				    "M, G, T or P)", item, end);
	if (pos < 0 && !c->unknown)
		return mf_errprintf(errp, "TRES '%s': '%s' is not a "
				    "configured TRES", item, name);
	if (pos < 0) {
		g_ptr_array_add(c->unknown, g_strdup(name));
		return 0;
	}
	if (*end)
		v *= _unit_scale(_unit_rank(*end), _base_rank(name));
	if (v >= 18446744073709551615.0)
		return mf_errprintf(errp, "TRES '%s': count too large", item);
	c->counts[pos] = (uint64_t)llround(v);
	return 0;
}

int mf_tres_counts_parse(const mf_tres_set_t *set, const char *s,
			 uint64_t *counts, GPtrArray *unknown,
			 mf_error_t *errp)
{
	_counts_t c = { counts, unknown };

	memset(counts, 0, sizeof(*counts) * set->cnt);
	return _each_item(set, s, "TRES", _count_item, &c, errp);
}
