/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * billing (billing.h): the spec's worked examples with
 * TRESBillingWeights=CPU=1.0,Mem=0.25G on 16-CPU, 64 GB nodes, summed and
 * with MAX_TRES; then global TRES, no weights and NO_CONSUME.
 */
#include <math.h>

#include "billing.h"
#include "priority_flags.h"
#include "suites.h"

typedef struct {
	const char *weights;
	uint64_t cpu, mem_mb, node, gpu, lic;
	uint32_t flags;
	double expected;
} bill_case_t;

#define GB 1024ULL
#define MAXT MF_FLAG_MAX_TRES

static const bill_case_t cases[] = {
	/* the spec's sum table: CPUs*1.0 + GB*0.25 */
	{ "CPU=1.0,Mem=0.25G", 1, 60 * GB, 1, 0, 0, 0, 16.0 },   /* 1 + 15 */
	{ "CPU=1.0,Mem=0.25G", 16, 1 * GB, 1, 0, 0, 0, 16.25 },  /* 16 + .25 */
	{ "CPU=1.0,Mem=0.25G", 16, 60 * GB, 1, 0, 0, 0, 31.0 },  /* 16 + 15 */
	/* the spec's MAX_TRES table: MAX(CPUs*1.0, GB*0.25) */
	{ "CPU=1.0,Mem=0.25G", 1, 60 * GB, 1, 0, 0, MAXT, 15.0 },
	{ "CPU=1.0,Mem=0.25G", 15, 1 * GB, 1, 0, 0, MAXT, 15.0 },
	{ "CPU=1.0,Mem=0.25G", 16, 64 * GB, 1, 0, 0, MAXT, 16.0 },
	/* node and gres are node TRES: in the MAX; licenses are global:
	 * added.  MAX(4*1, 1*10, 2*3) + 3*2 = 10 + 6 */
	{ "CPU=1,Node=10,GRES/gpu=3,License/matlab=2", 4, 0, 1, 2, 3, MAXT,
	  16.0 },
	/* the same summed: 4 + 10 + 6 + 6 */
	{ "CPU=1,Node=10,GRES/gpu=3,License/matlab=2", 4, 0, 1, 2, 3, 0,
	  26.0 },
	/* no weights: the CPU count */
	{ NULL, 7, 60 * GB, 1, 2, 3, 0, 7.0 },
	{ NULL, 7, 60 * GB, 1, 2, 3, MAXT, 7.0 },
	/* weights that give CPUs nothing */
	{ "Mem=1G", 8, 2 * GB, 1, 0, 0, 0, 2.0 },            /* 2048/1024 */
};

START_TEST(test_billing)
{
	const bill_case_t *c = &cases[_i];
	mf_tres_set_t *set = mf_tres_set_create();
	uint64_t counts[10] = { 0 };
	double w[10], *wp = NULL;
	mf_error_t e;
	double b;

	mf_tres_add(set, "gres/gpu", NULL);          /* 8 */
	mf_tres_add(set, "license/matlab", NULL);    /* 9 */
	counts[MF_TRES_CPU] = c->cpu;
	counts[MF_TRES_MEM] = c->mem_mb;
	counts[MF_TRES_NODE] = c->node;
	counts[MF_TRES_BILLING] = 999;               /* never billed itself */
	counts[8] = c->gpu;
	counts[9] = c->lic;
	if (c->weights) {
		ck_assert_msg(!mf_tres_weights_parse(set, c->weights, w, &e),
			      "%s", e.text);
		wp = w;
		w[MF_TRES_BILLING] = 1.0;
	}
	b = mf_billing(set, counts, wp, c->flags);
	ck_assert_msg(fabs(b - c->expected) < 1e-9,
		      "case %d: billing(%s) = %g, expected %g", _i,
		      c->weights ? c->weights : "no weights", b, c->expected);
	mf_tres_set_free(set);
}
END_TEST

START_TEST(test_edges)
{
	mf_tres_set_t *set = mf_tres_set_create();
	uint64_t counts[8] = { 4, MF_TRES_NO_CONSUME, 0, 1, 0, 0, 0, 0 };
	double w[8] = { 2, 5, 0, 0, 0, 0, 0, 0 };

	ck_assert_double_eq(mf_billing(set, NULL, w, 0), 0.0);
	/* memory not consumed is left out: 4*2 */
	ck_assert_double_eq(mf_billing(set, counts, w, 0), 8.0);
	ck_assert_double_eq(mf_billing(set, counts, w, MF_FLAG_MAX_TRES), 8.0);
	mf_tres_set_free(set);
}
END_TEST

Suite *make_billing_suite(void)
{
	Suite *s = suite_create("billing");
	TCase *tc = tcase_create("billing");

	tcase_add_loop_test(tc, test_billing, 0, G_N_ELEMENTS(cases));
	tcase_add_test(tc, test_edges);
	suite_add_tcase(s, tc);
	return s;
}
