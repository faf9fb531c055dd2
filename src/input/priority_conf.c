/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "billing.h"
#include "hostlist.h"
#include "priority_conf.h"
#include "priority_flags.h"
#include "timestr.h"

#define _DEFAULT_DECAY 604800U       /* 7-0 */
#define _DEFAULT_CALC_PERIOD 300U    /* 5 minutes */

static void _warn(mf_prio_conf_t *pc, const mf_conf_pair_t *p,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Append "FILE:LINE: KEY=VALUE: <message>" to the warnings. */
static void _warn(mf_prio_conf_t *pc, const mf_conf_pair_t *p,
		  const char *fmt, ...)
{
	char *where = p ? g_strdup_printf("%s:%d: %s=%s: ", p->file, p->line,
					  p->key, p->value) : NULL;
	va_list ap;

	va_start(ap, fmt);
	mf_warning_vadd(pc->warnings, where, fmt, ap);
	va_end(ap);
	g_free(where);
}

/*
 * Slurm's unsigned 32-bit reading: strtoul base 0, an optional k/K
 * (x1024), or UNLIMITED/INFINITE.  Returns 0 or -1 with WHY set.
 */
static int _parse_u32(const char *s, uint32_t *out, const char **why)
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

static int _parse_u16(const char *s, uint16_t *out, const char **why)
{
	uint32_t v;

	if (!strcasecmp(s, "UNLIMITED") || !strcasecmp(s, "INFINITE")) {
		*out = 0xffff;
		return 0;
	}
	if (_parse_u32(s, &v, why))
		return -1;
	if (v > 0xffff) {
		*why = "is greater than 65535";
		return -1;
	}
	*out = (uint16_t)v;
	return 0;
}

static int _parse_bool(const char *s, bool *out)
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

static void _read_weight(mf_prio_conf_t *pc, const mf_conf_t *conf,
			 const char *key, uint32_t *out)
{
	const mf_conf_pair_t *p = mf_conf_get(conf, key);
	const char *why = NULL;

	*out = 0;
	if (p && _parse_u32(p->value, out, &why)) {
		*out = 0;
		_warn(pc, p, "'%s' %s; using 0", p->value, why);
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
		_warn(pc, p, "%s; using the default, %u seconds", e.text,
		      dflt);
		return;
	}
	if (min_mins && (mins < min_mins || mins == 0xffffffffU)) {
		_warn(pc, p, "must be at least %u minute%s; using the "
		      "default, %u seconds", min_mins,
		      min_mins == 1 ? "" : "s", dflt);
		return;
	}
	*out = mins * 60U;   /* UNLIMITED wraps as in slurmctld */
}

/* The settings of a record line, with the DEFAULT records seen before it
 * as fall-back, the latest first (each DEFAULT line sets only its keys). */
static const mf_conf_pair_t *_rec_get(const mf_conf_record_t *rec,
				      const GPtrArray *dflt, const char *key)
{
	const mf_conf_pair_t *p = mf_conf_record_get(rec, key);

	for (guint i = dflt->len; !p && i-- > 0;)
		p = mf_conf_record_get(dflt->pdata[i], key);
	return p;
}

static void _node_free(gpointer x)
{
	mf_conf_node_t *n = x;

	g_free(n->name);
	g_free(n->tres_cnt);
	g_free(n);
}

static void _part_free(gpointer x)
{
	mf_conf_part_t *p = x;

	g_free(p->name);
	if (p->nodes)
		g_ptr_array_unref(p->nodes);
	g_free(p->billing_weights_str);
	g_free(p->tres_cnt);
	g_free(p->billing_weights);
	g_free(p);
}

/* A record field as uint32 (0 and a warning when bad). */
static uint32_t _rec_u32(mf_prio_conf_t *pc, const mf_conf_pair_t *p,
			 uint32_t dflt)
{
	const char *why = NULL;
	uint32_t v;

	if (!p)
		return dflt;
	if (_parse_u32(p->value, &v, &why)) {
		_warn(pc, p, "'%s' %s; using %u", p->value, why, dflt);
		return dflt;
	}
	return v;
}

/* Add the gres counts of a Gres= value to the node's TRES. */
static void _node_gres(mf_prio_conf_t *pc, const mf_conf_pair_t *p,
		       mf_conf_node_t *n)
{
	char **items = g_strsplit(p->value, ",", -1);

	for (int i = 0; items[i]; i++) {
		char **f = g_strsplit(g_strstrip(items[i]), ":", -1);
		guint nf = g_strv_length(f);
		uint64_t count = 1;
		char *end = NULL;
		char *name;
		int pos;

		if (nf == 0 || !*f[0]) {
			g_strfreev(f);
			continue;
		}
		if (nf >= 2 && isdigit((unsigned char)f[nf - 1][0])) {
			unsigned long long c = strtoull(f[nf - 1], &end, 10);

			if (*end == 'k' || *end == 'K')
				c *= 1024, end++;
			else if (*end == 'm' || *end == 'M')
				c *= 1024 * 1024, end++;
			else if (*end == 'g' || *end == 'G')
				c *= 1024ULL * 1024 * 1024, end++;
			if (*end) {
				_warn(pc, p, "gres count '%s' is not a number; "
				      "using 1", f[nf - 1]);
				c = 1;
			}
			count = c;
			nf--;
		}
		/* gres/NAME, and gres/NAME:TYPE when typed */
		name = g_strdup_printf("gres/%s", f[0]);
		if ((pos = mf_tres_find(pc->tres, name)) >= 0)
			n->tres_cnt[pos] += count;
		g_free(name);
		if (nf >= 2) {
			name = g_strdup_printf("gres/%s:%s", f[0], f[1]);
			if ((pos = mf_tres_find(pc->tres, name)) >= 0)
				n->tres_cnt[pos] += count;
			g_free(name);
		}
		g_strfreev(f);
	}
	g_strfreev(items);
}

static void _read_nodes(mf_prio_conf_t *pc, const mf_conf_t *conf)
{
	GPtrArray *dflt = g_ptr_array_new();

	for (guint r = 0; r < conf->records->len; r++) {
		const mf_conf_record_t *rec = conf->records->pdata[r];
		const mf_conf_pair_t *np, *p;
		GPtrArray *names;
		uint32_t cpus;
		uint64_t mem;
		mf_error_t e;

		if (strcasecmp(rec->kind, "NodeName"))
			continue;
		np = rec->pairs->pdata[0];
		if (!strcasecmp(np->value, "DEFAULT")) {
			g_ptr_array_add(dflt, (gpointer)rec);
			continue;
		}
		if (!(names = mf_hostlist_expand(np->value, &e))) {
			_warn(pc, np, "%s; line ignored", e.text);
			continue;
		}
		if ((p = _rec_get(rec, dflt, "CPUs")) ||
		    (p = _rec_get(rec, dflt, "Procs"))) {
			cpus = _rec_u32(pc, p, 1);
		} else {
			uint32_t boards = _rec_u32(pc, _rec_get(rec, dflt,
						"Boards"), 1);
			uint32_t sockets = _rec_u32(pc, _rec_get(rec, dflt,
						"Sockets"), 0);
			uint32_t spb = _rec_u32(pc, _rec_get(rec, dflt,
						"SocketsPerBoard"), 0);
			uint32_t cores = _rec_u32(pc, _rec_get(rec, dflt,
						"CoresPerSocket"), 1);
			uint32_t threads = _rec_u32(pc, _rec_get(rec, dflt,
						"ThreadsPerCore"), 1);

			if (!sockets)
				sockets = spb ? spb * boards : 1;
			cpus = sockets * cores * threads;
		}
		mem = _rec_u32(pc, _rec_get(rec, dflt, "RealMemory"), 1);
		for (guint i = 0; i < names->len; i++) {
			mf_conf_node_t *n = g_new0(mf_conf_node_t, 1);

			n->name = g_strdup(names->pdata[i]);
			n->cpus = cpus;
			n->real_memory = mem;
			n->tres_cnt = g_new0(uint64_t, pc->tres->cnt);
			n->tres_cnt[MF_TRES_CPU] = cpus;
			n->tres_cnt[MF_TRES_MEM] = mem;
			n->tres_cnt[MF_TRES_NODE] = 1;
			if ((p = _rec_get(rec, dflt, "Gres")))
				_node_gres(pc, p, n);
			g_ptr_array_add(pc->nodes, n);
			pc->cluster_cpus += cpus;
			pc->node_count++;
		}
		g_ptr_array_unref(names);
	}
	g_ptr_array_unref(dflt);
}

/* The nodes of PC by name (names and nodes borrowed from PC). */
static GHashTable *_nodes_by_name(const mf_prio_conf_t *pc)
{
	GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < pc->nodes->len; i++) {
		mf_conf_node_t *n = pc->nodes->pdata[i];

		/* a name defined twice: the first line's node, as before */
		if (!g_hash_table_contains(h, n->name))
			g_hash_table_insert(h, n->name, n);
	}
	return h;
}

