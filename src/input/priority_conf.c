/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "billing.h"
#include "cluster_conf.h"
#include "conf_values.h"
#include "hostlist.h"
#include "priority_conf.h"
#include "priority_flags.h"
#include "timestr.h"

/*
 * The Priority* settings: one table of every key, its reader (which parses
 * the value, warns about a bad one and keeps the default then), the field
 * it fills and its default.  slurm.conf (mf_prio_conf_read()) and a dump
 * of `scontrol show config` (mf_prio_conf_take(), wait_dump.c) are read
 * through it, so that one parser and one set of defaults serve both.
 */
typedef struct _key _key_t;
typedef int (*_read_fn)(mf_prio_conf_t *pc, const _key_t *k,
			const mf_conf_pair_t *p);
struct _key {
	const char *key;
	_read_fn read;           /* P NULL: set the default */
	size_t off;              /* the field in mf_prio_conf_t */
	uint32_t dflt;           /* the default, as the field holds it */
	uint32_t min_mins;       /* a time's least accepted, in minutes */
};

#define _FIELD(pc, k, type) ((type *) (void *) ((char *) (pc) + (k)->off))

/* A weight: unsigned 32-bit; default 0. */
static int _weight(mf_prio_conf_t *pc, const _key_t *k,
		   const mf_conf_pair_t *p)
{
	uint32_t *out = _FIELD(pc, k, uint32_t);
	const char *why = NULL;

	*out = k->dflt;
	if (p && mf_pconf_u32(p->value, out, &why)) {
		*out = k->dflt;
		mf_pconf_warn(pc, p, "'%s' %s; using 0", p->value, why);
		return -1;
	}
	return 0;
}

/* A time setting as slurmctld keeps it: minutes * 60 in 32 bits, at
 * least k->min_mins minutes (PriorityCalcPeriod: 1). */
static int _time(mf_prio_conf_t *pc, const _key_t *k, const mf_conf_pair_t *p)
{
	uint32_t *out = _FIELD(pc, k, uint32_t);
	mf_error_t e;
	uint32_t mins;

	*out = k->dflt;
	if (!p)
		return 0;
	if (mf_timestr_mins(p->value, &mins, &e)) {
		mf_pconf_warn(pc, p, "%s; using the default, %u seconds", e.text,
		      k->dflt);
		return -1;
	}
	if (k->min_mins && (mins < k->min_mins || mins == 0xffffffffU)) {
		mf_pconf_warn(pc, p, "must be at least %u minute%s; using the "
		      "default, %u seconds", k->min_mins,
		      k->min_mins == 1 ? "" : "s", k->dflt);
		return -1;
	}
	*out = mins * 60U;   /* UNLIMITED wraps as in slurmctld */
	return 0;
}

/* PriorityUsageResetPeriod: NONE ... YEARLY. */
static int _reset(mf_prio_conf_t *pc, const _key_t *k, const mf_conf_pair_t *p)
{
	mf_reset_period_t *out = _FIELD(pc, k, mf_reset_period_t);
	mf_error_t e;

	*out = (mf_reset_period_t) k->dflt;
	if (p && mf_reset_period_parse(p->value, out, &e)) {
		mf_pconf_warn(pc, p, "%s; using NONE", e.text);
		*out = (mf_reset_period_t) k->dflt;
		return -1;
	}
	return 0;
}

/* PriorityFavorSmall: YES or NO. */
static int _bool(mf_prio_conf_t *pc, const _key_t *k, const mf_conf_pair_t *p)
{
	bool *out = _FIELD(pc, k, bool);

	*out = k->dflt != 0;
	if (p && mf_pconf_bool(p->value, out)) {
		mf_pconf_warn(pc, p, "not YES or NO; using NO");
		*out = k->dflt != 0;
		return -1;
	}
	return 0;
}

/* PriorityFlags: a bad flag is passed over, the others kept. */
static int _flags(mf_prio_conf_t *pc, const _key_t *k, const mf_conf_pair_t *p)
{
	uint32_t *out = _FIELD(pc, k, uint32_t);
	mf_error_t e;

	*out = k->dflt;
	if (p && mf_priority_flags_parse(p->value, out, &e)) {
		mf_pconf_warn(pc, p, "%s; the other flags are used", e.text);
		return -1;
	}
	return 0;
}

