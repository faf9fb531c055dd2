/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority (priority.h): the weighted sum of the factors into a 32-bit
 * priority, its limits (all 0.0, all 1.0, weights near 2^32, NaN, nice),
 * every flag through the whole computation, held and admin-set jobs,
 * multi-partition jobs and INCR_ONLY.
 *
 * The cluster: 10 nodes, 100 CPUs; partitions "low" (PriorityJobFactor
 * 10, tier 1) and "high" (20, tier 2); highest QOS priority 1000, highest
 * association priority 50; TRES weights CPU=2000 only.
 */
#include <math.h>
#include <string.h>

#include "priority.h"
#include "priority_flags.h"
#include "suites.h"

#define NOW 1700000000
#define DAY 86400

static mf_tres_set_t *set;
static double tres_w[MF_TRES_FIXED_CNT];
static uint64_t low_tres[MF_TRES_FIXED_CNT], high_tres[MF_TRES_FIXED_CNT];
static uint64_t job_tres[MF_TRES_FIXED_CNT];
static mf_part_t low, high;

static void _setup(void)
{
	set = mf_tres_set_create();
	memset(tres_w, 0, sizeof(tres_w));
	tres_w[MF_TRES_CPU] = 2000;
	memset(low_tres, 0, sizeof(low_tres));
	memset(high_tres, 0, sizeof(high_tres));
	memset(job_tres, 0, sizeof(job_tres));
	low_tres[MF_TRES_CPU] = 100;    /* all 10 nodes */
	high_tres[MF_TRES_CPU] = 40;    /* 4 of them */
	job_tres[MF_TRES_CPU] = 10;
	low = (mf_part_t){ .name = "low", .priority_job_factor = 10,
			   .priority_tier = 1, .max_time = MF_INFINITE,
			   .tres_cnt = low_tres };
	high = (mf_part_t){ .name = "high", .priority_job_factor = 20,
			    .priority_tier = 2, .max_time = 60,
			    .tres_cnt = high_tres };
}

static void _teardown(void)
{
	mf_tres_set_free(set);
}

/* Weights 1000 each (TRES none), the cluster above. */
static mf_prio_config_t _cfg(void)
{
	return (mf_prio_config_t){
		.weight_age = 1000, .weight_assoc = 1000, .weight_fs = 1000,
		.weight_js = 1000, .weight_part = 1000, .weight_qos = 1000,
		.tres = set, .weight_tres = NULL, .max_age = 10 * DAY,
		.cluster_cpus = 100, .node_count = 10,
		.part_max_priority = 20, .qos_max_priority = 1000,
		.assoc_max_priority = 50,
	};
}

/* A job with every factor at a round value in partition "low":
 *   age   5 of 10 days       .5
 *   assoc 25 of 50           .5
 *   fs                       .25
 *   size  (5/10 + 50/100)/2  .5
 *   part  10 of 20           .5
 *   qos   100 of 1000        .1 */
static mf_prio_job_t _job(void)
{
	return (mf_prio_job_t){
		.job_id = 7, .priority = 1, .submit_time = NOW - 6 * DAY,
		.begin_time = NOW - 5 * DAY, .accrue_time = NOW - 5 * DAY,
		.min_nodes = 5, .cpu_cnt = 50, .time_limit = MF_NO_VAL,
		.part = &low, .has_qos = true, .qos_priority = 100,
		.has_assoc = true, .assoc_priority = 25, .fs_factor = 0.25,
		.tres_cnt = job_tres,
	};
}

static uint32_t _prio(const mf_prio_config_t *cfg, const mf_prio_job_t *job,
		      mf_prio_result_t *r)
{
	mf_prio_result_init(r, set->cnt);
	return mf_priority_compute(cfg, job, NOW, r);
}

