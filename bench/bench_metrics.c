/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_metrics: what the plugin's metrics file costs the decay thread
 * after each cycle, outside every lock: mf_metrics_format() of N
 * associations (default 100,000), 10,000 association/partition rows of
 * pending jobs and the cycle's figures, then mf_metrics_write_file() to a
 * temporary file swapped with the file, as src/plugin/engine/mfp_metrics.c
 * does.
 *
 * The associations are a site's shape: root, 100 groups of 10 accounts,
 * users spread over the accounts (N users in all, about 1% more
 * associations), 12-character user names, every figure set and none a
 * round number (the slow path of number formatting).
 *
 * Per run: wall time (CLOCK_MONOTONIC) of mf_metrics_write_file(), which
 * formats through a 1 MiB buffer into the file (page cache, no fsync, as
 * in the plugin), and separately of mf_metrics_format() of the same into
 * memory; the median of RUNS runs is printed with the file's size.  Exit 1 when the median total
 * exceeds --limit-ms (default 50).
 *
 * --handoff: the plugin's way since the metrics writer thread
 * (src/plugin/engine/mfp_metrics.c): a "decay thread" (main) runs RUNS
 * cycles, one each --period-ms (default 200; it sleeps in between, as the
 * decay thread does its cycle's work), and at each cycle's end hands a
 * record set to a writer thread the way the plugin does: it fills the
 * cycle's figures, copies the file's path and the cluster's name, then
 * under a mutex of its own swaps the two sets and signals, or counts a
 * skip when the writer is still busy.  Printed: the handoff's wall time
 * (median, max), the writer's wall and CPU time per file (median, max) and
 * the skips; the exit status is 1 when the median handoff exceeds
 * --limit-ms.
 *
 * Usage: bench_metrics [--assocs N] [--runs N] [--out FILE] [--limit-ms MS]
 *                      [--handoff [--period-ms MS]]
 * Build: make bench/bench_metrics   (see doc/performance.md)
 */
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "metrics.h"

static double _ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int _cmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}


static double _cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* --handoff: two record sets, as in the plugin */
typedef struct {
	GArray *as, *ps;         /* the records (both sets share the data) */
	mf_metrics_cycle_t cycle;
	char *file, *cluster;
	double timestamp;
} _set_t;

static _set_t _sets[2];
static int _fill;
static pthread_mutex_t _mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t _cond = PTHREAD_COND_INITIALIZER;
static bool _full, _stop;
static double _write_ms = NAN;
static GArray *_wr_wall, *_wr_cpu;  /* the writer's times, per file */
static int _wr_err;

static void *_writer(void *arg)
{
	pthread_mutex_lock(&_mutex);
	while (!_stop) {
		const _set_t *set;
		mf_metrics_t m = { .source = "plugin",
				   .algorithm = "fair_tree" };
		mf_error_t e;
		double t0, c0, wall, cpu;

		if (!_full) {
			pthread_cond_wait(&_cond, &_mutex);
			continue;
		}
		set = &_sets[1 - _fill];
		pthread_mutex_unlock(&_mutex);
		m.cluster = set->cluster;
		m.timestamp = set->timestamp;
		m.assocs = (mf_metrics_assoc_t *) set->as->data;
		m.n_assocs = set->as->len;
		m.pending = (mf_metrics_pending_t *) set->ps->data;
		m.n_pending = set->ps->len;
		m.cycle = &set->cycle;
		t0 = _ms();
		c0 = _cpu_ms();
		if (mf_metrics_write_file(set->file, &m, &e) < 0) {
			fprintf(stderr, "bench_metrics: %s\n", e.text);
			_wr_err = 1;
		}
		cpu = _cpu_ms() - c0;
		wall = _ms() - t0;
		pthread_mutex_lock(&_mutex);
		g_array_append_val(_wr_wall, wall);
		g_array_append_val(_wr_cpu, cpu);
		_write_ms = wall;
		_full = false;
		pthread_cond_broadcast(&_cond);
	}
	pthread_mutex_unlock(&_mutex);
	return NULL;
}