/* The nodes of the partition's Nodes= P, each once, looked up in BY_NAME
 * (a site's partitions list thousands of nodes: no search along a list). */
static void _part_nodes(mf_prio_conf_t *pc, const mf_conf_pair_t *p,
			GHashTable *by_name, mf_conf_part_t *part)
{
	GPtrArray *names;
	GHashTable *have;
	mf_error_t e;

	if (!p)
		return;
	if (!strcasecmp(p->value, "ALL")) {
		for (guint i = 0; i < pc->nodes->len; i++)
			g_ptr_array_add(part->nodes, pc->nodes->pdata[i]);
		return;
	}
	if (!(names = mf_hostlist_expand(p->value, &e))) {
		_warn(pc, p, "%s; the partition has no nodes", e.text);
		return;
	}
	have = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (guint i = 0; i < names->len; i++) {
		mf_conf_node_t *n = g_hash_table_lookup(by_name,
							names->pdata[i]);

		if (!n) {
			_warn(pc, p, "node '%s' is not defined by a NodeName "
			      "line; left out", (char *)names->pdata[i]);
			continue;
		}
		/* a node listed twice counts once */
		if (g_hash_table_add(have, n))
			g_ptr_array_add(part->nodes, n);
	}
	g_hash_table_unref(have);
	g_ptr_array_unref(names);
}

