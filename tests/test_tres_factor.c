/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tres_factor (tres_factor.h): a job's TRES over its partition's, raw with
 * NO_NORMAL_TRES; and the weighting by PriorityWeightTRES.
 */
#include <math.h>

#include "priority_flags.h"
#include "suites.h"
#include "tres.h"
#include "tres_factor.h"

#define N 9      /* the eight fixed TRES and gres/gpu */

START_TEST(test_factors)
{
	/* partition: 64 CPUs, 256000 MB, 4 nodes, billing 64, 8 GPUs */
	const uint64_t part[N] = { 64, 256000, 0, 4, 64, 0, 0, 0, 8 };
	/* job: 16 CPUs, 64000 MB, 1 node, billing 16, 2 GPUs, and some
	 * energy, which the partition has none of */
	const uint64_t job[N] = { 16, 64000, 500, 1, 16, 0, 0, 0, 2 };
	const double w[N] = { 1000, 2000, 0, 0, 0, 0, 0, 0, 4000 };
	double f[N], wf[N];
	double sum;

	mf_tres_factors(job, part, N, 0, f);
	ck_assert_double_eq_tol(f[MF_TRES_CPU], 0.25, 1e-15);    /* 16/64 */
	ck_assert_double_eq_tol(f[MF_TRES_MEM], 0.25, 1e-15);    /* 64000/256000 */
	ck_assert_double_eq(f[MF_TRES_ENERGY], 0.0);          /* part 0 */
	ck_assert_double_eq_tol(f[MF_TRES_NODE], 0.25, 1e-15);   /* 1/4 */
	ck_assert_double_eq_tol(f[MF_TRES_BILLING], 0.25, 1e-15);/* 16/64 */
	ck_assert_double_eq_tol(f[8], 0.25, 1e-15);              /* 2/8 */
	/* weighted: .25*1000 + .25*2000 + .25*4000 = 1750 */
	sum = mf_tres_weigh(f, w, N, wf);
	ck_assert_double_eq_tol(sum, 1750.0, 1e-9);
	ck_assert_double_eq_tol(wf[MF_TRES_MEM], 500.0, 1e-12);
	/* weighing in place */
	ck_assert_double_eq_tol(mf_tres_weigh(f, w, N, f), 1750.0, 1e-9);
	ck_assert_double_eq_tol(f[8], 1000.0, 1e-12);

	/* NO_NORMAL_TRES: the counts themselves, even where the partition
	 * has none; weighted 16*1000 + 64000*2000 + 2*4000 */
	mf_tres_factors(job, part, N, MF_FLAG_NO_NORMAL_TRES, f);
	ck_assert_double_eq(f[MF_TRES_CPU], 16.0);
	ck_assert_double_eq(f[MF_TRES_ENERGY], 500.0);
	ck_assert_double_eq_tol(mf_tres_weigh(f, w, N, wf),
				16000.0 + 128000000.0 + 8000.0, 1e-6);
	mf_tres_factors(job, part, N, MF_FLAG_NO_NORMAL_ALL, f);
	ck_assert_double_eq(f[8], 2.0);
}
END_TEST

START_TEST(test_partition_lacks_tres)
{
	/* a job asking for 2 GPUs, eligible in a partition with 8 and in one
	 * with none: sprio's row for the second shows a GPU term of 0 (the
	 * job gets no GPU there).  Upstream 22.05 keeps the first
	 * partition's weighted term, .25 x 4000 = 1000, and weights it again
	 * (4,000,000); mfprio does not repeat that. */
	const uint64_t job[N] = { 16, 64000, 0, 1, 16, 0, 0, 0, 2 };
	const uint64_t with_gpu[N] = { 64, 256000, 0, 4, 64, 0, 0, 0, 8 };
	const uint64_t without[N] = { 64, 256000, 0, 4, 64, 0, 0, 0, 0 };
	const double w[N] = { 0, 0, 0, 0, 0, 0, 0, 0, 4000 };
	double f[N], wf[N];

	mf_tres_factors(job, with_gpu, N, 0, f);
	ck_assert_double_eq_tol(mf_tres_weigh(f, w, N, wf), 1000.0, 1e-9);
	mf_tres_factors(job, without, N, 0, f);
	ck_assert_double_eq(f[8], 0.0);
	ck_assert_double_eq(mf_tres_weigh(f, w, N, wf), 0.0);
	ck_assert_double_eq(wf[8], 0.0);
}
END_TEST

START_TEST(test_missing)
{
	const uint64_t job[N] = { 16, MF_TRES_NO_CONSUME, 0, 1, 0, 0, 0, 0, 0 };
	const uint64_t part[N] = { 64, 1000, 0, 4, 64, 0, 0, 0, 0 };
	double f[N];

	/* no partition: nothing to normalize by */
	mf_tres_factors(job, NULL, N, 0, f);
	for (int i = 0; i < N; i++)
		ck_assert_double_eq(f[i], 0.0);
	/* no job TRES */
	mf_tres_factors(NULL, part, N, 0, f);
	for (int i = 0; i < N; i++)
		ck_assert_double_eq(f[i], 0.0);
	/* a count not consumed counts 0, raw or not */
	mf_tres_factors(job, part, N, 0, f);
	ck_assert_double_eq(f[MF_TRES_MEM], 0.0);
	mf_tres_factors(job, part, N, MF_FLAG_NO_NORMAL_TRES, f);
	ck_assert_double_eq(f[MF_TRES_MEM], 0.0);
}
END_TEST

Suite *make_tres_factor_suite(void)
{
	Suite *s = suite_create("tres_factor");
	TCase *tc = tcase_create("tres factors");

	tcase_add_test(tc, test_factors);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_partition_lacks_tres);
	suite_add_tcase(s, tc);
	return s;
}
