/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_conf (priority_conf.h): the Priority* settings with 22.05's
 * defaults, the cluster's nodes and partitions and their TRES totals, and
 * a warning naming FILE:LINE for every bad value.
 */
#include <string.h>

#include "priority_conf.h"
#include "priority_flags.h"
#include "suites.h"

static mf_prio_conf_t *_read(const char *text)
{
	mf_error_t e;
	mf_conf_t *conf = mf_conf_parse(text, "test.conf", &e);
	mf_prio_conf_t *pc;

	ck_assert_msg(conf, "mf_conf_parse: %s", e.text);
	pc = mf_prio_conf_read(conf, &e);
	ck_assert_msg(pc, "mf_prio_conf_read: %s", e.text);
	mf_conf_free(conf);
	return pc;
}

/* True if a warning contains every one of the NULL-ended strings. */
static bool _warned(const mf_prio_conf_t *pc, const char *a, const char *b)
{
	for (guint i = 0; i < pc->warnings->len; i++) {
		const char *w = pc->warnings->pdata[i];

		if (strstr(w, a) && (!b || strstr(w, b)))
			return true;
	}
	return false;
}

static const char _slurmdbd[] =
	"AccountingStorageType=accounting_storage/slurmdbd\n"
	"PriorityType=priority/multifactor\n";

START_TEST(test_defaults)
{
	mf_prio_conf_t *pc = _read(_slurmdbd);

	ck_assert_uint_eq(pc->weight_age, 0);
	ck_assert_uint_eq(pc->weight_fs, 0);
	ck_assert_uint_eq(pc->weight_qos, 0);
	ck_assert_ptr_null(pc->weight_tres);
	ck_assert_uint_eq(pc->max_age, 604800);          /* 7-0 */
	ck_assert_uint_eq(pc->decay_half_life, 604800);  /* 7-0 */
	ck_assert_uint_eq(pc->calc_period, 300);         /* 5 min */
	ck_assert_int_eq(pc->reset_period, MF_RESET_NONE);
	ck_assert(!pc->favor_small);
	ck_assert_uint_eq(pc->flags, 0);
	ck_assert_uint_eq(pc->fs_damp, 1);
	ck_assert_uint_eq(pc->part_max_priority, 1);
	ck_assert_uint_eq(pc->warnings->len, 0);
	mf_prio_conf_free(pc);
	mf_prio_conf_free(NULL);
}
END_TEST

