/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
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

#define _DEFAULT_DECAY 604800U       /* 7-0 */
#define _DEFAULT_CALC_PERIOD 300U    /* 5 minutes */

static void _read_weight(mf_prio_conf_t *pc, const mf_conf_t *conf,
			 const char *key, uint32_t *out)
{
	const mf_conf_pair_t *p = mf_conf_get(conf, key);
	const char *why = NULL;

	*out = 0;
	if (p && mf_pconf_u32(p->value, out, &why)) {
		*out = 0;
		mf_pconf_warn(pc, p, "'%s' %s; using 0", p->value, why);
	}
}

/*
 * A time setting as slurmctld keeps it: minutes * 60 in 32 bits.
 * MIN_MINS is the least accepted (PriorityCalcPeriod: 1).
 */
static void _read_time(mf_prio_conf_t *pc, const mf_conf_t *conf,
		       const char *key, uint32_t dflt, uint32_t min_mins,
		       uint32_t *out)
{
	const mf_conf_pair_t *p = mf_conf_get(conf, key);
	mf_error_t e;
	uint32_t mins;

	*out = dflt;
	if (!p)
		return;
	if (mf_timestr_mins(p->value, &mins, &e)) {
		mf_pconf_warn(pc, p, "%s; using the default, %u seconds", e.text,
		      dflt);
		return;
	}
	if (min_mins && (mins < min_mins || mins == 0xffffffffU)) {
		mf_pconf_warn(pc, p, "must be at least %u minute%s; using the "
		      "default, %u seconds", min_mins,
		      min_mins == 1 ? "" : "s", dflt);
		return;
	}
	*out = mins * 60U;   /* UNLIMITED wraps as in slurmctld */
}

static void _read_tres(mf_prio_conf_t *pc, const mf_conf_t *conf)
{
	const mf_conf_pair_t *p = mf_conf_get(conf, "AccountingStorageTRES");
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
	if ((p = mf_conf_get(conf, "Licenses"))) {
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

static void _read_settings(mf_prio_conf_t *pc, const mf_conf_t *conf)
{
	const mf_conf_pair_t *p;
	mf_error_t e;

	_read_weight(pc, conf, "PriorityWeightAge", &pc->weight_age);
	_read_weight(pc, conf, "PriorityWeightAssoc", &pc->weight_assoc);
	_read_weight(pc, conf, "PriorityWeightFairshare", &pc->weight_fs);
	_read_weight(pc, conf, "PriorityWeightJobSize", &pc->weight_js);
	_read_weight(pc, conf, "PriorityWeightPartition", &pc->weight_part);
	_read_weight(pc, conf, "PriorityWeightQOS", &pc->weight_qos);

	_read_time(pc, conf, "PriorityMaxAge", _DEFAULT_DECAY, 0,
		   &pc->max_age);
	_read_time(pc, conf, "PriorityDecayHalfLife", _DEFAULT_DECAY, 0,
		   &pc->decay_half_life);
	_read_time(pc, conf, "PriorityCalcPeriod", _DEFAULT_CALC_PERIOD, 1,
		   &pc->calc_period);

	pc->reset_period = MF_RESET_NONE;
	if ((p = mf_conf_get(conf, "PriorityUsageResetPeriod")) &&
	    mf_reset_period_parse(p->value, &pc->reset_period, &e)) {
		mf_pconf_warn(pc, p, "%s; using NONE", e.text);
		pc->reset_period = MF_RESET_NONE;
	}
	if (pc->reset_period == MF_RESET_NONE && !pc->decay_half_life)
		mf_pconf_warn(pc, mf_conf_get(conf, "PriorityDecayHalfLife"),
		      "with no decay and no PriorityUsageResetPeriod usage "
		      "only grows; going on");

	if ((p = mf_conf_get(conf, "PriorityFavorSmall")) &&
	    mf_pconf_bool(p->value, &pc->favor_small)) {
		mf_pconf_warn(pc, p, "not YES or NO; using NO");
		pc->favor_small = false;
	}
	if ((p = mf_conf_get(conf, "PriorityFlags")) &&
	    mf_priority_flags_parse(p->value, &pc->flags, &e))
		mf_pconf_warn(pc, p, "%s; the other flags are used", e.text);

	pc->fs_damp = 1;
	if ((p = mf_conf_get(conf, "FairShareDampeningFactor"))) {
		const char *why = NULL;
		uint16_t v;

		if (mf_pconf_u16(p->value, &v, &why))
			mf_pconf_warn(pc, p, "'%s' %s; using 1", p->value, why);
		else if (!v)
			mf_pconf_warn(pc, p, "0 would divide by zero; using 1");
		else
			pc->fs_damp = v;
	}

	p = mf_conf_get(conf, "PriorityType");
	pc->priority_type = g_strdup(p ? p->value : "priority/basic");
	if (strcmp(pc->priority_type, "priority/multifactor"))
		mf_pconf_warn(pc, p, "%sthe cluster does not use priority/multifactor; "
		      "these are the figures it would give",
		      p ? "" : "PriorityType is not set (priority/basic): ");
	if ((p = mf_conf_get(conf, "PrioritySiteFactorPlugin")))
		pc->site_factor_plugin = g_strdup(p->value);

	p = mf_conf_get(conf, "AccountingStorageType");
	if (!p || strcmp(p->value, "accounting_storage/slurmdbd")) {
		if (pc->weight_age || pc->weight_fs)
			mf_pconf_warn(pc, p, "%sPriorityWeightAge and "
			      "PriorityWeightFairshare need slurmdbd; using 0 "
			      "for both, as slurmctld does",
			      p ? "" : "AccountingStorageType is not set: ");
		pc->weight_age = 0;
		pc->weight_fs = 0;
	}

	if ((p = mf_conf_get(conf, "PriorityWeightTRES"))) {
		pc->weight_tres_str = g_strdup(p->value);
		pc->weight_tres = g_new0(double, pc->tres->cnt);
		if (mf_tres_priority_weights_parse(pc->tres, p->value,
						   pc->weight_tres, &e)) {
			mf_pconf_warn(pc, p, "%s; no TRES weights used", e.text);
			g_clear_pointer(&pc->weight_tres, g_free);
		}
	}
}

mf_prio_conf_t *mf_prio_conf_read(const mf_conf_t *conf, mf_error_t *errp)
{
	mf_prio_conf_t *pc;
	uint64_t total;

	if (!conf) {
		mf_errprintf(errp, "no configuration");
		return NULL;
	}
	pc = g_new0(mf_prio_conf_t, 1);
	pc->warnings = g_ptr_array_new_with_free_func(g_free);
	pc->nodes = g_ptr_array_new_with_free_func(mf_pconf_node_free);
	pc->parts = g_ptr_array_new_with_free_func(mf_pconf_part_free);
	/* the reader's own warnings (file syntax, missing Include) first */
	for (guint i = 0; conf->warnings && i < conf->warnings->len; i++)
		g_ptr_array_add(pc->warnings,
				g_strdup(g_ptr_array_index(conf->warnings, i)));

	_read_tres(pc, conf);
	_read_settings(pc, conf);
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