/* The partition's TRES totals, as slurmctld sets them. */
static void _part_tres(mf_prio_conf_t *pc, mf_conf_part_t *part)
{
	uint32_t cnt = pc->tres->cnt;

	part->tres_cnt = g_new0(uint64_t, cnt);
	for (guint i = 0; i < part->nodes->len; i++) {
		mf_conf_node_t *n = part->nodes->pdata[i];

		for (uint32_t j = 0; j < cnt; j++)
			part->tres_cnt[j] += n->tres_cnt[j];
	}
	part->tres_cnt[MF_TRES_NODE] = part->nodes->len;
	for (uint32_t j = MF_TRES_FIXED_CNT; j < cnt; j++) {
		const char *name = pc->tres->names[j];

		if (!strncmp(name, "license/", 8) || !strncmp(name, "bb/", 3))
			part->tres_cnt[j] = pc->cluster_tres[j];
	}
	part->tres_cnt[MF_TRES_BILLING] = (uint64_t)mf_billing(
		pc->tres, part->tres_cnt, part->billing_weights, pc->flags);
}

static void _read_parts(mf_prio_conf_t *pc, const mf_conf_t *conf)
{
	GPtrArray *dflt = g_ptr_array_new();
	GHashTable *by_name = _nodes_by_name(pc);

	for (guint r = 0; r < conf->records->len; r++) {
		const mf_conf_record_t *rec = conf->records->pdata[r];
		const mf_conf_pair_t *np, *p;
		mf_conf_part_t *part;
		const char *why = NULL;
		bool b;

		if (strcasecmp(rec->kind, "PartitionName"))
			continue;
		np = rec->pairs->pdata[0];
		if (!strcasecmp(np->value, "DEFAULT")) {
			g_ptr_array_add(dflt, (gpointer)rec);
			continue;
		}
		if (mf_prio_conf_find_part(pc, np->value)) {
			_warn(pc, np, "partition defined twice; the later "
			      "line ignored");
			continue;
		}
		part = g_new0(mf_conf_part_t, 1);
		part->name = g_strdup(np->value);
		part->nodes = g_ptr_array_new();
		part->part.name = part->name;
		part->part.priority_job_factor = 1;
		part->part.priority_tier = 1;
		part->part.max_time = MF_INFINITE;

		_part_nodes(pc, _rec_get(rec, dflt, "Nodes"), by_name, part);
		if ((p = _rec_get(rec, dflt, "PriorityJobFactor"))) {
			uint16_t v;

			if (_parse_u16(p->value, &v, &why))
				_warn(pc, p, "'%s' %s; using %u", p->value,
				      why, part->part.priority_job_factor);
			else
				part->part.priority_job_factor = v;
		}
		if ((p = _rec_get(rec, dflt, "PriorityTier"))) {
			uint16_t v;

			if (_parse_u16(p->value, &v, &why))
				_warn(pc, p, "'%s' %s; using %u", p->value,
				      why, part->part.priority_tier);
			else
				part->part.priority_tier = v;
		}
		/* Priority= sets both, over PriorityJobFactor and
		 * PriorityTier, as Slurm reads it */
		if ((p = _rec_get(rec, dflt, "Priority"))) {
			uint16_t v;

			if (_parse_u16(p->value, &v, &why))
				_warn(pc, p, "'%s' %s; ignored", p->value, why);
			else
				part->part.priority_job_factor =
					part->part.priority_tier = v;
		}
		if ((p = _rec_get(rec, dflt, "MaxTime"))) {
			mf_error_t e;
			uint32_t mins;

			if (mf_timestr_mins(p->value, &mins, &e))
				_warn(pc, p, "%s; using UNLIMITED", e.text);
			else
				part->part.max_time = mins;
		}
		if ((p = _rec_get(rec, dflt, "Default"))) {
			if (_parse_bool(p->value, &b))
				_warn(pc, p, "not YES or NO; using NO");
			else
				part->is_default = b;
		}
		if ((p = _rec_get(rec, dflt, "TRESBillingWeights"))) {
			mf_error_t e;

			part->billing_weights_str = g_strdup(p->value);
			part->billing_weights = g_new0(double, pc->tres->cnt);
			if (mf_tres_weights_parse(pc->tres, p->value,
						  part->billing_weights, &e)) {
				_warn(pc, p, "%s; billing by CPUs", e.text);
				g_clear_pointer(&part->billing_weights, g_free);
			}
		}
		_part_tres(pc, part);
		part->part.tres_cnt = part->tres_cnt;
		part->part.billing_weights = part->billing_weights;
		g_ptr_array_add(pc->parts, part);
	}
	g_hash_table_unref(by_name);
	g_ptr_array_unref(dflt);
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
				_warn(pc, p, "'%s' is not a TRES type; ignored",
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
					_warn(pc, p, "license count '%s' is "
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
		_warn(pc, p, "%s; using NONE", e.text);
		pc->reset_period = MF_RESET_NONE;
	}
	if (pc->reset_period == MF_RESET_NONE && !pc->decay_half_life)
		_warn(pc, mf_conf_get(conf, "PriorityDecayHalfLife"),
		      "with no decay and no PriorityUsageResetPeriod usage "
		      "only grows; going on");

	if ((p = mf_conf_get(conf, "PriorityFavorSmall")) &&
	    _parse_bool(p->value, &pc->favor_small)) {
		_warn(pc, p, "not YES or NO; using NO");
		pc->favor_small = false;
	}
	if ((p = mf_conf_get(conf, "PriorityFlags")) &&
	    mf_priority_flags_parse(p->value, &pc->flags, &e))
		_warn(pc, p, "%s; the other flags are used", e.text);

	pc->fs_damp = 1;
	if ((p = mf_conf_get(conf, "FairShareDampeningFactor"))) {
		const char *why = NULL;
		uint16_t v;

		if (_parse_u16(p->value, &v, &why))
			_warn(pc, p, "'%s' %s; using 1", p->value, why);
		else if (!v)
			_warn(pc, p, "0 would divide by zero; using 1");
		else
			pc->fs_damp = v;
	}

	p = mf_conf_get(conf, "PriorityType");
	pc->priority_type = g_strdup(p ? p->value : "priority/basic");
	if (strcmp(pc->priority_type, "priority/multifactor"))
		_warn(pc, p, "%sthe cluster does not use priority/multifactor; "
		      "these are the figures it would give",
		      p ? "" : "PriorityType is not set (priority/basic): ");
	if ((p = mf_conf_get(conf, "PrioritySiteFactorPlugin")))
		pc->site_factor_plugin = g_strdup(p->value);

	p = mf_conf_get(conf, "AccountingStorageType");
	if (!p || strcmp(p->value, "accounting_storage/slurmdbd")) {
		if (pc->weight_age || pc->weight_fs)
			_warn(pc, p, "%sPriorityWeightAge and "
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
			_warn(pc, p, "%s; no TRES weights used", e.text);
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
	pc->nodes = g_ptr_array_new_with_free_func(_node_free);
	pc->parts = g_ptr_array_new_with_free_func(_part_free);
	/* the reader's own warnings (file syntax, missing Include) first */
	for (guint i = 0; conf->warnings && i < conf->warnings->len; i++)
		g_ptr_array_add(pc->warnings,
				g_strdup(g_ptr_array_index(conf->warnings, i)));

	_read_tres(pc, conf);
	_read_settings(pc, conf);
	_read_nodes(pc, conf);
	_read_parts(pc, conf);

	total = (uint64_t)pc->weight_age + pc->weight_assoc + pc->weight_fs +
		pc->weight_js + pc->weight_part + pc->weight_qos;
	if (total > 0xffffffffULL)
		_warn(pc, NULL, "the PriorityWeight* settings add up to %llu, "
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

const mf_conf_part_t *mf_prio_conf_find_part(const mf_prio_conf_t *pc,
					     const char *name)
{
	for (guint i = 0; i < pc->parts->len; i++) {
		const mf_conf_part_t *part = pc->parts->pdata[i];

		if (!strcmp(part->name, name))
			return part;
	}
	return NULL;
}

const mf_conf_part_t *mf_prio_conf_default_part(const mf_prio_conf_t *pc)
{
	const mf_conf_part_t *d = NULL;

	for (guint i = 0; i < pc->parts->len; i++) {
		const mf_conf_part_t *part = pc->parts->pdata[i];

		if (part->is_default)
			d = part;
	}
	return d;
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