/* FairShareDampeningFactor: 1 to 65535. */
static int _damp(mf_prio_conf_t *pc, const _key_t *k, const mf_conf_pair_t *p)
{
	uint16_t *out = _FIELD(pc, k, uint16_t), v;
	const char *why = NULL;

	*out = (uint16_t) k->dflt;
	if (!p)
		return 0;
	if (mf_pconf_u16(p->value, &v, &why)) {
		mf_pconf_warn(pc, p, "'%s' %s; using 1", p->value, why);
		return -1;
	}
	if (!v) {
		mf_pconf_warn(pc, p, "0 would divide by zero; using 1");
		return -1;
	}
	*out = v;
	return 0;
}

#define _AT(f) offsetof(mf_prio_conf_t, f)

/* Every setting read by the table, in the order of their warnings, with
 * Slurm's defaults. */
static const _key_t _keys[] = {
	{ "PriorityWeightAge", _weight, _AT(weight_age), 0, 0 },
	{ "PriorityWeightAssoc", _weight, _AT(weight_assoc), 0, 0 },
	{ "PriorityWeightFairshare", _weight, _AT(weight_fs), 0, 0 },
	{ "PriorityWeightJobSize", _weight, _AT(weight_js), 0, 0 },
	{ "PriorityWeightPartition", _weight, _AT(weight_part), 0, 0 },
	{ "PriorityWeightQOS", _weight, _AT(weight_qos), 0, 0 },
	{ "PriorityMaxAge", _time, _AT(max_age), 604800U, 0 },         /* 7-0 */
	{ "PriorityDecayHalfLife", _time, _AT(decay_half_life), 604800U, 0 },
	{ "PriorityCalcPeriod", _time, _AT(calc_period), 300U, 1 },    /* 5 */
	{ "PriorityUsageResetPeriod", _reset, _AT(reset_period),
	  MF_RESET_NONE, 0 },
	{ "PriorityFavorSmall", _bool, _AT(favor_small), 0, 0 },
	{ "PriorityFlags", _flags, _AT(flags), 0, 0 },
	{ "FairShareDampeningFactor", _damp, _AT(fs_damp), 1, 0 },
};

static const _key_t *_key_find(const char *key)
{
	for (size_t i = 0; i < G_N_ELEMENTS(_keys); i++)
		if (!g_ascii_strcasecmp(_keys[i].key, key))
			return &_keys[i];
	return NULL;
}

/* The settings read besides the table's keys. */
enum { _O_ACCT_TRES, _O_LICENSES, _O_TYPE, _O_SITE, _O_ACCT_TYPE,
       _O_WEIGHT_TRES, _O_N };
static const char *const _others[_O_N] = {
	"AccountingStorageTRES", "Licenses", "PriorityType",
	"PrioritySiteFactorPlugin", "AccountingStorageType",
	"PriorityWeightTRES",
};

/* The pairs of a conf that the settings are read from (NULL: not set). */
typedef struct {
	const mf_conf_pair_t *key[G_N_ELEMENTS(_keys)];     /* _keys' */
	const mf_conf_pair_t *other[_O_N];                  /* _others' */
} _pairs_t;

/* Every pair of CONF the settings are read from, in one pass, into P. */
static void _fetch(const mf_conf_t *conf, _pairs_t *p)
{
	for (size_t i = 0; i < G_N_ELEMENTS(_keys); i++)
		p->key[i] = mf_conf_get(conf, _keys[i].key);
	for (size_t i = 0; i < _O_N; i++)
		p->other[i] = mf_conf_get(conf, _others[i]);
}