START_TEST(test_round_values)
{
	mf_prio_config_t cfg = _cfg();
	mf_prio_job_t job = _job();
	mf_prio_result_t r;

	/* 500 + 500 + 250 + 500 + 500 + 100 = 2350 */
	ck_assert_uint_eq(_prio(&cfg, &job, &r), 2350);
	ck_assert_double_eq_tol(r.age, 0.5, 1e-15);
	ck_assert_double_eq_tol(r.assoc, 0.5, 1e-15);
	ck_assert_double_eq_tol(r.fs, 0.25, 1e-15);
	ck_assert_double_eq_tol(r.js, 0.5, 1e-15);
	ck_assert_double_eq_tol(r.part, 0.5, 1e-15);
	ck_assert_double_eq_tol(r.qos, 0.1, 1e-15);
	ck_assert_double_eq_tol(r.w_qos, 100.0, 1e-12);
	ck_assert(!r.clamped && !r.direct);
	ck_assert_ptr_eq(r.partition, &low);

	/* with TRES: 10 of low's 100 CPUs * 2000 = 200 more: 2550 */
	cfg.weight_tres = tres_w;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 2550);
	ck_assert_double_eq_tol(r.tres[MF_TRES_CPU], 0.1, 1e-15);
	ck_assert_double_eq_tol(r.w_tres[MF_TRES_CPU], 200.0, 1e-12);
	ck_assert_double_eq_tol(r.w_tres_sum, 200.0, 1e-12);

	/* site 30 and nice 80: 2550 + 30 - 80 = 2500 */
	job.site_factor = 30;
	job.nice = 80;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 2500);
	/* negative nice raises it: 2550 + 30 + 10000 = 12580 */
	job.nice = -10000;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 12580);
	mf_prio_result_clear(&r);
}
END_TEST

START_TEST(test_limits)
{
	mf_prio_config_t cfg = _cfg();
	mf_prio_job_t job = _job();
	mf_prio_result_t r;

	/* every factor 0.0: the sum is 0, and a job not held gets 1 */
	job.accrue_time = 0;
	job.assoc_priority = 0;
	job.fs_factor = 0.0;
	job.min_nodes = 0;
	job.cpu_cnt = 0;
	job.part = NULL;
	job.qos_priority = 0;
	ck_assert_uint_eq(_prio(&cfg, &job, &r), 1);
	ck_assert_double_eq(r.sum, 0.0);

	/* every factor 1.0 with weights 1000: 6000 */
	job = _job();
	job.accrue_time = NOW - 20 * DAY;     /* past MaxAge */
	job.assoc_priority = 50;
	job.fs_factor = 1.0;
	job.min_nodes = 10;
	job.cpu_cnt = 100;
	job.part = &high;
	job.qos_priority = 1000;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 6000);

	/* every factor 1.0, every weight 2^32-1: 6 * 4294967295 clamps */
	cfg.weight_age = cfg.weight_assoc = cfg.weight_fs = 0xffffffffU;
	cfg.weight_js = cfg.weight_part = cfg.weight_qos = 0xffffffffU;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r),
			  MF_PRIORITY_MAX);
	ck_assert(r.clamped);
	ck_assert_double_eq_tol(r.sum, 6.0 * 4294967295.0, 1.0);

	/* one weight 2^32-1 at 1.0: exactly the top, not clamped */
	cfg = _cfg();
	cfg.weight_age = 0xffffffffU;
	cfg.weight_assoc = cfg.weight_fs = cfg.weight_js = 0;
	cfg.weight_part = cfg.weight_qos = 0;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r),
			  4294967295U);
	ck_assert(!r.clamped);
	/* ... plus 1 from the site factor: clamped */
	job.site_factor = 1;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r),
			  MF_PRIORITY_MAX);
	ck_assert(r.clamped);
	/* ... and at half age: 4294967295 * .5 = 2147483647.5, truncated */
	job.site_factor = 0;
	job.accrue_time = NOW - 5 * DAY;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r),
			  2147483647U);

	/* a huge nice drives the sum below zero: 1, never a wrap */
	cfg = _cfg();
	job = _job();
	job.nice = 2147483647;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 1);
	/* a huge negative nice (and site): clamped, never a wrap */
	job.nice = -2147483647;
	job.site_factor = 4294967295LL;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r),
			  MF_PRIORITY_MAX);
	ck_assert(r.clamped);

	/* NaN fair-share counts as 0: 2350 - 250 = 2100 */
	job = _job();
	job.fs_factor = NAN;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 2100);
	ck_assert(!isnan(r.sum));

	/* infinite TRES weights of both signs: no NaN, 2350 */
	{
		double w[MF_TRES_FIXED_CNT] = { 0 };

		w[MF_TRES_CPU] = INFINITY;
		w[MF_TRES_MEM] = -INFINITY;
		job_tres[MF_TRES_MEM] = 10;
		low_tres[MF_TRES_MEM] = 100;
		cfg.weight_tres = w;
		job.fs_factor = 0.25;
		ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r),
				  2350);
		ck_assert(!isnan(r.sum));
		cfg.weight_tres = NULL;
	}
	mf_prio_result_clear(&r);
}
END_TEST

