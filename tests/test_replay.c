/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The replay engine (src/run/replay.h) over a history worked out by hand:
 * three jobs, ticks every 10 s at 1000 (the first: usage 0), 1010, 1020
 * and 1030, half-life 693 s, so that the per-second decay factor is
 *   D = 1 - 0.693 / 693 = 0.999.
 *
 * Tree: root -> A (1) -> u1 (1), root -> B (1) -> u2 (1).
 *
 *   job 1  u1 in A, billing 2, runs 1000 .. 1025
 *   job 2  u2 in B, billing 3, eligible 1000, runs 1005 .. 1008
 *   job 3  u2 in B, billing 1, eligible 1000, starts 1012, still runs
 *
 * A stretch of S seconds charged at a tick adds billing x S x D^S; every
 * tick first multiplies all usage by D^10 (replay.h, steps 2 and 3).
 *
 * Tick 1000: nothing charged; job 1 (started at the first tick) runs.
 * Tick 1010: job 1 ran the whole tick:       u1 = 2 x 10 x D^10 = 20 D^10
 *            job 2 ran 1005..1008, ended:    u2 = 3 x 3 x D^3   =  9 D^3
 *            (20 D^10 = 19.8009, 9 D^3 = 8.9730: B used less)
 * Tick 1020: u1 = 20 D^10 x D^10 + 20 D^10          = 20 (D^20 + D^10)
 *            job 3 ran 1012..1020 (8 s of 1):
 *            u2 = 9 D^3 x D^10 + 1 x 8 x D^8        = 9 D^13 + 8 D^8
 *            (39.4047 and 16.8199)
 * Tick 1030: job 1 ran 1020..1025 (5 s of 2) and ended; job 3 the whole
 *            tick:
 *            u1 = 20 (D^20 + D^10) D^10 + 2 x 5 x D^5 = 20 (D^30 + D^20)
 *                                                      + 10 D^5
 *            u2 = (9 D^13 + 8 D^8) D^10 + 10 D^10     = 9 D^23 + 8 D^18
 *                                                      + 10 D^10
 *            (48.9625 and 26.5529)
 *
 * The D^n are computed here with pow(0.999, n), not with decay.h.
 *
 * Fair Tree with one user per account: the user of the account with less
 * usage (the same shares) ranks first, fs 2/2 = 1; the other 1/2.
 *
 * With charge at end (AccountingStorageEnforce=limits), a job that ended
 * is charged when it ends and then decays with the rest at the next tick:
 * job 2's 9 D^3 becomes 9 D^13 at tick 1010, job 1's last 10 D^5 becomes
 * 10 D^15 at tick 1030.
 */
#include <math.h>
#include <string.h>

#include "suites.h"
#include "src/run/replay.h"

static const tt_row_t _rows[] = {
	{ "A", NULL, NULL, 1, 0 },
	{ "B", NULL, NULL, 1, 0 },
	{ "A", "u1", NULL, 1, 0 },
	{ "B", "u2", NULL, 1, 0 },
	{ NULL, NULL, NULL, 0, 0 },
};

static const mf_replay_job_t _jobs[] = {
	{ .submit = 990, .eligible = 990, .start = 1000, .end = 1025,
	  .billing = 2, .job_id = 1, .assoc = 0 },
	{ .submit = 995, .eligible = 1000, .start = 1005, .end = 1008,
	  .billing = 3, .job_id = 2, .assoc = 1 },
	{ .submit = 995, .eligible = 1000, .start = 1012, .end = 0,
	  .billing = 1, .job_id = 3, .assoc = 1 },
};

static double _d(int n)
{
	return pow(0.999, n);
}

/* What the ticks saw. */
typedef struct {
	mf_assoc_t *u1, *u2, *a;
	double u1_usage[4], u2_usage[4], a_usage[4];
	double u1_fs[4], u2_fs[4];
	time_t when[4];
	int n;
} _seen_t;

static void _tick(time_t now, uint32_t tick, const mf_tree_t *tree,
		  void *arg)
{
	_seen_t *s = arg;

	(void)tree;
	ck_assert_uint_eq(tick, (uint32_t)s->n);
	ck_assert_int_lt(s->n, 4);
	s->when[s->n] = now;
	s->u1_usage[s->n] = (double)s->u1->usage_raw;
	s->u2_usage[s->n] = (double)s->u2->usage_raw;
	s->a_usage[s->n] = (double)s->a->usage_raw;
	s->u1_fs[s->n] = s->u1->fs_factor;
	s->u2_fs[s->n] = s->u2->fs_factor;
	s->n++;
}

/* A priority that shows the fair-share factor and the job: 10 x id, plus
 * 1 when fs is 1 (no usage yet). */
static uint32_t _price(const mf_replay_job_t *j, double fs, time_t now,
		       void *arg)
{
	(void)now;
	(void)arg;
	return 10 * j->job_id + (fs > 0.999 ? 1 : 0);
}

static long _replay(mf_fs_algo_t algo, bool at_end, _seen_t *seen,
		    mf_replay_out_t *out)
{
	mf_tree_t *tree = tt_build(_rows);
	mf_replay_conf_t conf = { .calc_period = 10, .half_life = 693,
				  .reset = MF_RESET_NONE,
				  .charge_at_end = at_end,
				  .fs = { .algo = algo, .damp = 1 } };
	mf_assoc_t *assoc[2] = { tt_get(tree, "A", "u1"),
				 tt_get(tree, "B", "u2") };
	mf_replay_t r = { .conf = &conf, .tree = tree, .assoc = assoc,
			  .assoc_cnt = 2, .jobs = _jobs, .job_cnt = 3,
			  .first = 1000, .last = 1030, .price = _price,
			  .on_tick = _tick, .arg = seen };
	mf_error_t e;
	long ticks;

	seen->u1 = assoc[0];
	seen->u2 = assoc[1];
	seen->a = tt_get(tree, "A", NULL);
	ticks = mf_replay_run(&r, out, &e);
	ck_assert_msg(ticks >= 0, "replay: %s", e.text);
	mf_tree_destroy(tree);
	return ticks;
}

