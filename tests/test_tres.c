/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TRES sets and the TYPE=VALUE lists (tres.h): PriorityWeightTRES /
 * TRESBillingWeights weights with Slurm's unit suffixes, and scontrol's
 * TRES= counts.
 */
#include <math.h>
#include <string.h>

#include "suites.h"
#include "tres.h"

static mf_tres_set_t *_set(void)
{
	mf_tres_set_t *set = mf_tres_set_create();

	ck_assert_int_eq(mf_tres_add(set, "GRES/gpu", NULL), 8);
	ck_assert_int_eq(mf_tres_add(set, "license/matlab", NULL), 9);
	ck_assert_int_eq(mf_tres_add(set, "bb/cray", NULL), 10);
	return set;
}

START_TEST(test_set)
{
	mf_tres_set_t *set = _set();

	ck_assert_int_eq(set->cnt, 11);
	ck_assert_str_eq(set->names[MF_TRES_FS_DISK], "fs/disk");
	ck_assert_int_eq(mf_tres_find(set, "CPU"), MF_TRES_CPU);
	ck_assert_int_eq(mf_tres_find(set, "gres:gpu"), 8);
	ck_assert_int_eq(mf_tres_find(set, "gres/tpu"), -1);
	ck_assert_int_eq(mf_tres_add(set, "gres/GPU", NULL), 8); /* no dup */
	ck_assert_int_eq(mf_tres_add(set, "", NULL), -1);
	ck_assert(mf_tres_is_node_type(set, MF_TRES_CPU));
	ck_assert(mf_tres_is_node_type(set, MF_TRES_MEM));
	ck_assert(mf_tres_is_node_type(set, MF_TRES_NODE));
	ck_assert(mf_tres_is_node_type(set, 8));            /* gres/gpu */
	ck_assert(!mf_tres_is_node_type(set, MF_TRES_ENERGY));
	ck_assert(!mf_tres_is_node_type(set, MF_TRES_BILLING));
	ck_assert(!mf_tres_is_node_type(set, 9));           /* license */
	ck_assert(!mf_tres_is_node_type(set, 10));          /* bb */
	mf_tres_set_free(set);
	mf_tres_set_free(NULL);
}
END_TEST

typedef struct {
	const char *text;
	int pos;                 /* TRES position checked */
	double weight;           /* expected weight there */
} weight_case_t;

static const weight_case_t weights_ok[] = {
	{ "CPU=1000", MF_TRES_CPU, 1000.0 },
	{ "cpu=1.5,Mem=2000", MF_TRES_MEM, 2000.0 },
	/* mem is counted in MB: G is 1024 MB, so 0.25 per GB = 0.25/1024 */
	{ "CPU=1.0,Mem=0.25G", MF_TRES_MEM, 0.25 / 1024 },
	{ "Mem=0.25GB", MF_TRES_MEM, 0.25 / 1024 },        /* first letter */
	{ "Mem=1024T", MF_TRES_MEM, 1024.0 / (1024 * 1024) },
	{ "Mem=5M", MF_TRES_MEM, 5.0 },      /* M is mem's own unit */
	{ "Mem=5K", MF_TRES_MEM, 5.0 },      /* below the unit: as is */
	{ "CPU=2048K", MF_TRES_CPU, 2.0 },   /* CPUs are plain: K = 1024 */
	{ "GRES/gpu=3000", 8, 3000.0 },
	{ "gres/gpu=2G", 8, 2.0 / (1024.0 * 1024 * 1024) },
	{ "License/matlab=7", 9, 7.0 },
	{ "BB/cray=1G", 10, 1.0 / 1024 },    /* bb in MB too */
	{ "CPU=-1", MF_TRES_CPU, -1.0 },     /* Slurm takes any strtod */
	{ "", MF_TRES_CPU, 0.0 },
	{ "CPU=1,,Node=4", MF_TRES_NODE, 4.0 },
};