START_TEST(test_sum_direct)
{
	mf_prio_result_t r;
	bool clamped = true;
	double sum;

	memset(&r, 0, sizeof(r));
	r.w_age = 0.4;
	r.w_fs = 0.4;
	/* 0.8 rounds nowhere: below 1 gives 1 */
	ck_assert_uint_eq(mf_priority_sum(&r, &sum, &clamped), 1);
	ck_assert(!clamped);
	ck_assert_double_eq_tol(sum, 0.8, 1e-15);
	/* 1.9999 truncates to 1, 4294967295.9 to 4294967295 */
	r.w_age = 1.9999;
	r.w_fs = 0;
	ck_assert_uint_eq(mf_priority_sum(&r, NULL, NULL), 1);
	r.w_age = 4294967295.9;
	ck_assert_uint_eq(mf_priority_sum(&r, NULL, &clamped), 4294967295U);
	ck_assert(!clamped);
	r.w_age = 4294967296.0;
	ck_assert_uint_eq(mf_priority_sum(&r, NULL, &clamped), 4294967295U);
	ck_assert(clamped);
	r.w_age = NAN;
	ck_assert_uint_eq(mf_priority_sum(&r, &sum, NULL), 1);
	ck_assert(!isnan(sum));
}
END_TEST

START_TEST(test_weights_gate)
{
	mf_prio_config_t cfg = _cfg();
	mf_prio_job_t job = _job();
	mf_prio_result_t r;

	/* a weight of 0: the factor is not computed at all (as Slurm) */
	cfg.weight_age = cfg.weight_fs = cfg.weight_js = 0;
	cfg.weight_assoc = cfg.weight_part = cfg.weight_qos = 0;
	ck_assert_uint_eq(_prio(&cfg, &job, &r), 1);
	ck_assert_double_eq(r.age, 0.0);
	ck_assert_double_eq(r.fs, 0.0);
	ck_assert_double_eq(r.js, 0.0);
	ck_assert_double_eq(r.part, 0.0);
	ck_assert_double_eq(r.qos, 0.0);
	ck_assert_double_eq(r.assoc, 0.0);
	/* no QOS, no association: those factors are 0 */
	cfg = _cfg();
	job.has_qos = false;
	job.has_assoc = false;
	/* 2350 - 100 (qos) - 500 (assoc) = 1750 */
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 1750);
	mf_prio_result_clear(&r);
}
END_TEST

typedef struct {
	uint32_t flags;
	bool favor_small;
	uint32_t expected;
	const char *why;
} flag_case_t;