#define NEAR(x, y) ck_assert_msg(fabs((x) - (y)) < 1e-9 * (1 + fabs(y)), \
				 "%s = %.12f, expected %.12f", #x, (x), (y))

START_TEST(test_usage_by_tick)
{
	_seen_t s = { 0 };
	mf_replay_out_t out[3];

	ck_assert_int_eq(_replay(MF_FS_FAIR_TREE, false, &s, out), 4);
	ck_assert_int_eq(s.n, 4);
	for (int k = 0; k < 4; k++)
		ck_assert_int_eq(s.when[k], 1000 + 10 * k);
	NEAR(s.u1_usage[0], 0.0);
	NEAR(s.u2_usage[0], 0.0);
	NEAR(s.u1_usage[1], 20 * _d(10));
	NEAR(s.u2_usage[1], 9 * _d(3));
	NEAR(s.u1_usage[2], 20 * (_d(20) + _d(10)));
	NEAR(s.u2_usage[2], 9 * _d(13) + 8 * _d(8));
	NEAR(s.u1_usage[3], 20 * (_d(30) + _d(20)) + 10 * _d(5));
	NEAR(s.u2_usage[3], 9 * _d(23) + 8 * _d(18) + 10 * _d(10));
	/* an account's usage is its subtree's */
	for (int k = 0; k < 4; k++)
		NEAR(s.a_usage[k], s.u1_usage[k]);
	/* B used less at every charged tick: u2 ranks first */
	for (int k = 1; k < 4; k++) {
		NEAR(s.u2_fs[k], 1.0);
		NEAR(s.u1_fs[k], 0.5);
	}
}
END_TEST

START_TEST(test_charge_at_end)
{
	_seen_t s = { 0 };
	mf_replay_out_t out[3];

	ck_assert_int_eq(_replay(MF_FS_FAIR_TREE, true, &s, out), 4);
	NEAR(s.u2_usage[1], 9 * _d(13));
	NEAR(s.u1_usage[1], 20 * _d(10));
	NEAR(s.u2_usage[2], 9 * _d(23) + 8 * _d(8));
	NEAR(s.u1_usage[3], 20 * (_d(30) + _d(20)) + 10 * _d(15));
}
END_TEST

/*
 * Priorities and ranks (classic: no usage gives fs 2^0 = 1 exactly).
 * Tick 1000: jobs 2 and 3 pending (eligible 1000, not started), both fs 1:
 *   job 2 -> 21, job 3 -> 31.  Job 2 starts at 1005, before the next
 *   tick: its priority 21, rank 2 of 2 pending.
 * Tick 1010: job 3 alone pending (job 2 ran); B has usage 9 D^3, so u2's
 *   fs is 2^(-UE/0.5) with UE >= its usage share 9D^3/(20D^10 + 9D^3)
 *   = 0.31: at most 2^-0.62 = 0.65, not 1: priority 30, rank 1 of 1.
 * Job 1 started at the first tick, seen pending by no tick: all 0.
 */
START_TEST(test_priority_rank)
{
	_seen_t s = { 0 };
	mf_replay_out_t out[3];

	ck_assert_int_eq(_replay(MF_FS_CLASSIC, false, &s, out), 4);
	ck_assert_uint_eq(out[0].priority, 0);
	ck_assert_uint_eq(out[0].rank, 0);
	ck_assert_uint_eq(out[1].priority, 21);
	ck_assert_uint_eq(out[1].rank, 2);
	ck_assert_uint_eq(out[1].pending, 2);
	NEAR((double)out[1].fs, 1.0);
	ck_assert_uint_eq(out[2].priority, 30);
	ck_assert_uint_eq(out[2].rank, 1);
	ck_assert_uint_eq(out[2].pending, 1);
	ck_assert((double)out[2].fs < 0.66);
}
END_TEST

START_TEST(test_bad_input)
{
	mf_tree_t *tree = tt_build(_rows);
	mf_replay_conf_t conf = { .calc_period = 0 };
	mf_assoc_t *assoc[2] = { tt_get(tree, "A", "u1"),
				 tt_get(tree, "B", "u2") };
	mf_replay_t r = { .conf = &conf, .tree = tree, .assoc = assoc,
			  .assoc_cnt = 1, .jobs = _jobs, .job_cnt = 3,
			  .first = 1000, .last = 1030 };
	mf_replay_out_t out[3];
	mf_error_t e;

	ck_assert_int_eq(mf_replay_run(&r, out, &e), -1);
	conf.calc_period = 10;
	/* job 2's association index 1 is out of range with assoc_cnt 1 */
	ck_assert_int_eq(mf_replay_run(&r, out, &e), -1);
	ck_assert_msg(strstr(e.text, "job 2"), "%s", e.text);
	r.assoc_cnt = 2;
	r.last = 990;
	ck_assert_int_eq(mf_replay_run(&r, out, &e), -1);
	mf_tree_destroy(tree);
}
END_TEST

Suite *make_replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_usage_by_tick);
	tcase_add_test(tc, test_charge_at_end);
	tcase_add_test(tc, test_priority_rank);
	tcase_add_test(tc, test_bad_input);
	suite_add_tcase(s, tc);
	return s;
}
