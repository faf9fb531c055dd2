/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_core: what the core costs for one PriorityCalcPeriod, at 10k, 100k
 * and 1M items, and how that grows.
 *
 *   priority    a full recalculation of N pending jobs through the core's
 *               public functions, as the plugin drives them each cycle:
 *               per job the fair-share factor of its association
 *               (mf_job_fs_factor), mf_priority_compute(), one
 *               mf_priority_in_part() per partition of a multi-partition
 *               job, mf_priority_incr_only().  9 TRES (the 8 fixed ones
 *               and gres/gpu), weights on CPU, memory and GPUs, every
 *               factor weighted, 10% of the jobs in two partitions, the
 *               association tree of 1,000 users computed beforehand,
 *               under Fair Tree and under classic (whose factor is
 *               computed per job).
 *   fs-compute  what the plugin does every cycle on the tree it keeps
 *               (mfp_tree_recompute): results reset, every association's
 *               usage written in, mf_fairshare_compute(), the results read;
 *               N associations, each algorithm.
 *   fs-cycle    what it does when the associations changed (and did every
 *               cycle before it kept the tree): build the tree from the
 *               association records (create, add every account and user,
 *               finalize), compute, read the results, destroy.
 *
 * Two tree shapes: "tree" is root, groups of 10 accounts, accounts of 100
 * users (N users, about 1.1% more associations); "flat" is root, ONE
 * account, N users: Fair Tree sorts all N siblings at once.
 *
 * Per row: the median of RUNS runs of CPU time (process CPU clock: on a
 * shared machine it leaves out the time other processes had the core) and
 * of wall time; ns per item from the CPU median; "x10" the CPU time ratio
 * to the row 10 times smaller, scaled to exactly 10 times the items (10.0
 * is linear); memory from counting every allocation (memcount.h): "input"
 * the bytes of the data handed to the core per item, "peak" the most the
 * heap grew above that during a run (one extra run, counted, not timed),
 * "kept" the built tree that fs-compute works on — all per item.
 *
 * Usage: bench_core [--runs N] [--max N] [--only priority|fs] [--csv]
 * Build: make bench/bench_core   (see doc/performance.md)
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fairshare.h"
#include "job_fs_factor.h"
#include "priority.h"
#include "tres.h"

#include "memcount.h"

/* ------------------------------------------------------------------ */
/* results */

typedef struct {
	const char *what;
	const char *shape;
	const char *algo;
	long items;
	double cpu_ms;           /* median */
	double wall_ms;          /* median */
	double input_b;          /* per item */
	double peak_b;           /* per item; NAN: not measured */
	double kept_b;           /* per item; NAN: not applicable */
} _row_t;

typedef struct {
	int runs;
	bool csv;
	long max;
	_row_t prev;             /* the last row printed */
} _opts_t;

static volatile uint64_t _sink; /* results land here: nothing is dead */

static void _usage(FILE *f);
static double _clock_ms(clockid_t id);
static int _cmp_double(const void *a, const void *b);
static double _median(double *v, int n);
static uint64_t _rnd(uint64_t *s);
static void _print_header(const _opts_t *o);
static void _print_row(_opts_t *o, const _row_t *r);
static void _fmt_bytes(char *buf, size_t len, double b);

static void _usage(FILE *f)
{
	fprintf(f, "usage: bench_core [--runs N] [--max N] "
		"[--only priority|fs] [--csv]\n"
		"  --runs N   runs per row, the median is printed (default 5)\n"
		"  --max N    largest size (default 1000000; 10000 for a "
		"quick look)\n"
		"  --only X   only the priority or the fair-share rows\n"
		"  --csv      comma-separated values with a header line\n");
}