/* Every setting of the table from its pair of P, or its default. */
static void _read_keys(mf_prio_conf_t *pc, const _pairs_t *p)
{
	const mf_conf_pair_t *half_life = NULL;

	for (size_t i = 0; i < G_N_ELEMENTS(_keys); i++) {
		const _key_t *k = &_keys[i];

		(void) k->read(pc, k, p->key[i]);
		if (k->off == _AT(decay_half_life))
			half_life = p->key[i];
		if (k->read == _reset && pc->reset_period == MF_RESET_NONE &&
		    !pc->decay_half_life)
			mf_pconf_warn(pc, half_life,
			      "with no decay and no PriorityUsageResetPeriod "
			      "usage only grows; going on");
	}
}

int mf_prio_conf_take(mf_prio_conf_t *pc, const mf_conf_pair_t *p)
{
	const _key_t *k = _key_find(p->key);

	if (!k)
		return 1;
	return k->read(pc, k, p) ? -1 : 0;
}

mf_prio_conf_t *mf_prio_conf_defaults(void)
{
	mf_prio_conf_t *pc = g_new0(mf_prio_conf_t, 1);

	pc->warnings = g_ptr_array_new_with_free_func(g_free);
	pc->warned = g_ptr_array_new_with_free_func(g_free);
	pc->nodes = g_ptr_array_new_with_free_func(mf_pconf_node_free);
	pc->parts = g_ptr_array_new_with_free_func(mf_pconf_part_free);
	for (size_t i = 0; i < G_N_ELEMENTS(_keys); i++)
		(void) _keys[i].read(pc, &_keys[i], NULL);
	return pc;
}

static void _read_tres(mf_prio_conf_t *pc, const _pairs_t *pairs)
{
	const mf_conf_pair_t *p = pairs->other[_O_ACCT_TRES];
	char **items;

	pc->tres = mf_tres_set_create();
	if (p) {
		items = g_strsplit(p->value, ",", -1);
		for (int i = 0; items[i]; i++) {
			char *t = g_strstrip(items[i]);
			char *lower = g_ascii_strdown(t, -1);

			/* a bare "gres" or "license" adds nothing by name */
			if (*t && strchr(t, '/'))
				mf_tres_add(pc->tres, t, NULL);
			else if (*t && mf_tres_find(pc->tres, t) < 0 &&
				 strcmp(lower, "gres") && strcmp(lower, "license") &&
				 strcmp(lower, "bb"))
				mf_pconf_warn(pc, p, "'%s' is not a TRES type; ignored",
				      t);
			g_free(lower);
		}
		g_strfreev(items);
	}
	pc->cluster_tres = g_new0(uint64_t, pc->tres->cnt);
	if ((p = pairs->other[_O_LICENSES])) {
		items = g_strsplit(p->value, ",", -1);
		for (int i = 0; items[i]; i++) {
			char *t = g_strstrip(items[i]);
			char *sep = strpbrk(t, ":=");
			uint64_t count = 1;
			char *name;
			int pos;

			if (!*t)
				continue;
			if (sep) {
				char *end;

				*sep = '\0';
				count = strtoull(sep + 1, &end, 10);
				if (end == sep + 1 || *end) {
					mf_pconf_warn(pc, p, "license count '%s' is "
					      "not a number; using 1", sep + 1);
					count = 1;
				}
			}
			name = g_strdup_printf("license/%s", t);
			if ((pos = mf_tres_find(pc->tres, name)) >= 0)
				pc->cluster_tres[pos] = count;
			g_free(name);
		}
		g_strfreev(items);
	}
}

