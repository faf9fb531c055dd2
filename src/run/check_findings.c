/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_findings.h"
#include "priority_flags.h"

/* What finding P holds (the array's clear function). */
static void _finding_clear(gpointer p)
{
	mf_finding_t *f = p;

	g_free(f->what);
	g_free(f->fix);
}

/* A finding of KIND (a static string): WHAT was found and its FIX, both
 * new strings it takes. */
static void _found(GArray *out, const char *kind, char *what, char *fix)
{
	mf_finding_t f = { .kind = kind, .what = what, .fix = fix };

	g_array_append_val(out, f);
}

static void _overflow(const mf_prun_ctx_t *c, GArray *out)
{
	const mf_prio_config_t *k = &c->cfg;
	double sum = (double) k->weight_age + k->weight_assoc + k->weight_fs +
		k->weight_js + k->weight_part + k->weight_qos;
	double tres = 0;

	for (uint32_t i = 0; k->weight_tres && k->tres && i < k->tres->cnt;
	     i++)
		tres += k->weight_tres[i];
	sum += tres;
	if (sum <= (double) MF_PRIORITY_MAX)
		return;
	_found(out, "overflow", g_strdup_printf(
		"the weights add up to %.0f (Age %u + Assoc %u + Fairshare %u "
		"+ JobSize %u + Partition %u + QOS %u + TRES %.0f), above "
		"4294967295, the largest priority: a job whose factors are "
		"near 1 is clamped to 4294967295, and such jobs tie",
		sum, k->weight_age, k->weight_assoc, k->weight_fs,
		k->weight_js, k->weight_part, k->weight_qos, tres),
		g_strdup_printf("divide every weight by %.0f or more (their "
				"ratios are what matters)",
				ceil(sum / (double) MF_PRIORITY_MAX)));
}

static void _fs_weight(const mf_prun_ctx_t *c, GArray *out)
{
	uint32_t n;

	if (!c->tree || !c->cfg.weight_fs)
		return;
	n = c->tree->user_count;
	if (c->cfg.weight_fs >= n)
		return;
	_found(out, "fs-weight", g_strdup_printf(
		"PriorityWeightFairshare is %u but there are %u user "
		"associations: fair-share factors that differ by less than "
		"1/%u give the same priority, so users cannot be told apart",
		c->cfg.weight_fs, n, c->cfg.weight_fs),
		g_strdup_printf("PriorityWeightFairshare=%u at least (one to "
				"two times the user associations: %u to %u)",
				n, n, 2 * n));
}

/* Factor F of every row; true if all equal (*v: the value). */
static bool _same(const mf_prun_ctx_t *c, size_t off, double *v)
{
	for (guint i = 0; i < c->rows->len; i++) {
		const mf_prun_row_t *r = c->rows->pdata[i];
		double x = *(const double *) ((const char *) &r->r + off);

		if (r->r.direct)
			continue;
		if (isnan(*v))
			*v = x;
		else if (x != *v)
			return false;
	}
	return !isnan(*v);
}

static char *_duration(uint32_t s)
{
	return g_strdup_printf("%u-%02u:%02u:%02u", s / 86400, s / 3600 % 24,
			       s / 60 % 60, s % 60);
}

static void _factors(const mf_prun_ctx_t *c, GArray *out)
{
	static const struct {
		const char *name, *key;
		size_t off;
	} f[] = {
		{ "age", "PriorityWeightAge", offsetof(mf_prio_result_t, age) },
		{ "association", "PriorityWeightAssoc",
		  offsetof(mf_prio_result_t, assoc) },
		{ "fair-share", "PriorityWeightFairshare",
		  offsetof(mf_prio_result_t, fs) },
		{ "job size", "PriorityWeightJobSize",
		  offsetof(mf_prio_result_t, js) },
		{ "partition", "PriorityWeightPartition",
		  offsetof(mf_prio_result_t, part) },
		{ "QOS", "PriorityWeightQOS", offsetof(mf_prio_result_t, qos) },
	};
	const uint32_t w[] = {
		c->cfg.weight_age, c->cfg.weight_assoc, c->cfg.weight_fs,
		c->cfg.weight_js, c->cfg.weight_part, c->cfg.weight_qos,
	};
	guint njobs = c->jobs->len;

	for (size_t i = 0; i < G_N_ELEMENTS(f); i++) {
		double v = NAN;

		if (!w[i] || !_same(c, f[i].off, &v))
			continue;
		if (i == 0 && v >= 1.0) {
			char *d = _duration(c->cfg.max_age);

			_found(out, "saturated", g_strdup_printf(
				"every one of the %u pending jobs has waited "
				"PriorityMaxAge (%s) or more: all have age "
				"factor 1 and PriorityWeightAge=%u adds the "
				"same %u to each", njobs, d, w[i], w[i]),
				g_strdup("raise PriorityMaxAge above the "
					 "longest wait that should still count "
					 "(or set PriorityWeightAge=0)"));
			g_free(d);
			continue;
		}
		if (njobs < 2)
			continue;
		_found(out, "constant", g_strdup_printf(
			"every one of the %u pending jobs has %s factor %g: "
			"%s=%u adds the same %.1f to each and decides nothing",
			njobs, f[i].name, v, f[i].key, w[i], v * w[i]),
			g_strdup_printf("set %s=0, or give the jobs a reason "
					"to differ in it", f[i].key));
	}
}

