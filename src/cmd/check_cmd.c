/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio check: lint the priority settings against a snapshot.  Each
 * finding is printed with its numbers and a fix; the exit status is 0 when
 * nothing was found, 3 when something was (1 and 2 as for every command).
 *
 * Findings (each its own function below):
 *   overflow      the weights' sum is above 2^32-1: jobs with high
 *                 factors are clamped to the same priority
 *   fs-weight     PriorityWeightFairshare below the number of user
 *                 associations: the factor's steps are lost in rounding
 *   saturated     every pending job's age factor is 1 (all waited
 *                 PriorityMaxAge or more)
 *   constant      a weighted factor is the same for every pending job
 *   tres-unused   a PriorityWeightTRES entry for a TRES no pending job asks
 *   off           weights or settings the configuration turns off: every
 *                 weight under PriorityType other than priority/multifactor,
 *                 age and fair-share weights without slurmdbd
 *                 (AccountingStorageType), FairShareDampeningFactor under
 *                 Fair Tree
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cmd.h"
#include "cmd_error.h"
#include "input_opts.h"
#include "json_out.h"
#include "priority_flags.h"
#include "priority_json.h"
#include "priority_run.h"

#define MF_EXIT_FINDINGS 3

static const char _usage_head[] =
"Usage: mfprio check --snapshot DIR | --conf FILE --jobs FILE [--qos FILE]\n"
"                    [--assoc FILE [--usage FILE]] [--json] ...\n"
"\n"
"Lint the priority settings against the snapshot's jobs and associations:\n"
"each finding with its numbers and the fix.  Exit status: 0 nothing found,\n"
"3 findings, 1 bad input, 2 usage error.\n"
"\n";

/* --help: the command, its input options (input_opts.def), --json. */
static const mf_iopt_help_t _help = {
	.head = _usage_head,
	.mask = MF_IOPT_PRIORITY_INPUTS,
	.own = "  --json             the findings as one JSON object; see mfprio(1)\n",
};


typedef struct {
	const char *kind;        /* overflow, fs-weight, ... (static) */
	char *what;              /* the finding, with its numbers */
	char *fix;
} _finding_t;

/* What finding P holds (the array's clear function). */
static void _finding_clear(gpointer p)
{
	_finding_t *f = p;

	g_free(f->what);
	g_free(f->fix);
}

/* A finding of KIND (a static string): WHAT was found and its FIX, both
 * new strings it takes. */
static void _found(GArray *out, const char *kind, char *what, char *fix)
{
	_finding_t f = { .kind = kind, .what = what, .fix = fix };

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

/* The whole number of setting KEY in CONF, 0 if absent or not one. */
static unsigned long _conf_num(const mf_conf_t *conf, const char *key)
{
	const mf_conf_pair_t *p = mf_conf_get(conf, key);

	return p ? strtoul(p->value, NULL, 10) : 0;
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
		unsigned long wa = _conf_num(conf, "PriorityWeightAge");
		unsigned long wf = _conf_num(conf, "PriorityWeightFairshare");

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

static void _print_json(FILE *fp, const mf_prun_ctx_t *c,
			const mf_prun_opts_t *o, const GArray *found)
{
	mf_json_t j;

	mf_json_init(&j, fp);
	mf_json_begin_object(&j, NULL);
	mf_prun_json_settings(&j, "settings", c, o);
	mf_json_uint(&j, "pending_jobs", c->jobs->len);
	mf_json_begin_array(&j, "findings");
	for (guint i = 0; i < found->len; i++) {
		const _finding_t *f = &g_array_index(found, _finding_t, i);

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "kind", f->kind);
		mf_json_string(&j, "finding", f->what);
		mf_json_string(&j, "fix", f->fix);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}

/* Every finding of C under O, in a new array. */
static GArray *_findings(const mf_prun_ctx_t *c, const mf_prun_opts_t *o)
{
	GArray *found = g_array_new(FALSE, FALSE, sizeof(_finding_t));

	g_array_set_clear_func(found, _finding_clear);
	_overflow(c, found);
	_fs_weight(c, found);
	_factors(c, found);
	_tres_unused(c, found);
	_off(c, o, found);
	return found;
}

guint cmd_check_json(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
		     FILE *fp)
{
	GArray *found = _findings(c, o);
	guint n = found->len;

	_print_json(fp, c, o, found);
	g_array_unref(found);
	return n;
}

static int _check(mf_iopts_t *io, bool json)
{
	mf_prun_ctx_t c = { 0 };
	GArray *found;
	int rc = mf_iopt_run(io, &c);

	if (rc) {
		mf_prun_clear(&c);
		return rc;
	}
	found = _findings(&c, &io->o);
	if (json) {
		_print_json(stdout, &c, &io->o, found);
	} else {
		for (guint i = 0; i < found->len; i++) {
			const _finding_t *f = &g_array_index(found, _finding_t, i);

			printf("%s: %s.\n  fix: %s.\n", f->kind, f->what,
			       f->fix);
		}
		if (!found->len)
			printf("No finding: %u pending jobs, %u user "
			       "associations checked.\n", c.jobs->len,
			       c.tree ? c.tree->user_count : 0);
		else
			printf("%u finding%s.\n", found->len,
			       found->len > 1 ? "s" : "");
	}
	rc = found->len ? MF_EXIT_FINDINGS : MF_EXIT_OK;
	g_array_unref(found);
	mf_prun_clear(&c);
	return rc;
}

/* check's operands (none), then the check.  Returns an exit status. */
static int _check_run(mf_iopts_t *io, int n, char **ops, bool json)
{
	int rc;

	if (n) {
		mf_cmd_error("check: unexpected argument '%s'", ops[0]);
		return MF_EXIT_USAGE;
	}
	if ((rc = mf_iopt_finish(io, "check")))
		return rc;
	return _check(io, json);
}

int cmd_check(int argc, char **argv)
{
	return mf_iopt_main(argc, argv, &_help, _check_run);
}