static void _read_settings(mf_prio_conf_t *pc, const _pairs_t *pairs)
{
	const mf_conf_pair_t *p;
	mf_error_t e;

	_read_keys(pc, pairs);

	p = pairs->other[_O_TYPE];
	pc->priority_type = g_strdup(p ? p->value : "priority/basic");
	if (strcmp(pc->priority_type, "priority/multifactor"))
		mf_pconf_warn(pc, p, "%sthe cluster does not use priority/multifactor; "
		      "these are the figures it would give",
		      p ? "" : "PriorityType is not set (priority/basic): ");
	if ((p = pairs->other[_O_SITE]))
		pc->site_factor_plugin = g_strdup(p->value);

	p = pairs->other[_O_ACCT_TYPE];
	if (!p || strcmp(p->value, "accounting_storage/slurmdbd")) {
		if (pc->weight_age || pc->weight_fs)
			mf_pconf_warn(pc, p, "%sPriorityWeightAge and "
			      "PriorityWeightFairshare need slurmdbd; using 0 "
			      "for both, as slurmctld does",
			      p ? "" : "AccountingStorageType is not set: ");
		pc->weight_age = 0;
		pc->weight_fs = 0;
	}

	if ((p = pairs->other[_O_WEIGHT_TRES])) {
		pc->weight_tres_str = g_strdup(p->value);
		pc->weight_tres = g_new0(double, pc->tres->cnt);
		if (mf_tres_priority_weights_parse(pc->tres, p->value,
						   pc->weight_tres, &e)) {
			mf_pconf_warn(pc, p, "%s; no TRES weights used", e.text);
			g_clear_pointer(&pc->weight_tres, g_free);
		}
	}
}

mf_prio_conf_t *mf_prio_conf_settings(const mf_conf_t *conf)
{
	mf_prio_conf_t *pc = mf_prio_conf_defaults();
	_pairs_t pairs;

	/* the reader's own warnings (file syntax, missing Include) first */
	for (guint i = 0; conf->warnings && i < conf->warnings->len; i++) {
		g_ptr_array_add(pc->warnings,
				g_strdup(g_ptr_array_index(conf->warnings, i)));
		g_ptr_array_add(pc->warned, g_strdup(""));
	}
	_fetch(conf, &pairs);
	_read_tres(pc, &pairs);
	_read_settings(pc, &pairs);
	return pc;
}

mf_prio_conf_t *mf_prio_conf_read(const mf_conf_t *conf, mf_error_t *errp)
{
	mf_prio_conf_t *pc;
	uint64_t total;

	if (!conf) {
		mf_errprintf(errp, "no configuration");
		return NULL;
	}
	pc = mf_prio_conf_settings(conf);
	mf_pconf_read_nodes(pc, conf);
	mf_pconf_read_parts(pc, conf);

	total = (uint64_t)pc->weight_age + pc->weight_assoc + pc->weight_fs +
		pc->weight_js + pc->weight_part + pc->weight_qos;
	if (total > 0xffffffffULL)
		mf_pconf_warn(pc, NULL, "the PriorityWeight* settings add up to %llu, "
		      "more than 4294967295: high priorities will be clamped",
		      (unsigned long long)total);

	pc->part_max_priority = 1;
	for (guint i = 0; i < pc->parts->len; i++) {
		mf_conf_part_t *part = pc->parts->pdata[i];

		if (part->part.priority_job_factor > pc->part_max_priority)
			pc->part_max_priority = part->part.priority_job_factor;
	}
	return pc;
}

void mf_prio_conf_free(mf_prio_conf_t *pc)
{
	if (!pc)
		return;
	g_free(pc->weight_tres_str);
	g_free(pc->weight_tres);
	g_free(pc->priority_type);
	g_free(pc->site_factor_plugin);
	g_ptr_array_unref(pc->parts);
	g_ptr_array_unref(pc->nodes);
	g_free(pc->cluster_tres);
	mf_tres_set_free(pc->tres);
	g_ptr_array_unref(pc->warnings);
	g_ptr_array_unref(pc->warned);
	g_free(pc);
}

void mf_prio_conf_to_config(const mf_prio_conf_t *pc, mf_prio_config_t *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->weight_age = pc->weight_age;
	cfg->weight_assoc = pc->weight_assoc;
	cfg->weight_fs = pc->weight_fs;
	cfg->weight_js = pc->weight_js;
	cfg->weight_part = pc->weight_part;
	cfg->weight_qos = pc->weight_qos;
	cfg->tres = pc->tres;
	cfg->weight_tres = pc->weight_tres;
	cfg->max_age = pc->max_age;
	cfg->favor_small = pc->favor_small;
	cfg->flags = pc->flags;
	cfg->cluster_cpus = pc->cluster_cpus;
	cfg->node_count = pc->node_count;
	cfg->part_max_priority = pc->part_max_priority;
}
