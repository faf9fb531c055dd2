/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_core: how long the core takes for what the plugin does every
 * PriorityCalcPeriod, at sizes beyond any real site's.
 *
 *   fair-share:  trees of 1,000 / 10,000 / 100,000 user associations
 *                (100 users an account), each algorithm
 *   priority:    1,000,000 pending jobs through mf_priority_compute()
 *
 * Prints the median of REPEAT runs of each, in milliseconds, and per item.
 * Usage: bench_core [REPEAT]   (default 5).  Build: make bench/bench_core
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fairshare.h"
#include "priority.h"

static double _now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int _cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

static double _median(double *v, int n)
{
	qsort(v, n, sizeof(*v), _cmp_double);
	return v[n / 2];
}

/* A tree of USERS users, 100 to an account, 10 accounts to a group. */
static mf_tree_t *_make_tree(int users)
{
	mf_tree_t *tree = mf_tree_create();
	char acct[32], grp[32], user[32];
	int accounts = (users + 99) / 100;

	srand(42);
	for (int g = 0; g < (accounts + 9) / 10; g++) {
		snprintf(grp, sizeof(grp), "g%d", g);
		mf_tree_add_account(tree, grp, "root", 1 + rand() % 100, NULL);
	}
	for (int a = 0; a < accounts; a++) {
		snprintf(acct, sizeof(acct), "a%d", a);
		snprintf(grp, sizeof(grp), "g%d", a / 10);
		mf_tree_add_account(tree, acct, grp, 1 + rand() % 100, NULL);
	}
	for (int u = 0; u < users; u++) {
		mf_assoc_t *x;

		snprintf(user, sizeof(user), "u%d", u);
		snprintf(acct, sizeof(acct), "a%d", u / 100);
		x = mf_tree_add_user(tree, user, acct, 1 + rand() % 10, NULL);
		x->usage_raw = (rand() % 4) ? (long double) (rand() % 1000000)
					    : 0.0L;
	}
	if (mf_tree_finalize(tree, NULL)) {
		fprintf(stderr, "bench_core: tree did not build\n");
		exit(1);
	}
	mf_tree_sum_usage(tree);
	return tree;
}

static void _bench_fairshare(int repeat)
{
	static const int sizes[] = { 1000, 10000, 100000 };
	static const mf_fs_algo_t algos[] = {
		MF_FS_FAIR_TREE, MF_FS_CLASSIC, MF_FS_DEPTH_OBLIVIOUS,
	};
	double *t = calloc(repeat, sizeof(*t));

	printf("%-10s %-16s %12s %14s\n", "users", "algorithm", "median ms",
	       "us per assoc");
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
		mf_tree_t *tree = _make_tree(sizes[s]);

		for (size_t a = 0; a < sizeof(algos) / sizeof(*algos); a++) {
			mf_fs_config_t cfg = { algos[a], 1 };
			double m;

			for (int r = 0; r < repeat; r++) {
				double t0 = _now_ms();

				mf_fairshare_compute(tree, &cfg);
				t[r] = _now_ms() - t0;
			}
			m = _median(t, repeat);
			printf("%-10d %-16s %12.2f %14.3f\n", sizes[s],
			       mf_fs_algo_name(algos[a]), m,
			       m * 1e3 / tree->order->len);
		}
		mf_tree_destroy(tree);
	}
	free(t);
}

static void _bench_priority(int repeat)
{
	const int jobs = 1000000;
	mf_part_t part = { .name = "debug", .priority_job_factor = 10,
			   .priority_tier = 1, .max_time = MF_INFINITE };
	mf_prio_config_t cfg = {
		.weight_age = 1000, .weight_fs = 10000, .weight_js = 1000,
		.weight_part = 2000, .weight_qos = 1000, .max_age = 7 * 86400,
		.cluster_cpus = 100000, .node_count = 1000,
		.part_max_priority = 20, .qos_max_priority = 100,
	};
	mf_prio_job_t *job = calloc(jobs, sizeof(*job));
	mf_prio_result_t r;
	double *t = calloc(repeat, sizeof(*t)), m;
	time_t now = 1763640000;
	uint64_t check = 0;

	for (int i = 0; i < jobs; i++) {
		job[i].job_id = i + 1;
		job[i].submit_time = job[i].begin_time =
			job[i].accrue_time = now - (i % 100000);
		job[i].min_nodes = 1 + i % 8;
		job[i].cpu_cnt = 1 + i % 64;
		job[i].time_limit = 60;
		job[i].part = &part;
		job[i].has_qos = true;
		job[i].qos_priority = i % 100;
		job[i].fs_factor = (i % 1000) / 1000.0;
	}
	mf_prio_result_init(&r, 0);
	for (int rep = 0; rep < repeat; rep++) {
		double t0 = _now_ms();

		for (int i = 0; i < jobs; i++)
			check += mf_priority_compute(&cfg, &job[i], now, &r);
		t[rep] = _now_ms() - t0;
	}
	m = _median(t, repeat);
	printf("\n%-10s %-16s %12s %14s\n", "jobs", "what", "median ms",
	       "ns per job");
	printf("%-10d %-16s %12.2f %14.1f\n", jobs, "priority", m,
	       m * 1e6 / jobs);
	printf("(checksum %llu)\n", (unsigned long long) check);
	mf_prio_result_clear(&r);
	free(job);
	free(t);
}

int main(int argc, char **argv)
{
	int repeat = argc > 1 ? atoi(argv[1]) : 5;

	if (repeat < 1)
		repeat = 1;
	_bench_fairshare(repeat);
	_bench_priority(repeat);
	return 0;
}
