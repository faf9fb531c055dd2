/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cluster_conf: the nodes and partitions of a slurm.conf
 * (cluster_conf.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "billing.h"
#include "cluster_conf.h"
#include "conf_values.h"
#include "hostlist.h"
#include "timestr.h"

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

void mf_pconf_node_free(gpointer x)
{
	mf_conf_node_t *n = x;

	g_free(n->name);
	g_free(n->tres_cnt);
	g_free(n);
}

void mf_pconf_part_free(gpointer x)
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
	if (mf_pconf_u32(p->value, &v, &why)) {
		mf_pconf_warn(pc, p, "'%s' %s; using %u", p->value, why, dflt);
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
				mf_pconf_warn(pc, p, "gres count '%s' is not a number; "
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

void mf_pconf_read_nodes(mf_prio_conf_t *pc, const mf_conf_t *conf)
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
			mf_pconf_warn(pc, np, "%s; line ignored", e.text);
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
		mf_pconf_warn(pc, p, "%s; the partition has no nodes", e.text);
		return;
	}
	have = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (guint i = 0; i < names->len; i++) {
		mf_conf_node_t *n = g_hash_table_lookup(by_name,
							names->pdata[i]);

		if (!n) {
			mf_pconf_warn(pc, p, "node '%s' is not defined by a NodeName "
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

void mf_pconf_read_parts(mf_prio_conf_t *pc, const mf_conf_t *conf)
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
			mf_pconf_warn(pc, np, "partition defined twice; the later "
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

			if (mf_pconf_u16(p->value, &v, &why))
				mf_pconf_warn(pc, p, "'%s' %s; using %u", p->value,
				      why, part->part.priority_job_factor);
			else
				part->part.priority_job_factor = v;
		}
		if ((p = _rec_get(rec, dflt, "PriorityTier"))) {
			uint16_t v;

			if (mf_pconf_u16(p->value, &v, &why))
				mf_pconf_warn(pc, p, "'%s' %s; using %u", p->value,
				      why, part->part.priority_tier);
			else
				part->part.priority_tier = v;
		}
		/* Priority= sets both, over PriorityJobFactor and
		 * PriorityTier, as Slurm reads it */
		if ((p = _rec_get(rec, dflt, "Priority"))) {
			uint16_t v;

			if (mf_pconf_u16(p->value, &v, &why))
				mf_pconf_warn(pc, p, "'%s' %s; ignored", p->value, why);
			else
				part->part.priority_job_factor =
					part->part.priority_tier = v;
		}
		if ((p = _rec_get(rec, dflt, "MaxTime"))) {
			mf_error_t e;
			uint32_t mins;

			if (mf_timestr_mins(p->value, &mins, &e))
				mf_pconf_warn(pc, p, "%s; using UNLIMITED", e.text);
			else
				part->part.max_time = mins;
		}
		if ((p = _rec_get(rec, dflt, "Default"))) {
			if (mf_pconf_bool(p->value, &b))
				mf_pconf_warn(pc, p, "not YES or NO; using NO");
			else
				part->is_default = b;
		}
		if ((p = _rec_get(rec, dflt, "TRESBillingWeights"))) {
			mf_error_t e;

			part->billing_weights_str = g_strdup(p->value);
			part->billing_weights = g_new0(double, pc->tres->cnt);
			if (mf_tres_weights_parse(pc->tres, p->value,
						  part->billing_weights, &e)) {
				mf_pconf_warn(pc, p, "%s; billing by CPUs", e.text);
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