START_TEST(test_weights_ok)
{
	const weight_case_t *c = &weights_ok[_i];
	mf_tres_set_t *set = _set();
	double w[11];
	mf_error_t e;

	ck_assert_msg(!mf_tres_weights_parse(set, c->text, w, &e),
		      "weights \"%s\": %s", c->text, e.text);
	ck_assert_msg(fabs(w[c->pos] - c->weight) < 1e-15,
		      "weights \"%s\"[%d] = %g, expected %g", c->text, c->pos,
		      w[c->pos], c->weight);
	mf_tres_set_free(set);
}
END_TEST

static const char *const weights_bad[] = {
	"CPU", "CPU=", "=5", "CPU=abc", "CPU=5X", "GRES/tpu=1", "cpu=1,foo=2",
	"Mem=1Q",
};

START_TEST(test_weights_bad)
{
	mf_tres_set_t *set = _set();
	double w[11];
	mf_error_t e = { "" };

	ck_assert_msg(mf_tres_weights_parse(set, weights_bad[_i], w, &e) == -1,
		      "weights \"%s\" should fail", weights_bad[_i]);
	ck_assert_msg(*e.text, "an error text for \"%s\"", weights_bad[_i]);
	for (int i = 0; i < 11; i++)
		ck_assert_msg(w[i] == 0.0, "weights zeroed on failure");
	mf_tres_set_free(set);
}
END_TEST

START_TEST(test_counts)
{
	mf_tres_set_t *set = _set();
	GPtrArray *unknown = g_ptr_array_new_with_free_func(g_free);
	uint64_t c[11];
	mf_error_t e;

	/* scontrol's TRES= of a pending job: mem with a unit */
	ck_assert(!mf_tres_counts_parse(set, "cpu=4,mem=2G,node=1,billing=6,"
					"gres/gpu=2", c, NULL, &e));
	ck_assert_uint_eq(c[MF_TRES_CPU], 4);
	ck_assert_uint_eq(c[MF_TRES_MEM], 2048);         /* 2 GiB in MB */
	ck_assert_uint_eq(c[MF_TRES_NODE], 1);
	ck_assert_uint_eq(c[MF_TRES_BILLING], 6);
	ck_assert_uint_eq(c[8], 2);
	ck_assert(!mf_tres_counts_parse(set, "mem=100M,cpu=1K", c, NULL, &e));
	ck_assert_uint_eq(c[MF_TRES_MEM], 100);
	ck_assert_uint_eq(c[MF_TRES_CPU], 1024);
	ck_assert(!mf_tres_counts_parse(set, "mem=1.5G", c, NULL, &e));
	ck_assert_uint_eq(c[MF_TRES_MEM], 1536);
	/* unknown TRES: collected, or an error */
	ck_assert(!mf_tres_counts_parse(set, "cpu=1,gres/tpu=3", c, unknown,
					&e));
	ck_assert_uint_eq(unknown->len, 1);
	ck_assert_str_eq(unknown->pdata[0], "gres/tpu");
	ck_assert_int_eq(mf_tres_counts_parse(set, "gres/tpu=3", c, NULL, &e),
			 -1);
	ck_assert(strstr(e.text, "gres/tpu"));
	/* malformed */
	ck_assert_int_eq(mf_tres_counts_parse(set, "cpu=x", c, NULL, &e), -1);
	ck_assert_int_eq(mf_tres_counts_parse(set, "cpu=-1", c, NULL, &e), -1);
	ck_assert_int_eq(mf_tres_counts_parse(set, "cpu", c, NULL, &e), -1);
	ck_assert_int_eq(mf_tres_counts_parse(set, "mem=2GB", c, NULL, &e), -1);
	ck_assert(!mf_tres_counts_parse(set, NULL, c, NULL, &e));
	ck_assert_uint_eq(c[MF_TRES_CPU], 0);
	g_ptr_array_unref(unknown);
	mf_tres_set_free(set);
}
END_TEST

Suite *make_tres_suite(void)
{
	Suite *s = suite_create("tres");
	TCase *tc = tcase_create("tres");

	tcase_add_test(tc, test_set);
	tcase_add_loop_test(tc, test_weights_ok, 0, G_N_ELEMENTS(weights_ok));
	tcase_add_loop_test(tc, test_weights_bad, 0,
			    G_N_ELEMENTS(weights_bad));
	tcase_add_test(tc, test_counts);
	suite_add_tcase(s, tc);
	return s;
}