static void _tres_unused(const mf_prun_ctx_t *c, GArray *out)
{
	const mf_prio_config_t *k = &c->cfg;

	if (!k->weight_tres || !k->tres)
		return;
	for (uint32_t t = 0; t < k->tres->cnt; t++) {
		bool asked = false;

		if (k->weight_tres[t] <= 0)
			continue;
		for (guint i = 0; i < c->jobs->len && !asked; i++) {
			const mf_prun_job_t *j = c->jobs->pdata[i];

			asked = j->tres_cnt && j->tres_cnt[t] > 0;
		}
		if (asked)
			continue;
		_found(out, "tres-unused", g_strdup_printf(
			"PriorityWeightTRES weighs %s at %g but none of the %u "
			"pending jobs asks for it: the weight adds nothing",
			k->tres->names[t], k->weight_tres[t], c->jobs->len),
			g_strdup_printf("drop %s from PriorityWeightTRES (or "
					"check its name against the jobs' "
					"TRES)", k->tres->names[t]));
	}
}

static void _off(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		 GArray *out)
{
	const mf_prio_config_t *k = &c->cfg;
	const char *type = c->pc->priority_type;
	mf_error_t e;
	mf_conf_t *conf = mf_conf_load(o->conf, &e);

	/* with the --set and --flags settings, as the loader took them */
	for (guint i = 0; conf && o->sets && i < o->sets->len; i++) {
		const mf_conf_pair_t *p = o->sets->pdata[i];

		mf_conf_set(conf, p->key, p->value, p->file, p->line);
	}

	/* the loader zeroes these two without slurmdbd: the file's own
	 * values say whether the administrator meant them */
	if (conf) {
		const mf_conf_pair_t *p = mf_conf_get(conf,
						      "AccountingStorageType");
		/* the file's two weights through the one reader of the
		 * Priority* settings, key by key: its whole read zeroes them
		 * without slurmdbd */
		static const char *const keys[] = {
			"PriorityWeightAge", "PriorityWeightFairshare" };
		mf_prio_conf_t *fpc = mf_prio_conf_defaults();
		unsigned long wa, wf;

		for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
			const mf_conf_pair_t *w = mf_conf_get(conf, keys[i]);

			if (w)
				(void) mf_prio_conf_take(fpc, w);
		}
		wa = fpc->weight_age;
		wf = fpc->weight_fs;

		if ((!p || strcmp(p->value, "accounting_storage/slurmdbd")) &&
		    (wa || wf))
			_found(out, "off", g_strdup_printf(
				"AccountingStorageType is %s: slurmctld takes "
				"PriorityWeightAge (%lu) and "
				"PriorityWeightFairshare (%lu) as 0 without "
				"slurmdbd", p ? p->value : "not set", wa, wf),
				g_strdup("AccountingStorageType=accounting_"
					 "storage/slurmdbd, or drop the two "
					 "weights"));
		mf_prio_conf_free(fpc);
		mf_conf_free(conf);
	}

	if (type && strcmp(type, "priority/multifactor") &&
	    (k->weight_age || k->weight_assoc || k->weight_fs ||
	     k->weight_js || k->weight_part || k->weight_qos ||
	     k->weight_tres))
		_found(out, "off", g_strdup_printf(
			"PriorityType is %s: slurmctld ignores every "
			"PriorityWeight* setting (the figures here are what "
			"priority/multifactor would give)", type),
			g_strdup("PriorityType=priority/multifactor, or drop "
				 "the weights"));
	if (c->fs_cfg.algo == MF_FS_FAIR_TREE && c->pc->fs_damp > 1)
		_found(out, "off", g_strdup_printf(
			"FairShareDampeningFactor is %u but Fair Tree (no "
			"NO_FAIR_TREE or DEPTH_OBLIVIOUS in PriorityFlags) "
			"has no dampening: the setting does nothing",
			c->pc->fs_damp),
			g_strdup("drop FairShareDampeningFactor, or add "
				 "NO_FAIR_TREE to PriorityFlags if the "
				 "classic algorithm was meant"));
}

GArray *mf_check_findings(const mf_prun_ctx_t *c, const mf_prun_opts_t *o)
{
	GArray *found = g_array_new(FALSE, FALSE, sizeof(mf_finding_t));

	g_array_set_clear_func(found, _finding_clear);
	_overflow(c, found);
	_fs_weight(c, found);
	_factors(c, found);
	_tres_unused(c, found);
	_off(c, o, found);
	return found;
}