START_TEST(test_values)
{
	mf_prio_conf_t *pc = _read(
		"AccountingStorageType=accounting_storage/slurmdbd\n"
		"PriorityType=priority/multifactor\n"
		"AccountingStorageTRES=gres/gpu,license/matlab\n"
		"Licenses=matlab:5\n"
		"PriorityWeightAge=1000\n"
		"PriorityWeightAssoc=0x10\n"                 /* 16 */
		"PriorityWeightFairshare=10k\n"              /* 10240 */
		"PriorityWeightJobSize=UNLIMITED\n"          /* 2^32-1 */
		"PriorityWeightPartition=2000\n"
		"PriorityWeightQOS=3000\n"
		"PriorityWeightTRES=CPU=500,Mem=100G,GRES/gpu=4000\n"
		"PriorityMaxAge=14-0\n"                      /* 1209600 s */
		"PriorityDecayHalfLife=1:30\n"               /* 1.5 min -> 2 */
		"PriorityCalcPeriod=1\n"
		"PriorityUsageResetPeriod=WEEKLY\n"
		"PriorityFavorSmall=YES\n"
		"PriorityFlags=MAX_TRES,NO_NORMAL_QOS\n"
		"FairShareDampeningFactor=3\n"
		"NodeName=DEFAULT RealMemory=1000\n"
		"NodeName=n[1-4] CPUs=8 Gres=gpu:2\n"
		"NodeName=m1 Sockets=2 CoresPerSocket=4 ThreadsPerCore=2 "
		"RealMemory=64000\n"
		"PartitionName=DEFAULT MaxTime=1-0\n"
		"PartitionName=DEFAULT PriorityTier=1\n"  /* adds, keeps MaxTime */
		"PartitionName=debug Nodes=n[1-2] Default=YES "
		"PriorityJobFactor=10\n"
		"PartitionName=big Nodes=ALL Priority=30 "
		"TRESBillingWeights=CPU=1.0,Mem=0.25G MaxTime=UNLIMITED\n");
	const mf_conf_part_t *debug, *big;

	/* the one warning: 1000 + 16 + 10240 + (2^32-1) + 2000 + 3000 =
	 * 4294983551 is more than 32 bits */
	ck_assert_msg(pc->warnings->len == 1 &&
		      _warned(pc, "add up to 4294983551", NULL),
		      "unexpected warning: %s",
		      pc->warnings->len ? (char *)pc->warnings->pdata[0] : "");
	ck_assert_uint_eq(pc->weight_age, 1000);
	ck_assert_uint_eq(pc->weight_assoc, 16);
	ck_assert_uint_eq(pc->weight_fs, 10240);
	ck_assert_uint_eq(pc->weight_js, 4294967295U);
	ck_assert_uint_eq(pc->weight_part, 2000);
	ck_assert_uint_eq(pc->weight_qos, 3000);
	ck_assert_uint_eq(pc->max_age, 1209600);
	ck_assert_uint_eq(pc->decay_half_life, 120);     /* 2 min * 60 */
	ck_assert_uint_eq(pc->calc_period, 60);
	ck_assert_int_eq(pc->reset_period, MF_RESET_WEEKLY);
	ck_assert(pc->favor_small);
	ck_assert_uint_eq(pc->flags, MF_FLAG_MAX_TRES | MF_FLAG_NO_NORMAL_QOS);
	ck_assert_uint_eq(pc->fs_damp, 3);
	/* TRES: the eight fixed ones, then gres/gpu and license/matlab */
	ck_assert_uint_eq(pc->tres->cnt, 10);
	ck_assert_double_eq(pc->weight_tres[MF_TRES_CPU], 500.0);
	ck_assert_double_eq_tol(pc->weight_tres[MF_TRES_MEM], 100.0 / 1024,
				1e-15);
	ck_assert_double_eq(pc->weight_tres[8], 4000.0);
	/* nodes: n1..n4 8 CPUs, 1000 MB, 2 GPUs; m1 2*4*2 = 16 CPUs */
	ck_assert_uint_eq(pc->node_count, 5);
	ck_assert_uint_eq(pc->cluster_cpus, 4 * 8 + 16);
	ck_assert_uint_eq(pc->cluster_tres[9], 5);          /* licenses */
	/* partitions */
	debug = mf_prio_conf_find_part(pc, "debug");
	big = mf_prio_conf_find_part(pc, "big");
	ck_assert_ptr_nonnull(debug);
	ck_assert_ptr_nonnull(big);
	ck_assert_ptr_null(mf_prio_conf_find_part(pc, "DEBUG"));
	ck_assert_ptr_eq(mf_prio_conf_default_part(pc), debug);
	ck_assert_uint_eq(debug->part.priority_job_factor, 10);
	ck_assert_uint_eq(debug->part.priority_tier, 1);
	ck_assert_uint_eq(debug->part.max_time, 1440);      /* DEFAULT 1-0 */
	ck_assert_uint_eq(big->part.priority_job_factor, 30); /* Priority= */
	ck_assert_uint_eq(big->part.priority_tier, 30);
	ck_assert_uint_eq(big->part.max_time, MF_INFINITE);
	ck_assert_uint_eq(pc->part_max_priority, 30);
	/* debug: 2 nodes, 16 CPUs, 2000 MB, 4 GPUs; billing = CPUs */
	ck_assert_uint_eq(debug->tres_cnt[MF_TRES_CPU], 16);
	ck_assert_uint_eq(debug->tres_cnt[MF_TRES_MEM], 2000);
	ck_assert_uint_eq(debug->tres_cnt[MF_TRES_NODE], 2);
	ck_assert_uint_eq(debug->tres_cnt[8], 4);
	ck_assert_uint_eq(debug->tres_cnt[9], 5);      /* global license */
	ck_assert_uint_eq(debug->tres_cnt[MF_TRES_BILLING], 16);
	/* big: 48 CPUs, 4*1000 + 64000 = 68000 MB; billing with MAX_TRES:
	 * MAX(48 * 1.0, 68000 MB * .25/1024) = MAX(48, 16.6) = 48 */
	ck_assert_uint_eq(big->tres_cnt[MF_TRES_CPU], 48);
	ck_assert_uint_eq(big->tres_cnt[MF_TRES_MEM], 68000);
	ck_assert_uint_eq(big->tres_cnt[MF_TRES_NODE], 5);
	ck_assert_uint_eq(big->tres_cnt[MF_TRES_BILLING], 48);
	ck_assert_ptr_nonnull(big->part.billing_weights);
	{
		mf_prio_config_t cfg;

		mf_prio_conf_to_config(pc, &cfg);
		ck_assert_uint_eq(cfg.weight_fs, 10240);
		ck_assert_uint_eq(cfg.node_count, 5);
		ck_assert_uint_eq(cfg.cluster_cpus, 48);
		ck_assert_uint_eq(cfg.part_max_priority, 30);
		ck_assert_ptr_eq(cfg.weight_tres, pc->weight_tres);
		ck_assert_uint_eq(cfg.qos_max_priority, 0);
	}
	mf_prio_conf_free(pc);
}
END_TEST