static const flag_case_t flag_cases[] = {
	{ 0, false, 2350, "none: 500+500+250+500+500+100" },
	{ MF_FLAG_NO_NORMAL_ASSOC, false, 26850,
	  "assoc raw 25*1000: 2350 - 500 + 25000" },
	{ MF_FLAG_NO_NORMAL_PART, false, 11850,
	  "partition raw 10*1000: 2350 - 500 + 10000" },
	{ MF_FLAG_NO_NORMAL_QOS, false, 102250,
	  "qos raw 100*1000: 2350 - 100 + 100000" },
	{ MF_FLAG_NO_NORMAL_TRES, false, 22350,
	  "TRES raw 10 CPUs*2000: 2350 + 20000 (weights CPU=2000)" },
	{ MF_FLAG_NO_NORMAL_ALL, false, 156250,
	  "all raw: 500 + 25000 + 250 + 500 + 10000 + 100000 + 20000" },
	{ MF_FLAG_SMALL_RELATIVE_TO_TIME, false, 1850,
	  "size: max(50, 5*10)/4294967295 min/100 ~ 0: 2350 - 500" },
	{ 0, true, 2350, "favor small: ((10-5)/10 + (100-50)/100)/2 = .5" },
	{ MF_FLAG_ACCRUE_ALWAYS, false, 2350,
	  "accrue time given: ACCRUE_ALWAYS changes nothing here" },
	{ MF_FLAG_INCR_ONLY, false, 2350, "applies when storing" },
	{ MF_FLAG_MAX_TRES, false, 2350, "billing only" },
	{ MF_FLAG_CALCULATE_RUNNING, false, 2350, "listing only" },
	{ MF_FLAG_NO_FAIR_TREE | MF_FLAG_DEPTH_OBLIVIOUS, false, 2350,
	  "fair-share algorithm: the factor is given" },
};

START_TEST(test_flags)
{
	const flag_case_t *c = &flag_cases[_i];
	mf_prio_config_t cfg = _cfg();
	mf_prio_job_t job = _job();
	mf_prio_result_t r;
	uint32_t p, expected = c->expected;

	cfg.flags = c->flags;
	cfg.favor_small = c->favor_small;
	/* TRES weights (CPU=2000) only with NO_NORMAL_TRES, whose figure
	 * shows them */
	if (c->flags & MF_FLAG_NO_NORMAL_TRES)
		cfg.weight_tres = tres_w;
	p = _prio(&cfg, &job, &r);
	ck_assert_msg(p == expected, "flags %#x (%s): %u, expected %u",
		      c->flags, c->why, p, expected);
	mf_prio_result_clear(&r);
}
END_TEST

START_TEST(test_held_direct)
{
	mf_prio_config_t cfg = _cfg();
	mf_prio_job_t job = _job();
	mf_prio_result_t r;

	/* held (priority 0): computed all the same (a job being released
	 * is computed while its priority is still 0) */
	job.priority = 0;
	ck_assert_uint_eq(_prio(&cfg, &job, &r), 2350);
	ck_assert_double_eq_tol(r.age, 0.5, 1e-15);
	/* an administrator's priority is kept as is, no factors */
	job.priority = 123456;
	job.direct_prio = true;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 123456);
	ck_assert(r.direct);
	ck_assert_double_eq(r.age, 0.0);
	/* direct with priority 0 (held by an admin): computed */
	job.priority = 0;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 2350);
	mf_prio_result_clear(&r);
}
END_TEST

START_TEST(test_multi_part)
{
	mf_prio_config_t cfg = _cfg();
	mf_prio_job_t job = _job();
	const mf_part_t *parts[2] = { &low, &high };
	mf_prio_result_t base, r;

	cfg.weight_tres = tres_w;
	/* slurmctld orders the list by tier: high (2) before low (1) */
	mf_parts_sort_by_tier(parts, 2);
	ck_assert_ptr_eq(parts[0], &high);
	ck_assert_ptr_eq(parts[1], &low);
	job.part = parts[0];
	job.parts = parts;
	job.part_cnt = 2;
	mf_prio_result_init(&base, set->cnt);
	mf_prio_result_init(&r, set->cnt);
	/* in high: part 20/20 = 1.0 -> 1000; TRES 10/40 CPUs * 2000 = 500;
	 * 500 + 500 + 250 + 500 + 1000 + 100 + 500 = 3350 */
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &base), 3350);
	ck_assert_uint_eq(mf_priority_in_part(&cfg, &job, &base, &high, &r),
			  3350);
	/* in low: part .5 -> 500; TRES 10/100 * 2000 = 200: 2350 + 200 */
	ck_assert_uint_eq(mf_priority_in_part(&cfg, &job, &base, &low, &r),
			  2550);
	ck_assert_ptr_eq(r.partition, &low);
	ck_assert_double_eq_tol(r.w_part, 500.0, 1e-12);
	ck_assert_double_eq_tol(r.w_tres[MF_TRES_CPU], 200.0, 1e-12);
	/* the others are the base's */
	ck_assert_double_eq(r.w_age, base.w_age);
	/* NO_NORMAL_PART: raw PriorityJobFactor, 10 * 1000 in low:
	 * 2550 - 500 + 10000 = 12050 */
	cfg.flags = MF_FLAG_NO_NORMAL_PART;
	mf_priority_compute(&cfg, &job, NOW, &base);
	ck_assert_uint_eq(mf_priority_in_part(&cfg, &job, &base, &low, &r),
			  12050);

	/* equal tiers keep their order */
	low.priority_tier = high.priority_tier = 3;
	parts[0] = &low;
	parts[1] = &high;
	mf_parts_sort_by_tier(parts, 2);
	ck_assert_ptr_eq(parts[0], &low);
	mf_prio_result_clear(&base);
	mf_prio_result_clear(&r);
}
END_TEST