/* RUNS cycles, one each PERIOD ms, each handing its file to the writer. */
static int _handoff(GArray *as, GArray *ps, const mf_metrics_cycle_t *cyc,
		    const char *out, long runs, double period, double limit)
{
	double *hand = g_new(double, runs), next = _ms();
	long skipped = 0;
	pthread_t th;
	int rc = 0;

	_wr_wall = g_array_new(FALSE, FALSE, sizeof(double));
	_wr_cpu = g_array_new(FALSE, FALSE, sizeof(double));
	for (int i = 0; i < 2; i++) {
		_sets[i].as = as;
		_sets[i].ps = ps;
	}
	if (pthread_create(&th, NULL, _writer, NULL)) {
		fprintf(stderr, "bench_metrics: cannot start the writer\n");
		return 1;
	}
	for (long r = 0; r < runs; r++) {
		_set_t *set = &_sets[_fill];
		double t0, wait;

		/* the cycle's work */
		next += period;
		wait = next - _ms();
		if (wait > 0)
			g_usleep((gulong) (wait * 1e3));

		/* the handoff, timed as the plugin times it */
		t0 = _ms();
		set->cycle = *cyc;
		set->cycle.handoff_s = r ? hand[r - 1] / 1e3 : NAN;
		set->timestamp = 1.7e9 + r;
		g_free(set->file);
		set->file = g_strdup(out);
		g_free(set->cluster);
		set->cluster = g_strdup("bench");
		pthread_mutex_lock(&_mutex);
		if (_full) {
			skipped++;
		} else {
			set->cycle.write_s = _write_ms / 1e3;
			set->cycle.skipped = (uint64_t) skipped;
			_fill = 1 - _fill;
			_full = true;
			pthread_cond_signal(&_cond);
		}
		pthread_mutex_unlock(&_mutex);
		hand[r] = _ms() - t0;
	}
	/* the last file written too (the plugin's fini does not wait) */
	pthread_mutex_lock(&_mutex);
	while (_full)
		pthread_cond_wait(&_cond, &_mutex);
	_stop = true;
	pthread_cond_broadcast(&_cond);
	pthread_mutex_unlock(&_mutex);
	pthread_join(th, NULL);

	qsort(hand, runs, sizeof(double), _cmp);
	printf("associations %u, pending rows %u; %ld cycles, one each "
	       "%.0f ms\n", as->len, ps->len, runs, period);
	printf("decay thread's handoff: median %.3f ms, max %.3f ms (limit "
	       "%.0f ms)\n", hand[runs / 2], hand[runs - 1], limit);
	if (_wr_wall->len) {
		double *w = (double *) _wr_wall->data;
		double *c = (double *) _wr_cpu->data;
		guint n = _wr_wall->len;

		qsort(w, n, sizeof(double), _cmp);
		qsort(c, n, sizeof(double), _cmp);
		printf("writer thread: %u files, wall median %.1f ms (max %.1f "
		       "ms), CPU median %.1f ms (max %.1f ms)\n", n, w[n / 2],
		       w[n - 1], c[n / 2], c[n - 1]);
	}
	printf("files skipped (the writer busy): %ld of %ld\n", skipped,
	       runs);
	if (hand[runs / 2] > limit) {
		printf("OVER the limit\n");
		rc = 1;
	}
	rc |= _wr_err;
	for (int i = 0; i < 2; i++) {
		g_free(_sets[i].file);
		g_free(_sets[i].cluster);
	}
	g_array_free(_wr_wall, TRUE);
	g_array_free(_wr_cpu, TRUE);
	g_free(hand);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "assocs", required_argument, NULL, 'n' },
		{ "runs", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'o' },
		{ "limit-ms", required_argument, NULL, 'l' },
		{ "handoff", no_argument, NULL, 'H' },
		{ "period-ms", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long n_users = 100000, runs = 7;
	double limit = 50, period = 200;
	bool handoff = false;
	char *out = NULL;
	GStringChunk *names = g_string_chunk_new(1 << 20);
	GArray *as = g_array_new(FALSE, TRUE, sizeof(mf_metrics_assoc_t));
	GArray *ps = g_array_new(FALSE, TRUE, sizeof(mf_metrics_pending_t));
	mf_metrics_cycle_t cyc = { .start = 1.7e9, .wall_s = 0.0123456,
				   .cpu_s = 0.0101, .lock_charge_s = 0.00123,
				   .lock_prio_s = 0.0045, .charge_holds = 2,
				   .prio_holds = 7, .lock_longest_s = 0.00201,
				   .assoc_lock_s = 0.0081, .jobs_total = 10000,
				   .jobs_recomputed = 9000, .cycles = 12,
				   .write_s = 0.02, .lock_total_s = 0.1,
				   .cpu_total_s = 0.2, .lock_max_s = 0.003 };
	double *fmt_ms, *wr_ms, *tot_ms;
	size_t bytes = 0;
	int ch, rc = 0;
	mf_error_t e;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'n': n_users = atol(optarg); break;
		case 'r': runs = atol(optarg); break;
		case 'o': out = g_strdup(optarg); break;
		case 'l': limit = atof(optarg); break;
		case 'H': handoff = true; break;
		case 'p': period = atof(optarg); break;
		default:
			printf("Usage: bench_metrics [--assocs N] [--runs N] "
			       "[--out FILE] [--limit-ms MS]\n"
			       "                     [--handoff [--period-ms "
			       "MS]]\n");
			return ch == 'h' ? 0 : 2;
		}
	}
	if (n_users < 1 || runs < 1 || period < 0)
		return 2;
	if (!out)
		out = g_strdup_printf("%s/bench_metrics.%d.prom",
				      g_get_tmp_dir(), (int) getpid());

	/* root, 100 groups of 10 accounts, users round-robin over them */
	{
		mf_metrics_assoc_t root = { .account = "root", .depth = 0,
					    .shares_raw = MF_METRICS_NO_SHARES,
					    .shares_norm = 1, .usage_raw =
					    123456789.25, .usage_efctv = 1,
					    .fs_factor = NAN,
					    .level_fs = NAN };
		char buf[64];
		long n_acct = 1000;

		g_array_append_val(as, root);
		for (long g = 0; g < 100; g++) {
			mf_metrics_assoc_t a = root;

			snprintf(buf, sizeof(buf), "group%03ld", g);
			a.account = g_string_chunk_insert_const(names, buf);
			a.parent = "root";
			a.depth = 1;
			a.shares_raw = 10 + (uint32_t) g;
			a.shares_norm = 0.0100123 + g * 1e-6;
			a.usage_raw = 1234567.5 + g;
			a.usage_efctv = 0.01234567 + g * 1e-7;
			a.level_fs = 0.81234 + g * 1e-5;
			g_array_append_val(as, a);
		}
		for (long i = 0; i < n_acct; i++) {
			mf_metrics_assoc_t a = root;

			snprintf(buf, sizeof(buf), "group%03ld", i / 10);
			a.parent = g_string_chunk_insert_const(names, buf);
			snprintf(buf, sizeof(buf), "acct%04ld", i);
			a.account = g_string_chunk_insert_const(names, buf);
			a.depth = 2;
			a.shares_raw = 1 + (uint32_t) (i % 7);
			a.shares_norm = 0.000912345 + i * 1e-9;
			a.usage_raw = 98765.125 + i;
			a.usage_efctv = 0.000765432 + i * 1e-9;
			a.level_fs = 1.0234567 + i * 1e-6;
			g_array_append_val(as, a);
		}
		for (long u = 0; u < n_users; u++) {
			mf_metrics_assoc_t a = root;

			snprintf(buf, sizeof(buf), "acct%04ld", u % n_acct);
			a.account = g_string_chunk_insert_const(names, buf);
			a.parent = a.account;
			snprintf(buf, sizeof(buf), "user%08ld", u);
			a.user = g_string_chunk_insert_const(names, buf);
			a.depth = 3;
			a.shares_raw = 1;
			a.shares_norm = 9.87654321e-6 + u * 1e-12;
			a.usage_raw = 4321.0625 + (double) u;
			a.usage_efctv = 8.7654321e-6 + u * 1e-12;
			a.fs_factor = 0.5 + (double) u / (3.0 * n_users);
			a.level_fs = 0.91234567 + u * 1e-9;
			g_array_append_val(as, a);
		}
		for (long p = 0; p < 10000; p++) {
			mf_metrics_assoc_t *u = &g_array_index(
				as, mf_metrics_assoc_t,
				1101 + (p * 7) % n_users);
			mf_metrics_pending_t pj = {
				.account = u->account, .user = u->user,
				.partition = p % 3 ? "batch" : "gpu",
				.jobs = 1 + (uint32_t) (p % 5),
				.prio_sum = 12345.0 * (1 + p % 5),
				.prio_max = 12345 + p };

			g_array_append_val(ps, pj);
		}
	}

	if (handoff) {
		rc = _handoff(as, ps, &cyc, out, runs, period, limit);
		runs = 0;
	}
	fmt_ms = g_new(double, runs);
	wr_ms = g_new(double, runs);
	tot_ms = g_new(double, runs);
	for (long r = 0; r < runs; r++) {
		mf_metrics_t m = { .cluster = "bench", .source = "plugin",
				   .algorithm = "fair_tree",
				   .timestamp = 1.7e9 + r,
				   .assocs = (mf_metrics_assoc_t *) as->data,
				   .n_assocs = as->len,
				   .pending = (mf_metrics_pending_t *) ps->data,
				   .n_pending = ps->len, .cycle = &cyc };
		double t0 = _ms();

		/* the file, as the plugin writes it: formatted through a
		 * small buffer into the temporary file, swapped in */
		if (mf_metrics_write_file(out, &m, &e) < 0) {
			fprintf(stderr, "bench_metrics: %s\n", e.text);
			rc = 1;
			break;
		}
		tot_ms[r] = _ms() - t0;
	}
	for (long r = 0; r < runs && !rc; r++) {
		mf_metrics_t m = { .cluster = "bench", .source = "plugin",
				   .algorithm = "fair_tree",
				   .timestamp = 1.7e9 + r,
				   .assocs = (mf_metrics_assoc_t *) as->data,
				   .n_assocs = as->len,
				   .pending = (mf_metrics_pending_t *) ps->data,
				   .n_pending = ps->len, .cycle = &cyc };
		GString *g = g_string_sized_new(bytes ? bytes + 4096 : 0);
		double t0;

		/* formatting alone, into memory allocated beforehand
		 * (`mfprio metrics` to a pipe does about this) */
		memset(g->str, 0, g->allocated_len);
		t0 = _ms();
		mf_metrics_format(g, &m);
		fmt_ms[r] = _ms() - t0;
		bytes = g->len;
		g_string_free(g, TRUE);
		wr_ms[r] = 0;
	}
	if (!rc && runs) {
		qsort(fmt_ms, runs, sizeof(double), _cmp);
		qsort(wr_ms, runs, sizeof(double), _cmp);
		qsort(tot_ms, runs, sizeof(double), _cmp);
		printf("associations %u, pending rows %u, file %.1f MB\n",
		       as->len, ps->len, bytes / 1e6);
		printf("median of %ld runs: file written %.1f ms (max %.1f "
		       "ms; limit %.0f ms); of which formatting about %.1f ms "
		       "(the same text into memory)\n", runs,
		       tot_ms[runs / 2], tot_ms[runs - 1], limit,
		       fmt_ms[runs / 2]);
		if (tot_ms[runs / 2] > limit) {
			printf("OVER the limit\n");
			rc = 1;
		}
	}
	(void) unlink(out);
	{
		/* the previous copy the swap leaves beside it */
		char *tmp = g_strdup_printf("%s.tmp", out);

		(void) unlink(tmp);
		g_free(tmp);
	}
	g_free(out);
	g_free(fmt_ms);
	g_free(wr_ms);
	g_free(tot_ms);
	g_array_free(as, TRUE);
	g_array_free(ps, TRUE);
	g_string_chunk_free(names);
	return rc;
}