START_TEST(test_unlimited_age)
{
	mf_prio_conf_t *pc = _read("AccountingStorageType="
				   "accounting_storage/slurmdbd\n"
				   "PriorityType=priority/multifactor\n"
				   "PriorityMaxAge=UNLIMITED\n"
				   "PriorityDecayHalfLife=0\n"
				   "PriorityUsageResetPeriod=DAILY\n");

	/* 0xffffffff minutes * 60 in 32 bits = 4294967236, as slurmctld */
	ck_assert_uint_eq(pc->max_age, 4294967236U);
	ck_assert_uint_eq(pc->decay_half_life, 0);
	ck_assert_uint_eq(pc->warnings->len, 0);
	mf_prio_conf_free(pc);
}
END_TEST

/* A bad value: the key, the line and the fall-back are named. */
typedef struct {
	const char *line;        /* the line 3 of the file */
	const char *warning;     /* must appear with "test.conf:3:" */
} bad_case_t;

static const bad_case_t bad_cases[] = {
	{ "PriorityWeightAge=lots", "PriorityWeightAge=lots" },
	{ "PriorityWeightQOS=-5", "less than zero" },
	{ "PriorityWeightFairshare=4294967296", "greater than 4294967295" },
	{ "PriorityMaxAge=7days", "'7days' is not a time" },
	{ "PriorityDecayHalfLife=1.5", "'1.5' is not a time" },
	{ "PriorityCalcPeriod=0", "at least 1 minute" },
	{ "PriorityCalcPeriod=UNLIMITED", "at least 1 minute" },
	{ "PriorityUsageResetPeriod=HOURLY", "using NONE" },
	{ "PriorityFavorSmall=maybe", "using NO" },
	{ "PriorityFlags=MAX_TRES,FAST", "FAST" },
	{ "FairShareDampeningFactor=0", "using 1" },
	{ "FairShareDampeningFactor=70000", "greater than 65535" },
	{ "PriorityWeightTRES=CPU=1,GRES/tpu=2", "no TRES weights used" },
	{ "PriorityWeightTRES=CPU=abc", "'abc' is not a number" },
	{ "NodeName=n[1-2 CPUs=4", "unbalanced" },
	{ "NodeName=n1 CPUs=four", "'four' is not a number" },
	{ "PartitionName=p Nodes=nx", "'nx' is not defined" },
	{ "PartitionName=p PriorityJobFactor=70000", "greater than 65535" },
	{ "PartitionName=p MaxTime=soon", "using UNLIMITED" },
	{ "PartitionName=p TRESBillingWeights=CPU=x", "billing by CPUs" },
};

START_TEST(test_bad)
{
	const bad_case_t *c = &bad_cases[_i];
	char *text = g_strdup_printf("%s%s\n", _slurmdbd, c->line);
	mf_prio_conf_t *pc = _read(text);

	ck_assert_msg(_warned(pc, "test.conf:3:", c->warning),
		      "\"%s\": expected a warning at test.conf:3 with \"%s\"; "
		      "got %u warning(s)%s%s", c->line, c->warning,
		      pc->warnings->len, pc->warnings->len ? ", first: " : "",
		      pc->warnings->len ? (char *)pc->warnings->pdata[0] : "");
	g_free(text);
	mf_prio_conf_free(pc);
}
END_TEST

START_TEST(test_fallbacks)
{
	mf_prio_conf_t *pc = _read(
		"AccountingStorageType=accounting_storage/slurmdbd\n"
		"PriorityType=priority/multifactor\n"
		"PriorityWeightAge=lots\n"
		"PriorityMaxAge=7days\n"
		"PriorityCalcPeriod=0\n"
		"PriorityWeightTRES=CPU=1,GRES/tpu=2\n");

	ck_assert_uint_eq(pc->weight_age, 0);
	ck_assert_uint_eq(pc->max_age, 604800);
	ck_assert_uint_eq(pc->calc_period, 300);
	ck_assert_ptr_null(pc->weight_tres);       /* all or nothing */
	ck_assert_uint_eq(pc->warnings->len, 4);
	mf_prio_conf_free(pc);
}
END_TEST