/* A job with several QOS (Slurm 24.11+): one priority per QOS. */
START_TEST(test_several_qos)
{
	mf_prio_config_t cfg = _cfg();
	mf_prio_job_t job = _job();
	mf_prio_result_t r;

	/* the job's own QOS (100 of 1000 -> .1 -> 100): 2350 */
	ck_assert_uint_eq(_prio(&cfg, &job, &r), 2350);
	/* QOS of priority 800: .8 -> 800, 2350 - 100 + 800 = 3050 */
	ck_assert_uint_eq(mf_priority_with_qos(&cfg, 800, &r), 3050);
	ck_assert_double_eq_tol(r.qos, 0.8, 1e-15);
	ck_assert_double_eq_tol(r.w_qos, 800.0, 1e-12);
	/* a QOS of priority 0 keeps the term as it was (800) */
	ck_assert_uint_eq(mf_priority_with_qos(&cfg, 0, &r), 3050);
	/* NO_NORMAL_QOS: the raw priority, 5 * 1000 = 5000:
	 * 3050 - 800 + 5000 = 7250 */
	cfg.flags = MF_FLAG_NO_NORMAL_QOS;
	ck_assert_uint_eq(mf_priority_with_qos(&cfg, 5, &r), 7250);
	/* PriorityWeightQOS 0: left alone */
	cfg.weight_qos = 0;
	ck_assert_uint_eq(mf_priority_with_qos(&cfg, 900, &r), 7250);
	/* an administrator's priority stays */
	cfg = _cfg();
	job.direct_prio = true;
	job.priority = 42;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 42);
	ck_assert_uint_eq(mf_priority_with_qos(&cfg, 800, &r), 42);
	mf_prio_result_clear(&r);
}
END_TEST

START_TEST(test_incr_only)
{
	ck_assert_uint_eq(mf_priority_incr_only(0, 5000, 4000), 4000);
	ck_assert_uint_eq(mf_priority_incr_only(MF_FLAG_INCR_ONLY, 5000, 4000),
			  5000);
	ck_assert_uint_eq(mf_priority_incr_only(MF_FLAG_INCR_ONLY, 4000, 5000),
			  5000);
	ck_assert_uint_eq(mf_priority_incr_only(MF_FLAG_INCR_ONLY, 0, 5000),
			  5000);
}
END_TEST

START_TEST(test_size_time_limit)
{
	mf_prio_config_t cfg = _cfg();
	mf_prio_job_t job = _job();
	mf_prio_result_t r;

	cfg.flags = MF_FLAG_SMALL_RELATIVE_TO_TIME;
	cfg.weight_age = cfg.weight_assoc = cfg.weight_fs = 0;
	cfg.weight_part = cfg.weight_qos = 0;
	/* the job's own limit: max(50, 5*100/10) / 1 min / 100 = .5 */
	job.time_limit = 1;
	ck_assert_uint_eq(_prio(&cfg, &job, &r), 500);
	/* the partition's (high: 60 min): 50/60/100 * 1000 = 8.33 -> 8 */
	job.time_limit = MF_NO_VAL;
	job.part = &high;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 8);
	/* no partition: 1 minute */
	job.part = NULL;
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 500);
	mf_prio_result_clear(&r);
}
END_TEST

