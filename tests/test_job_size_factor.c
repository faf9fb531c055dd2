/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_size_factor (job_size_factor.h) on a cluster of 10 nodes and 100
 * CPUs unless a case says otherwise: favor large, PriorityFavorSmall,
 * SMALL_RELATIVE_TO_TIME with and without it.
 */
#include <math.h>

#include "job_size_factor.h"
#include "priority_flags.h"
#include "suites.h"

#define SRT MF_FLAG_SMALL_RELATIVE_TO_TIME

typedef struct {
	uint32_t nodes, cpus, limit, node_count, cluster_cpus;
	bool small;
	uint32_t flags;
	double expected;
} js_case_t;

static const js_case_t cases[] = {
	/* favor large: (nodes/10 + cpus/100) / 2 */
	{ 1, 1, 0, 10, 100, false, 0, (0.1 + 0.01) / 2 },        /* .055 */
	{ 5, 50, 0, 10, 100, false, 0, (0.5 + 0.5) / 2 },        /* .5 */
	{ 10, 100, 0, 10, 100, false, 0, 1.0 },                  /* all */
	{ 2, 0, 0, 10, 100, false, 0, 0.2 },        /* no CPUs: nodes only */
	{ 20, 200, 0, 10, 100, false, 0, 1.0 },     /* more than all: 1.0 */
	/* favor small: ((10-nodes)/10 + (100-cpus)/100) / 2 */
	{ 1, 1, 0, 10, 100, true, 0, (0.9 + 0.99) / 2 },         /* .945 */
	{ 10, 100, 0, 10, 100, true, 0, 0.0 },
	{ 2, 0, 0, 10, 100, true, 0, 0.8 },         /* no CPUs: nodes only */
	/* bigger than the cluster wraps in 32 bits, as in Slurm:
	 * (2^32-10)/10 is huge, held at 1.0 */
	{ 20, 1, 0, 10, 100, true, 0, 1.0 },
	/* SMALL_RELATIVE_TO_TIME: max(cpus, nodes*100/10) / limit / 100 */
	{ 1, 100, 1, 10, 100, false, SRT, 1.0 },    /* 100/1/100 */
	{ 1, 100, 10, 10, 100, false, SRT, 0.1 },   /* 100/10/100 */
	{ 1, 1, 60, 10, 100, false, SRT, 10.0 / 60 / 100 }, /* 1 node = 10 CPUs */
	{ 3, 40, 2, 10, 100, false, SRT, 0.2 },     /* max(40, 30)/2/100 */
	{ 1, 100, 10, 10, 100, true, SRT, 0.9 },    /* 1 - .1 */
	{ 1, 1, 0xffffffffU, 10, 100, false, SRT,   /* UNLIMITED limit */
	  10.0 / 4294967295.0 / 100 },
	{ 1, 1, 0, 10, 100, false, SRT, 1.0 },      /* limit 0: inf -> 1.0 */
	{ 1, 1, 0, 10, 100, true, SRT, 0.0 },       /* 1 - inf -> 0 */
	/* an empty cluster gives no number: 0, not NaN */
	{ 0, 0, 0, 0, 0, false, 0, 0.0 },
	{ 0, 0, 0, 0, 0, false, SRT, 0.0 },
	{ 0, 0, 0, 0, 0, true, 0, 0.0 },
};

/* Slurm 23.02 and later: the same cluster, where they differ */
static const js_case_t cases_2302[] = {
	/* more nodes than the cluster, favor small: node term 0, not a
	 * wrapped huge share: (0 + 99/100) / 2 */
	{ 20, 1, 0, 10, 100, true, 0, 0.99 / 2 },
	/* exactly all nodes: 0 either way; (0 + 0) / 2 */
	{ 10, 100, 0, 10, 100, true, 0, 0.0 },
	/* no CPUs asked: the node term alone, 0 */
	{ 20, 0, 0, 10, 100, true, 0, 0.0 },
	/* below the cluster's size: as 22.05, (0.9 + 0.99) / 2 */
	{ 1, 1, 0, 10, 100, true, 0, (0.9 + 0.99) / 2 },
	/* a cluster without nodes or CPUs: 0 whatever the formula */
	{ 1, 1, 60, 0, 100, false, SRT, 0.0 },
	{ 1, 1, 0, 10, 0, false, 0, 0.0 },
	{ 1, 1, 0, 10, 0, true, 0, 0.0 },
	/* favor large and relative to time unchanged */
	{ 5, 50, 0, 10, 100, false, 0, 0.5 },
	{ 3, 40, 2, 10, 100, false, SRT, 0.2 },
};

START_TEST(test_js_2302)
{
	const js_case_t *c = &cases_2302[_i];
	double f = mf_job_size_factor(c->nodes, c->cpus, c->limit,
				      c->node_count, c->cluster_cpus,
				      c->small, c->flags, MF_RELEASE(23, 2));

	ck_assert_msg(fabs(f - c->expected) < 1e-12,
		      "23.02 case %d: got %.15g, expected %.15g", _i, f,
		      c->expected);
	/* every later release the same */
	ck_assert_double_eq(f, mf_job_size_factor(c->nodes, c->cpus,
		c->limit, c->node_count, c->cluster_cpus, c->small, c->flags,
		MF_RELEASE(26, 5)));
}
END_TEST

/* 22.05 and 23.02 differ exactly on the cases above that say so */
START_TEST(test_js_release_differs)
{
	/* 20 nodes of 10, favor small: 22.05 wraps to 1.0, 23.02 .495 */
	ck_assert_double_eq(mf_job_size_factor(20, 1, 0, 10, 100, true, 0,
					       MF_RELEASE(22, 5)), 1.0);
	ck_assert_double_eq_tol(mf_job_size_factor(20, 1, 0, 10, 100, true,
						   0, MF_RELEASE(23, 11)),
				0.495, 1e-12);
	/* no CPU in the cluster, favor large: 22.05 takes the node share
	 * (1/10 + 1/0 -> inf) held at 1.0; 23.02 gives 0 */
	ck_assert_double_eq(mf_job_size_factor(1, 1, 0, 10, 0, false, 0, 0),
			    1.0);
	ck_assert_double_eq(mf_job_size_factor(1, 1, 0, 10, 0, false, 0,
					       MF_RELEASE(24, 11)), 0.0);
}
END_TEST

START_TEST(test_js)
{
	const js_case_t *c = &cases[_i];
	double f = mf_job_size_factor(c->nodes, c->cpus, c->limit,
				      c->node_count, c->cluster_cpus,
				      c->small, c->flags, 0);

	ck_assert_msg(!isnan(f), "case %d: NaN", _i);
	ck_assert_msg(fabs(f - c->expected) < 1e-12,
		      "case %d: mf_job_size_factor(nodes %u, cpus %u, limit %u, "
		      "%u nodes, %u cpus, small %d, flags %#x) = %.12f, "
		      "expected %.12f", _i, c->nodes, c->cpus, c->limit,
		      c->node_count, c->cluster_cpus, c->small, c->flags, f,
		      c->expected);
}
END_TEST

Suite *make_job_size_factor_suite(void)
{
	Suite *s = suite_create("job_size_factor");
	TCase *tc = tcase_create("job size");

	tcase_add_loop_test(tc, test_js, 0, G_N_ELEMENTS(cases));
	tcase_add_loop_test(tc, test_js_2302, 0, G_N_ELEMENTS(cases_2302));
	tcase_add_test(tc, test_js_release_differs);
	suite_add_tcase(s, tc);
	return s;
}