/*
 * The decay settings of tests/cli/conf-garbage.sh, whose fall-backs no
 * output of `mfprio priority` shows (they act on a live controller's
 * decay only): each bad value gives the default.
 */
typedef struct {
	const char *line;
	uint32_t half_life, calc_period;
	mf_reset_period_t reset;
} decay_case_t;

static const decay_case_t decay_cases[] = {
	{ "PriorityDecayHalfLife=abc", 604800, 300, MF_RESET_NONE },
	{ "PriorityDecayHalfLife=", 604800, 300, MF_RESET_NONE },
	{ "PriorityCalcPeriod=0", 604800, 300, MF_RESET_NONE },
	{ "PriorityCalcPeriod=-3", 604800, 300, MF_RESET_NONE },
	{ "PriorityCalcPeriod=zz", 604800, 300, MF_RESET_NONE },
	{ "PriorityCalcPeriod=99999999999", 604800, 300, MF_RESET_NONE },
	{ "PriorityCalcPeriod=2", 604800, 120, MF_RESET_NONE },
	{ "PriorityUsageResetPeriod=FORTNIGHTLY", 604800, 300, MF_RESET_NONE },
	{ "PriorityUsageResetPeriod=", 604800, 300, MF_RESET_NONE },
	{ "PriorityUsageResetPeriod=WEEKLY", 604800, 300, MF_RESET_WEEKLY },
};

START_TEST(test_decay_fallbacks)
{
	const decay_case_t *c = &decay_cases[_i];
	char *text = g_strdup_printf("%s%s\n", _slurmdbd, c->line);
	mf_prio_conf_t *pc = _read(text);

	ck_assert_msg(pc->decay_half_life == c->half_life &&
		      pc->calc_period == c->calc_period &&
		      pc->reset_period == c->reset, "\"%s\": half-life %u, "
		      "calc period %u, reset %d; wanted %u, %u, %d", c->line,
		      pc->decay_half_life, pc->calc_period,
		      (int)pc->reset_period, c->half_life, c->calc_period,
		      (int)c->reset);
	g_free(text);
	mf_prio_conf_free(pc);
}
END_TEST

START_TEST(test_no_slurmdbd)
{
	mf_prio_conf_t *pc = _read("PriorityType=priority/multifactor\n"
				   "AccountingStorageType="
				   "accounting_storage/none\n"
				   "PriorityWeightAge=100\n"
				   "PriorityWeightFairshare=100\n"
				   "PriorityWeightQOS=100\n");

	/* as slurmctld: age and fair-share need slurmdbd */
	ck_assert_uint_eq(pc->weight_age, 0);
	ck_assert_uint_eq(pc->weight_fs, 0);
	ck_assert_uint_eq(pc->weight_qos, 100);
	ck_assert(_warned(pc, "test.conf:2:", "need slurmdbd"));
	mf_prio_conf_free(pc);

	pc = _read("PriorityWeightQOS=100\n");
	ck_assert(_warned(pc, "PriorityType is not set", NULL));
	mf_prio_conf_free(pc);
	ck_assert_ptr_null(mf_prio_conf_read(NULL, NULL));
}
END_TEST

START_TEST(test_overflow_warning)
{
	mf_prio_conf_t *pc = _read(
		"AccountingStorageType=accounting_storage/slurmdbd\n"
		"PriorityType=priority/multifactor\n"
		"PriorityWeightAge=4000000000\n"
		"PriorityWeightQOS=4000000000\n");

	ck_assert(_warned(pc, "8000000000", "clamped"));
	mf_prio_conf_free(pc);
}
END_TEST

Suite *make_priority_conf_suite(void)
{
	Suite *s = suite_create("priority_conf");
	TCase *tc = tcase_create("settings");

	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_unlimited_age);
	tcase_add_loop_test(tc, test_bad, 0, G_N_ELEMENTS(bad_cases));
	tcase_add_test(tc, test_fallbacks);
	tcase_add_loop_test(tc, test_decay_fallbacks, 0,
			    G_N_ELEMENTS(decay_cases));
	tcase_add_test(tc, test_no_slurmdbd);
	tcase_add_test(tc, test_overflow_warning);
	suite_add_tcase(s, tc);
	return s;
}