START_TEST(test_result_copy)
{
	mf_prio_result_t a, b;

	mf_prio_result_init(&a, 3);
	mf_prio_result_init(&b, 1);
	a.tres[2] = 7.0;
	a.w_age = 3.0;
	mf_prio_result_copy(&b, &a);
	ck_assert_uint_eq(b.tres_cnt, 3);
	ck_assert_double_eq(b.tres[2], 7.0);
	ck_assert_ptr_ne(b.tres, a.tres);
	ck_assert_double_eq(b.w_age, 3.0);
	mf_prio_result_clear(&a);
	mf_prio_result_clear(&b);
	mf_prio_result_clear(NULL);
	/* no TRES at all */
	mf_prio_result_init(&a, 0);
	ck_assert_ptr_null(a.tres);
	mf_prio_result_clear(&a);
}
END_TEST

START_TEST(test_result_bind)
{
	mf_prio_config_t cfg = _cfg();
	mf_prio_job_t job = _job();
	double buf[2 * MF_TRES_FIXED_CNT], small[2];
	mf_prio_result_t r, big;

	/* on the caller's buffer: the same 2550 as test_round_values, its
	 * TRES figures in the buffer */
	cfg.weight_tres = tres_w;
	buf[MF_TRES_CPU] = 99.0;        /* zeroed by bind */
	mf_prio_result_bind(&r, set->cnt, buf);
	ck_assert_uint_eq(mf_priority_compute(&cfg, &job, NOW, &r), 2550);
	ck_assert_ptr_eq(r.tres, buf);
	ck_assert_ptr_eq(r.w_tres, buf + set->cnt);
	ck_assert_double_eq_tol(buf[MF_TRES_CPU], 0.1, 1e-15);
	ck_assert_double_eq_tol(buf[set->cnt + MF_TRES_CPU], 200.0, 1e-12);
	/* in another partition: high's 40 CPUs, 10 of them = .25 x 2000 */
	mf_prio_result_init(&big, set->cnt);
	(void) mf_priority_in_part(&cfg, &job, &r, &high, &big);
	ck_assert_double_eq_tol(big.w_tres[MF_TRES_CPU], 500.0, 1e-12);
	/* copied into a bound result of one TRES: it keeps its buffer and
	 * count, and takes the first TRES */
	mf_prio_result_bind(&r, 1, small);
	mf_prio_result_copy(&r, &big);
	ck_assert_ptr_eq(r.tres, small);
	ck_assert_uint_eq(r.tres_cnt, 1);
	ck_assert(r.borrowed);
	ck_assert_double_eq(small[0], big.tres[0]);
	ck_assert_double_eq(r.w_age, big.w_age);
	mf_prio_result_clear(&r);       /* frees nothing: the stack's */
	ck_assert_ptr_null(r.tres);
	mf_prio_result_clear(&big);
}
END_TEST

Suite *make_priority_suite(void)
{
	Suite *s = suite_create("priority");
	TCase *tc = tcase_create("weighted sum");

	tcase_add_checked_fixture(tc, _setup, _teardown);
	tcase_add_test(tc, test_round_values);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_sum_direct);
	tcase_add_test(tc, test_weights_gate);
	tcase_add_loop_test(tc, test_flags, 0, G_N_ELEMENTS(flag_cases));
	tcase_add_test(tc, test_held_direct);
	tcase_add_test(tc, test_multi_part);
	tcase_add_test(tc, test_several_qos);
	tcase_add_test(tc, test_incr_only);
	tcase_add_test(tc, test_size_time_limit);
	tcase_add_test(tc, test_result_copy);
	tcase_add_test(tc, test_result_bind);
	suite_add_tcase(s, tc);
	return s;
}