static double _clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int _cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double _median(double *v, int n)
{
	qsort(v, n, sizeof(*v), _cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* xorshift64*: the same inputs on every machine */
static uint64_t _rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void _print_header(const _opts_t *o)
{
	if (o->csv) {
		printf("what,shape,algo,items,cpu_ms,wall_ms,ns_per_item,"
		       "x10,input_b,peak_b,kept_b\n");
		return;
	}
	printf("%-10s %-5s %-15s %8s %9s %9s %8s %5s %6s %6s %6s\n",
	       "what", "shape", "algorithm", "items", "cpu ms", "wall ms",
	       "ns/item", "x10", "input", "peak", "kept");
	printf("%-10s %-5s %-15s %8s %9s %9s %8s %5s %6s %6s %6s\n",
	       "", "", "", "", "(median)", "(median)", "", "", "B/item",
	       "B/item", "B/item");
}

static void _fmt_bytes(char *buf, size_t len, double b)
{
	if (isnan(b))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f", b);
}

static void _print_row(_opts_t *o, const _row_t *r)
{
	double ns = r->cpu_ms * 1e6 / r->items;
	double x10 = NAN;
	char ratio[16], in[16], peak[16], kept[16];

	if (o->prev.what && !strcmp(o->prev.what, r->what) &&
	    !strcmp(o->prev.shape, r->shape) &&
	    !strcmp(o->prev.algo, r->algo) && o->prev.cpu_ms > 0)
		x10 = r->cpu_ms / o->prev.cpu_ms *
		      (10.0 * o->prev.items / r->items);
	o->prev = *r;
	if (o->csv) {
		printf("%s,%s,%s,%ld,%.3f,%.3f,%.2f,", r->what, r->shape,
		       r->algo, r->items, r->cpu_ms, r->wall_ms, ns);
		if (!isnan(x10))
			printf("%.2f", x10);
		printf(",%.1f,", r->input_b);
		if (!isnan(r->peak_b))
			printf("%.1f", r->peak_b);
		printf(",");
		if (!isnan(r->kept_b))
			printf("%.1f", r->kept_b);
		printf("\n");
		fflush(stdout);
		return;
	}
	if (isnan(x10))
		snprintf(ratio, sizeof(ratio), "-");
	else
		snprintf(ratio, sizeof(ratio), "%.1f", x10);
	_fmt_bytes(in, sizeof(in), r->input_b);
	_fmt_bytes(peak, sizeof(peak), r->peak_b);
	_fmt_bytes(kept, sizeof(kept), r->kept_b);
	printf("%-10s %-5s %-15s %8ld %9.2f %9.2f %8.1f %5s %6s %6s %6s\n",
	       r->what, r->shape, r->algo, r->items, r->cpu_ms, r->wall_ms,
	       ns, ratio, in, peak, kept);
	fflush(stdout);
}

/* Run FN(CTX) once counting allocations (the peak), then RUNS times
 * timed, not counting (the medians) into R. */
static void _measure(void (*fn)(void *), void *ctx, int runs, _row_t *r)
{
	double *cpu = calloc(runs, sizeof(*cpu));
	double *wall = calloc(runs, sizeof(*wall));

	mc_count(true);
	mc_mark();
	fn(ctx);
	mc_count(false);
	r->peak_b = mc_enabled() ? (double)mc_peak() / r->items : NAN;
	for (int i = 0; i < runs; i++) {
		double c0, w0;

		c0 = _clock_ms(CLOCK_PROCESS_CPUTIME_ID);
		w0 = _clock_ms(CLOCK_MONOTONIC);
		fn(ctx);
		wall[i] = _clock_ms(CLOCK_MONOTONIC) - w0;
		cpu[i] = _clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
	}
	r->cpu_ms = _median(cpu, runs);
	r->wall_ms = _median(wall, runs);
	free(cpu);
	free(wall);
}

/* ------------------------------------------------------------------ */
/* association trees */

/* The association records, as slurmctld would hand them over: names,
 * shares and raw usage (accounts' usage already summed over their
 * subtree, as Slurm keeps it).  Index 0 is root; parents come first. */
typedef struct {
	long n;                  /* associations, root included */
	long users;
	char **acct;             /* account, or a user's account */
	char **parent;           /* an account's parent account */
	char **user;             /* NULL for an account */
	uint32_t *shares;
	long double *usage;
	size_t bytes;            /* all of the above */
} _fs_input_t;

typedef enum { _SHAPE_TREE, _SHAPE_FLAT } _shape_t;

static const char *const _shape_name[] = { "tree", "flat" };

/* PREFIX followed by V (V < 0: PREFIX alone), counted in IN's bytes */
static char *_str(_fs_input_t *in, const char *prefix, long v)
{
	char buf[32];
	int len = v < 0 ? snprintf(buf, sizeof(buf), "%s", prefix) :
			  snprintf(buf, sizeof(buf), "%s%ld", prefix, v);

	in->bytes += len + 1;
	return strdup(buf);
}

static void _fs_input_make(_fs_input_t *in, _shape_t shape, long users)
{
	long accounts = shape == _SHAPE_FLAT ? 1 : (users + 99) / 100;
	long groups = shape == _SHAPE_FLAT ? 0 : (accounts + 9) / 10;
	long *up;
	long i = 0;
	uint64_t seed = 0x5eed0000 + users;

	memset(in, 0, sizeof(*in));
	in->users = users;
	in->n = 1 + groups + accounts + users;
	in->acct = calloc(in->n, sizeof(char *));
	in->parent = calloc(in->n, sizeof(char *));
	in->user = calloc(in->n, sizeof(char *));
	in->shares = calloc(in->n, sizeof(uint32_t));
	in->usage = calloc(in->n, sizeof(long double));
	up = calloc(in->n, sizeof(long));
	in->bytes = in->n * (3 * sizeof(char *) + sizeof(uint32_t) +
			     sizeof(long double));

	in->acct[i] = _str(in, "root", -1);
	in->shares[i++] = 1;
	for (long g = 0; g < groups; g++, i++) {
		in->acct[i] = _str(in, "g", g);
		in->parent[i] = _str(in, "root", -1);
		in->shares[i] = 1 + _rnd(&seed) % 100;
		up[i] = 0;
	}
	for (long a = 0; a < accounts; a++, i++) {
		in->acct[i] = _str(in, "a", a);
		if (shape == _SHAPE_FLAT) {
			in->parent[i] = _str(in, "root", -1);
			up[i] = 0;
		} else {
			in->parent[i] = _str(in, "g", a / 10);
			up[i] = 1 + a / 10;
		}
		in->shares[i] = 1 + _rnd(&seed) % 100;
	}
	for (long u = 0; u < users; u++, i++) {
		long a = shape == _SHAPE_FLAT ? 0 : u / 100;

		in->acct[i] = _str(in, "a", a);
		in->user[i] = _str(in, "u", u);
		in->shares[i] = 1 + _rnd(&seed) % 10;
		up[i] = 1 + groups + a;
		if (_rnd(&seed) % 4)
			in->usage[i] = (long double)(_rnd(&seed) % 1000000);
	}
	/* parents come first: one backward pass sums every subtree */
	for (i = in->n - 1; i > 0; i--)
		in->usage[up[i]] += in->usage[i];
	free(up);
}

static void _fs_input_free(_fs_input_t *in)
{
	for (long i = 0; i < in->n; i++) {
		free(in->acct[i]);
		free(in->parent[i]);
		free(in->user[i]);
	}
	free(in->acct);
	free(in->parent);
	free(in->user);
	free(in->shares);
	free(in->usage);
}

/* The tree of IN, as the plugin builds it (mfp_tree_build). */
static mf_tree_t *_tree_build(const _fs_input_t *in)
{
	mf_tree_t *tree = mf_tree_create();

	for (long i = 0; i < in->n; i++) {
		mf_assoc_t *a;

		if (i == 0)
			a = tree->root;
		else if (!in->user[i])
			a = mf_tree_add_account(tree, in->acct[i],
						in->parent[i], in->shares[i],
						NULL);
		else
			a = mf_tree_add_user(tree, in->user[i], in->acct[i],
					     in->shares[i], NULL);
		if (!a) {
			fprintf(stderr, "bench_core: association %ld not "
				"added\n", i);
			exit(1);
		}
		a->usage_raw = in->usage[i];
	}
	if (mf_tree_finalize(tree, NULL)) {
		fprintf(stderr, "bench_core: the tree did not build\n");
		exit(1);
	}
	return tree;
}

/* What a caller reads back: every association's factor. */
static void _fs_read(const mf_tree_t *tree)
{
	double sum = 0.0;

	for (guint i = 0; i < tree->order->len; i++) {
		const mf_assoc_t *a = g_ptr_array_index(tree->order, i);

		if (!isnan(a->fs_factor))
			sum += a->fs_factor;
	}
	_sink += (uint64_t)sum;
}

typedef struct {
	const _fs_input_t *in;
	mf_tree_t *tree;
	mf_fs_config_t cfg;
} _fs_ctx_t;

/* As the plugin's cycle on its kept tree: results reset, every
 * association's usage written in again, computed, read. */
static void _fs_compute(void *p)
{
	_fs_ctx_t *c = p;
	GPtrArray *all = c->tree->input_order;

	mf_tree_reset_results(c->tree);
	for (guint i = 0; i < all->len && (long) i < c->in->n; i++)
		((mf_assoc_t *) g_ptr_array_index(all, i))->usage_raw =
			c->in->usage[i];
	mf_fairshare_compute(c->tree, &c->cfg);
	_fs_read(c->tree);
}

static void _fs_cycle(void *p)
{
	_fs_ctx_t *c = p;
	mf_tree_t *tree = _tree_build(c->in);

	mf_fairshare_compute(tree, &c->cfg);
	_fs_read(tree);
	mf_tree_destroy(tree);
}

static void _bench_fairshare(_opts_t *o, const long *sizes, int nsizes)
{
	static const mf_fs_algo_t algos[] = {
		MF_FS_CLASSIC, MF_FS_DEPTH_OBLIVIOUS, MF_FS_FAIR_TREE,
	};
	static const char *const what[] = { "fs-compute", "fs-cycle" };

	for (int shape = _SHAPE_TREE; shape <= _SHAPE_FLAT; shape++)
		for (int w = 0; w < 2; w++)
			for (size_t a = 0; a < G_N_ELEMENTS(algos); a++)
				for (int s = 0; s < nsizes; s++) {
					_fs_input_t in;
					_fs_ctx_t c = { &in, NULL,
							{ algos[a], 1 } };
					_row_t r = { what[w],
						     _shape_name[shape],
						     mf_fs_algo_name(algos[a]),
						     0, 0, 0, 0, 0, NAN };

					_fs_input_make(&in, shape, sizes[s]);
					r.items = in.n;
					r.input_b = (double)in.bytes / in.n;
					if (w == 0) {
						mc_count(true);
						mc_mark();
						c.tree = _tree_build(&in);
						mc_count(false);
						if (mc_enabled())
							r.kept_b = (double)
								mc_now() /
								in.n;
					}
					_measure(w ? _fs_cycle : _fs_compute,
						 &c, o->runs, &r);
					mf_tree_destroy(c.tree);
					_fs_input_free(&in);
					_print_row(o, &r);
				}
}

/* ------------------------------------------------------------------ */
/* priorities */

#define _NPART 3
#define _USERS 1000

typedef struct {
	long n;
	mf_prio_config_t cfg;
	mf_tres_set_t *tres;
	double *weight_tres;
	mf_part_t part[_NPART];
	uint64_t *part_tres;     /* _NPART x tres->cnt */
	const mf_part_t *multi[2];  /* a two-partition job's, tier order */
	mf_prio_job_t *job;
	uint64_t *job_tres;      /* n x tres->cnt */
	const mf_assoc_t **assoc;
	uint32_t *prio;
	uint32_t *in_part;       /* n x 2: per-partition priorities */
	size_t bytes;            /* the per-job arrays */
	time_t now;
	mf_fs_algo_t algo;       /* whose fair-share factors the jobs take */
	mf_tree_t *tree;
	_fs_input_t users;
} _prio_ctx_t;

static void _prio_setup(_prio_ctx_t *c, long n, mf_fs_algo_t algo)
{
	static const char *const names[_NPART] = { "batch", "short", "big" };
	static const uint16_t factor[_NPART] = { 10, 20, 5 };
	static const uint16_t tier[_NPART] = { 1, 2, 1 };
	static const uint32_t max_time[_NPART] = { 2880, 60, MF_INFINITE };
	static const uint32_t qos_prio[4] = { 0, 10, 50, 100 };
	const uint32_t nodes = 1000, cores = 128;
	mf_fs_config_t fs = { algo, 1 };
	GPtrArray *users = g_ptr_array_new();
	uint64_t seed = 0xb0b0 + n;
	uint32_t t;
	int gpu;

	memset(c, 0, sizeof(*c));
	c->n = n;
	c->algo = algo;
	c->now = 1763640000;
	c->tres = mf_tres_set_create();
	gpu = mf_tres_add(c->tres, "gres/gpu", NULL);
	t = c->tres->cnt;
	c->weight_tres = calloc(t, sizeof(double));
	if (gpu < 0 || mf_tres_weights_parse(c->tres,
			"CPU=1000,Mem=2000G,GRES/gpu=3000",
			c->weight_tres, NULL)) {
		fprintf(stderr, "bench_core: TRES weights not parsed\n");
		exit(1);
	}

	c->part_tres = calloc((size_t)_NPART * t, sizeof(uint64_t));
	for (int p = 0; p < _NPART; p++) {
		uint64_t *pt = c->part_tres + (size_t)p * t;
		uint32_t pn = nodes / (p == 1 ? 10 : 2);

		pt[MF_TRES_CPU] = pn * cores;
		pt[MF_TRES_MEM] = (uint64_t)pn * 512 * 1024;
		pt[MF_TRES_NODE] = pn;
		pt[MF_TRES_BILLING] = pn * cores;
		pt[gpu] = pn * 4;
		c->part[p].name = names[p];
		c->part[p].priority_job_factor = factor[p];
		c->part[p].priority_tier = tier[p];
		c->part[p].max_time = max_time[p];
		c->part[p].tres_cnt = pt;
	}
	c->multi[0] = &c->part[0];
	c->multi[1] = &c->part[1];
	mf_parts_sort_by_tier(c->multi, 2);

	c->cfg.weight_age = 1000;
	c->cfg.weight_fs = 10000;
	c->cfg.weight_js = 1000;
	c->cfg.weight_part = 2000;
	c->cfg.weight_qos = 1000;
	c->cfg.tres = c->tres;
	c->cfg.weight_tres = c->weight_tres;
	c->cfg.max_age = 7 * 86400;
	c->cfg.cluster_cpus = nodes * cores;
	c->cfg.node_count = nodes;
	c->cfg.part_max_priority = mf_part_max_priority(c->part, _NPART);
	c->cfg.qos_max_priority = 100;

	/* the associations the jobs belong to, their figures computed */
	_fs_input_make(&c->users, _SHAPE_TREE, _USERS);
	c->tree = _tree_build(&c->users);
	mf_fairshare_compute(c->tree, &fs);
	for (guint i = 0; i < c->tree->order->len; i++) {
		mf_assoc_t *a = g_ptr_array_index(c->tree->order, i);

		if (a->user)
			g_ptr_array_add(users, a);
	}

	c->job = calloc(n, sizeof(*c->job));
	c->job_tres = calloc((size_t)n * t, sizeof(uint64_t));
	c->assoc = calloc(n, sizeof(*c->assoc));
	c->prio = calloc(n, sizeof(*c->prio));
	c->in_part = calloc((size_t)n * 2, sizeof(*c->in_part));
	c->bytes = n * (sizeof(*c->job) + t * sizeof(uint64_t) +
			sizeof(*c->assoc) + sizeof(*c->prio) +
			2 * sizeof(*c->in_part));
	for (long i = 0; i < n; i++) {
		mf_prio_job_t *j = &c->job[i];
		uint64_t *jt = c->job_tres + (size_t)i * t;
		uint32_t r = _rnd(&seed) % 100;

		j->job_id = i + 1;
		j->submit_time = c->now - _rnd(&seed) % (14 * 86400);
		j->begin_time = j->submit_time;
		j->accrue_time = r < 5 ? 0 : j->begin_time;
		j->min_nodes = 1 + _rnd(&seed) % 8;
		j->cpu_cnt = j->min_nodes * (1 + _rnd(&seed) % cores);
		j->time_limit = r >= 95 ? MF_NO_VAL :
				10 + _rnd(&seed) % 2870;
		if (r < 10) {
			j->parts = c->multi;
			j->part_cnt = 2;
			j->part = &c->part[0];
		} else {
			j->part = &c->part[_rnd(&seed) % _NPART];
		}
		j->has_qos = true;
		j->qos_priority = qos_prio[_rnd(&seed) % 4];
		j->has_assoc = true;
		if (r == 50 || r == 51)
			j->nice = (int64_t)(_rnd(&seed) % 201) - 100;
		if (r == 99) {           /* an administrator's priority */
			j->direct_prio = true;
			j->priority = 5000;
		}
		jt[MF_TRES_CPU] = j->cpu_cnt;
		jt[MF_TRES_MEM] = (uint64_t)j->cpu_cnt * 4096;
		jt[MF_TRES_NODE] = j->min_nodes;
		jt[MF_TRES_BILLING] = j->cpu_cnt;
		if (r % 10 == 3)
			jt[gpu] = 1 + _rnd(&seed) % 8;
		j->tres_cnt = jt;
		c->assoc[i] = g_ptr_array_index(users,
						_rnd(&seed) % users->len);
	}
	g_ptr_array_free(users, TRUE);
}

static void _prio_free(_prio_ctx_t *c)
{
	free(c->job);
	free(c->job_tres);
	free(c->assoc);
	free(c->prio);
	free(c->in_part);
	free(c->part_tres);
	free(c->weight_tres);
	mf_tres_set_free(c->tres);
	mf_tree_destroy(c->tree);
	_fs_input_free(&c->users);
}

/* One cycle: every job's priority, as the plugin computes it. */
static void _prio_cycle(void *p)
{
	_prio_ctx_t *c = p;
	mf_prio_result_t r, pr;
	uint64_t sum = 0;

	mf_prio_result_init(&r, c->tres->cnt);
	mf_prio_result_init(&pr, c->tres->cnt);
	for (long i = 0; i < c->n; i++) {
		mf_prio_job_t *j = &c->job[i];
		uint32_t prio;

		j->fs_factor = mf_job_fs_factor(c->assoc[i], c->algo, 1);
		prio = mf_priority_compute(&c->cfg, j, c->now, &r);
		for (uint32_t k = 0; k < j->part_cnt; k++)
			c->in_part[2 * i + k] =
				mf_priority_in_part(&c->cfg, j, &r,
						    j->parts[k], &pr);
		c->prio[i] = mf_priority_incr_only(c->cfg.flags, c->prio[i],
						   prio);
		sum += c->prio[i];
	}
	mf_prio_result_clear(&pr);
	mf_prio_result_clear(&r);
	_sink += sum;
}

static void _bench_priority(_opts_t *o, const long *sizes, int nsizes)
{
	/* Fair Tree: a job's factor is its association's, read; classic
	 * (and DEPTH_OBLIVIOUS, the same per job): 2^(-UE/S) computed per
	 * job, as mf_job_fs_factor() does */
	static const mf_fs_algo_t algos[] = { MF_FS_FAIR_TREE, MF_FS_CLASSIC };

	for (size_t a = 0; a < G_N_ELEMENTS(algos); a++)
		for (int s = 0; s < nsizes; s++) {
			_prio_ctx_t c;
			_row_t r = { "priority", "jobs",
				     mf_fs_algo_name(algos[a]), sizes[s], 0,
				     0, 0, 0, NAN };

			_prio_setup(&c, sizes[s], algos[a]);
			r.input_b = (double)c.bytes / c.n;
			_measure(_prio_cycle, &c, o->runs, &r);
			_prio_free(&c);
			_print_row(o, &r);
		}
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "max", required_argument, NULL, 'm' },
		{ "only", required_argument, NULL, 'o' },
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const long all[] = { 10000, 100000, 1000000 };
	_opts_t o = { 5, false, 1000000, { 0 } };
	const char *only = NULL;
	long sizes[3];
	int nsizes = 0, ch;
	char *end;

	while ((ch = getopt_long(argc, argv, "r:m:o:ch", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'r':
			o.runs = (int)strtol(optarg, &end, 10);
			if (*end || o.runs < 1 || o.runs > 1000) {
				fprintf(stderr, "bench_core: --runs '%s': "
					"want 1 to 1000\n", optarg);
				return 2;
			}
			break;
		case 'm':
			o.max = strtol(optarg, &end, 10);
			if (*end || o.max < all[0]) {
				fprintf(stderr, "bench_core: --max '%s': "
					"want %ld or more\n", optarg, all[0]);
				return 2;
			}
			break;
		case 'o':
			only = optarg;
			if (strcmp(only, "priority") && strcmp(only, "fs")) {
				fprintf(stderr, "bench_core: --only '%s': "
					"want priority or fs\n", only);
				return 2;
			}
			break;
		case 'c':
			o.csv = true;
			break;
		case 'h':
			_usage(stdout);
			return 0;
		default:
			_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bench_core: unexpected argument '%s'\n",
			argv[optind]);
		_usage(stderr);
		return 2;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(all); i++)
		if (all[i] <= o.max)
			sizes[nsizes++] = all[i];

	_print_header(&o);
	if (!only || !strcmp(only, "priority"))
		_bench_priority(&o, sizes, nsizes);
	if (!only || !strcmp(only, "fs"))
		_bench_fairshare(&o, sizes, nsizes);
	return 0;
}
