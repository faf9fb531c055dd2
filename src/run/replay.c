/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay: the tick loop of replay.h.
 *
 * The jobs running through a whole tick are not charged one by one: each
 * association keeps the sum of their billing (its rate), and the tick
 * charges rate x (the charge of one unit of billing over the tick), the
 * same figure mf_charge_compute() gives each of them, summed.  Only the
 * stretches that begin or end inside a tick are charged per job.  So a
 * tick costs the associations plus the jobs that start or end in it, not
 * every running job.
 *
 * Under Fair Tree, the ticks no caller sees (not sampled, not the last)
 * rank the tree on flat arrays (_ft_*): the usage sums in the order
 * mf_tree_sum_usage() adds them, each level's keys computed as
 * mf_fair_tree() computes them, each level kept sorted from one tick to
 * the next (insertion sort: the order barely moves between ticks) by
 * (level_fs, users first, the sibling's place), the total order whose
 * sort is the one the core's stable merge sort gives, and the ranks given
 * as it gives them, into a flat array of the jobs' fair-share factors
 * that the pricing reads (the tree is left as the last sample left it).
 * A NaN key (no total order) hands the tick to the core.  A year at a tick every five
 * minutes is 105,120 ticks: the core's full computation at each (sums,
 * shares, norms, a merge sort and an allocation per level) was most of a
 * replay's time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "job_fs_factor.h"
#include "level_fs.h"
#include "replay.h"
#include "shares_norm.h"
#include "usage_charge.h"

double mf_replay_job_fs(const mf_assoc_t *assoc, const mf_fs_config_t *fs)
{
	return mf_job_fs_factor(assoc, fs->algo, fs->damp);
}

/* The jobs of the events a few ahead are fetched while this one is
 * charged: they lie anywhere in a history of hundreds of megabytes. */
#if defined(__GNUC__)
#define PREFETCH_AHEAD(s, ev, n, k) do { \
		if ((k) + 16 < (n)) \
			__builtin_prefetch(&(s)->r->jobs[(ev)[(k) + 16].i]); \
	} while (0)
#else
#define PREFETCH_AHEAD(s, ev, n, k) do { } while (0)
#endif

/* Sort keys: the jobs' indices by a time (seconds after the first tick,
 * clamped into 32 bits: 8 bytes an event, a history has millions), then by
 * index. */
typedef struct {
	uint32_t t;
	uint32_t i;
} _ev_t;

/* Sort V (N events, built in increasing index) by time, then index: a
 * stable radix sort of the times, two passes of 16 bits (a qsort of ten
 * million events took seconds), TMP holding N. */
static void _by_time_sort(_ev_t *v, size_t n, _ev_t *tmp)
{
	size_t *cnt = g_new(size_t, 1 << 16);

	for (int shift = 0; shift < 32; shift += 16) {
		size_t sum = 0;

		memset(cnt, 0, sizeof(size_t) << 16);
		for (size_t i = 0; i < n; i++)
			cnt[(v[i].t >> shift) & 0xffff]++;
		for (size_t b = 0; b < 1 << 16; b++) {
			size_t c = cnt[b];

			cnt[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[cnt[(v[i].t >> shift) & 0xffff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
	g_free(cnt);
}

/* A pending job at a tick, for ranks: a key that orders the highest
 * priority first, then the lowest job id. */
static inline uint64_t _rank_key(uint32_t priority, uint32_t job_id)
{
	return (uint64_t)(UINT32_MAX - priority) << 32 | job_id;
}

/* Sort V (N keys) ascending: quicksort, insertion sort for the short
 * runs (qsort() and its comparisons through a pointer were a tenth of a
 * replay's time). */
static void _sort_keys(uint64_t *v, size_t n)
{
	while (n > 16) {
		uint64_t a = v[0], b = v[n / 2], c = v[n - 1], pivot, t;
		size_t i = 0, j = n - 1;

		pivot = a < b ? (b < c ? b : a < c ? c : a) :
				(a < c ? a : b < c ? c : b);
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			t = v[i];
			v[i++] = v[j];
			v[j--] = t;
		}
		/* [0, j] and [j + 1, n): the shorter one first */
		if (j + 1 < n - j - 1) {
			_sort_keys(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			_sort_keys(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* The charge of BILLING over [FROM, TO] of a job that started at START
 * (and ends at END, 0: running), D the per-second decay. */
static long double _charge(double billing, time_t start, time_t end,
			   time_t from, time_t to, double d)
{
	mf_charge_job_t in = { .start = start, .end = end,
			       .ended = end != 0, .billable = billing,
			       .usage_factor = 1.0 };
	mf_charge_t c;

	mf_charge_bind(&c, 0, NULL, NULL);
	mf_charge_compute(&in, from, to, d, &c);
	return c.raw[MF_CHARGE_DECAYED];
}

/* T as an event time: seconds after R's first tick, 0 before it. */
static uint32_t _off(const mf_replay_t *r, int64_t t)
{
	if (t <= (int64_t)r->first)
		return 0;
	if (t - (int64_t)r->first > (int64_t)UINT32_MAX)
		return UINT32_MAX;
	return (uint32_t)(t - (int64_t)r->first);
}

/* When job J is charged from: its start, or FIRST if earlier. */
static int64_t _eff_start(const mf_replay_job_t *j, time_t first)
{
	return j->start < first ? first : j->start;
}

/* Fair Tree on flat arrays (positions in tree->order). */
typedef struct {
	uint32_t owner;          /* the fs_parent of the level */
	uint32_t first, cnt;     /* its fs_children: kid[first, first + cnt) */
} _ft_lvl_t;

enum { FT_ACCOUNT, FT_USER, FT_PARENT_ACCOUNT, FT_PARENT_USER };

typedef struct {
	bool on;
	uint32_t n, users, root;
	uint32_t *sum_p;         /* the accounts, in post-order */
	uint32_t *sum_first, *sum_cnt;  /* their children in add_c */
	uint32_t *add_c;
	uint32_t n_sum, n_add;
	long double *u;          /* usage_raw, summed */
	long double *lfs;        /* level_fs */
	double *sn;              /* shares_norm (constant over a replay) */
	uint8_t *kind;
	uint32_t *orig;          /* place among its siblings (fs_children) */
	uint32_t *lvl;           /* an account's level (UINT32_MAX: none) */
	_ft_lvl_t *lvls;
	uint32_t n_lvls;
	uint32_t *kid;           /* each level's children, last tick's order */
	uint32_t *tmp;           /* merge sort scratch */
	double *fs;              /* mf_replay_job_fs() of each, this tick */
	double *of_rank;         /* rank / users, for each rank */
	mf_assoc_t **a;          /* tree->order */
} _ft_t;

typedef struct {
	const mf_replay_t *r;
	mf_replay_out_t *out;
	_ft_t ft;
	uint32_t *aidx;          /* assoc index -> position in tree->order */
	long double *own;        /* charged to each association itself */
	long double *rate;       /* billing running through, per position */
	uint32_t *running;       /* jobs in rate, per position */
	_ev_t *starts, *ends, *elig;
	size_t n_starts, n_ends, n_elig;
	size_t p_start, p_end, p_elig, p_next;   /* cursors */
	GArray *pending;         /* uint32_t job indices */
	uint64_t *ranked;        /* _rank_key()s */
	size_t ranked_cap;
	bool reset_done;
} _run_t;

/* Build the event arrays. */
static void _events(_run_t *s)
{
	const mf_replay_t *r = s->r;
	size_t ns = 0, ne = 0, nl = 0;
	_ev_t *tmp;

	/* counted first: each array as long as it needs */
	for (size_t i = 0; i < r->job_cnt; i++) {
		const mf_replay_job_t *j = &r->jobs[i];

		if (r->price && j->eligible && j->eligible <= r->last)
			nl++;
		if (!j->start || j->start > r->last ||
		    (j->end && j->end <= r->first))
			continue;
		ns++;
		if (j->end && j->end <= r->last)
			ne++;
	}
	s->starts = g_new(_ev_t, ns ? ns : 1);
	s->ends = g_new(_ev_t, ne ? ne : 1);
	s->elig = g_new(_ev_t, nl ? nl : 1);
	for (size_t i = 0; i < r->job_cnt; i++) {
		const mf_replay_job_t *j = &r->jobs[i];

		if (r->price && j->eligible && j->eligible <= r->last)
			s->elig[s->n_elig++] = (_ev_t) {
				_off(r, j->eligible), (uint32_t)i };
		if (!j->start || j->start > r->last ||
		    (j->end && j->end <= r->first))
			continue;
		s->starts[s->n_starts++] = (_ev_t) {
			_off(r, _eff_start(j, r->first)), (uint32_t)i };
		if (j->end && j->end <= r->last)
			s->ends[s->n_ends++] = (_ev_t) { _off(r, j->end),
							 (uint32_t)i };
	}
	tmp = g_new(_ev_t, MAX(MAX(ns, ne), MAX(nl, 1)));
	_by_time_sort(s->starts, s->n_starts, tmp);
	_by_time_sort(s->ends, s->n_ends, tmp);
	_by_time_sort(s->elig, s->n_elig, tmp);
	g_free(tmp);
}

/* Steps 1-3 of a tick at NOW after PREV (F: this tick's decay). */
static void _usage(_run_t *s, time_t prev, time_t now, double d, double f)
{
	const mf_replay_t *r = s->r;
	const mf_replay_conf_t *c = r->conf;
	guint n = r->tree->order->len;
	long double unit;
	double at_end = c->charge_at_end ? f : 1.0;
	uint32_t now_off = _off(r, now);

	for (guint i = 0; i < n; i++)
		s->own[i] *= f;

	/* jobs charged since before PREV that ended in (PREV, NOW] */
	for (; s->p_end < s->n_ends && s->ends[s->p_end].t <= now_off;
	     s->p_end++) {
		const mf_replay_job_t *j = &r->jobs[s->ends[s->p_end].i];
		int64_t es = _eff_start(j, r->first);
		uint32_t a = s->aidx[j->assoc];

		PREFETCH_AHEAD(s, s->ends, s->n_ends, s->p_end);
		if (es > prev)
			continue;       /* started in this tick: below */
		if (!--s->running[a])
			s->rate[a] = 0;
		else
			s->rate[a] -= j->billing;
		s->own[a] += at_end * _charge(j->billing, (time_t)es,
					      (time_t)j->end, prev, now, d);
	}

	/* the jobs running through the whole tick, by association */
	unit = _charge(1.0, prev, 0, prev, now, d);
	for (guint i = 0; i < n; i++)
		if (s->running[i])
			s->own[i] += s->rate[i] * unit;

	/* jobs that started in (PREV, NOW] */
	for (; s->p_start < s->n_starts && s->starts[s->p_start].t <= now_off;
	     s->p_start++) {
		const mf_replay_job_t *j = &r->jobs[s->starts[s->p_start].i];
		int64_t es = _eff_start(j, r->first);
		uint32_t a = s->aidx[j->assoc];

		PREFETCH_AHEAD(s, s->starts, s->n_starts, s->p_start);
		if (j->end && j->end <= now) {
			s->own[a] += at_end * _charge(j->billing, (time_t)es,
						      (time_t)j->end, prev,
						      now, d);
			continue;
		}
		s->own[a] += _charge(j->billing, (time_t)es, 0, prev, now, d);
		s->rate[a] += j->billing;
		s->running[a]++;
	}
}

/* The jobs that started before or at the first tick and still run: in
 * the rates from the first tick on. */
static void _first_tick(_run_t *s, time_t first)
{
	for (; s->p_start < s->n_starts && s->starts[s->p_start].t == 0;
	     s->p_start++) {
		const mf_replay_job_t *j = &s->r->jobs[s->starts[s->p_start].i];
		uint32_t a = s->aidx[j->assoc];

		if (j->end && j->end <= first)
			continue;
		s->rate[a] += j->billing;
		s->running[a]++;
	}
	/* ends at or before the first tick were left out of the events */
}

/* Step 4: the tree's usage from OWN, and fair-share. */
static void _fairshare(_run_t *s)
{
	mf_tree_t *t = s->r->tree;

	for (guint i = 0; i < t->order->len; i++)
		((mf_assoc_t *)t->order->pdata[i])->usage_raw = s->own[i];
	mf_tree_sum_usage(t);
	/* the same algorithm writes the same results every time: a reset
	 * (NAN everywhere) is needed once, not at every tick (it was a sixth
	 * of a tick's time) */
	if (!s->reset_done) {
		mf_tree_reset_results(t);
		s->reset_done = true;
	}
	mf_fairshare_compute(t, &s->r->conf->fs);
	if (s->ft.on)
		for (uint32_t p = 0; p < s->ft.n; p++)
			s->ft.fs[p] = mf_replay_job_fs(s->ft.a[p],
						       &s->r->conf->fs);
}

/* --- Fair Tree between samples ------------------------------------- */

/* mf_tree_sum_usage()'s sums: an account's usage is its own plus each
 * child's whole subtree, child after child (the children's sums done
 * first).  The accounts in an order where each comes after its
 * descendants (post-order), each with its children. */
static void _ft_sum_prog(_ft_t *f, GHashTable *pos, const mf_assoc_t *a)
{
	uint32_t first;

	if (!a->children)
		return;
	for (guint i = 0; i < a->children->len; i++)
		_ft_sum_prog(f, pos, a->children->pdata[i]);
	first = f->n_add;
	for (guint i = 0; i < a->children->len; i++)
		f->add_c[f->n_add++] = GPOINTER_TO_UINT(
			g_hash_table_lookup(pos, a->children->pdata[i])) - 1;
	f->sum_p[f->n_sum] = GPOINTER_TO_UINT(g_hash_table_lookup(pos, a)) - 1;
	f->sum_first[f->n_sum] = first;
	f->sum_cnt[f->n_sum++] = a->children->len;
}

/* Ready the flat Fair Tree of tree T (POS: association -> position + 1). */
static void _ft_init(_ft_t *f, mf_tree_t *t, GHashTable *pos)
{
	uint32_t n = t->order->len, nk = 0;

	f->n = n;
	f->users = t->user_count;
	f->a = (mf_assoc_t **)t->order->pdata;
	f->root = GPOINTER_TO_UINT(g_hash_table_lookup(pos, t->root)) - 1;
	f->add_c = g_new(uint32_t, n);
	f->sum_p = g_new(uint32_t, n);
	f->sum_first = g_new(uint32_t, n);
	f->sum_cnt = g_new(uint32_t, n);
	_ft_sum_prog(f, pos, t->root);
	f->u = g_new(long double, n);
	f->lfs = g_new(long double, n);
	f->sn = g_new(double, n);
	f->kind = g_new(uint8_t, n);
	f->orig = g_new0(uint32_t, n);
	f->lvl = g_new(uint32_t, n);
	f->lvls = g_new(_ft_lvl_t, n);
	f->kid = g_new(uint32_t, n);
	f->tmp = g_new(uint32_t, n);
	f->fs = g_new0(double, n);
	f->of_rank = g_new(double, (gsize)f->users + 1);
	for (uint32_t k = 0; k <= f->users; k++)
		f->of_rank[k] = (double)k / (double)f->users;
	/* shares depend on the shape only: once for the whole replay */
	mf_shares_norm(t, MF_SHARES_LOCAL);
	for (uint32_t p = 0; p < n; p++) {
		const mf_assoc_t *a = f->a[p];

		f->sn[p] = a->shares_norm;
		f->kind[p] = (uint8_t)((a->user ? FT_USER : FT_ACCOUNT) +
				       (mf_assoc_is_parent_fs(a) ? 2 : 0));
		f->lvl[p] = UINT32_MAX;
		if (!a->fs_children)
			continue;
		f->lvl[p] = f->n_lvls;
		f->lvls[f->n_lvls++] = (_ft_lvl_t) { p, nk, a->fs_children->len };
		for (guint i = 0; i < a->fs_children->len; i++) {
			uint32_t c = GPOINTER_TO_UINT(g_hash_table_lookup(
				pos, a->fs_children->pdata[i])) - 1;

			f->orig[c] = i;
			f->kid[nk++] = c;
		}
	}
	f->on = f->lvl[f->root] != UINT32_MAX;
}

static void _ft_free(_ft_t *f)
{
	g_free(f->add_c);
	g_free(f->sum_p);
	g_free(f->sum_first);
	g_free(f->sum_cnt);
	g_free(f->u);
	g_free(f->lfs);
	g_free(f->sn);
	g_free(f->kind);
	g_free(f->orig);
	g_free(f->lvl);
	g_free(f->lvls);
	g_free(f->kid);
	g_free(f->tmp);
	g_free(f->fs);
	g_free(f->of_rank);
}

static inline bool _ft_is_user(const _ft_t *f, uint32_t p)
{
	return f->kind[p] == FT_USER || f->kind[p] == FT_PARENT_USER;
}

/* Does X come before Y?  The core's order (level_fs high first, users
 * before accounts on a tie), ties left in the siblings' own order. */
static inline bool _ft_before(const _ft_t *f, uint32_t x, uint32_t y)
{
	if (f->lfs[x] != f->lfs[y])
		return f->lfs[x] > f->lfs[y];
	if (_ft_is_user(f, x) != _ft_is_user(f, y))
		return _ft_is_user(f, x);
	return f->orig[x] < f->orig[y];
}

static void _ft_merge_sort(const _ft_t *f, uint32_t *v, uint32_t n,
			   uint32_t *tmp)
{
	uint32_t half = n / 2, i = 0, j = half, k = 0;

	if (n <= 1)
		return;
	_ft_merge_sort(f, v, half, tmp);
	_ft_merge_sort(f, v + half, n - half, tmp);
	while (i < half && j < n)
		tmp[k++] = _ft_before(f, v[j], v[i]) ? v[j++] : v[i++];
	while (i < half)
		tmp[k++] = v[i++];
	memcpy(v, tmp, k * sizeof(*v));
}

/* Sort V (N positions): insertion sort while it costs little (last tick's
 * order is nearly this one's), else a merge sort. */
static void _ft_sort(const _ft_t *f, uint32_t *v, uint32_t n, uint32_t *tmp)
{
	size_t budget = 4 * (size_t)n + 16;

	for (uint32_t i = 1; i < n; i++) {
		uint32_t x = v[i], j = i;

		while (j > 0 && _ft_before(f, x, v[j - 1])) {
			v[j] = v[j - 1];
			j--;
			if (!--budget) {
				v[j] = x;
				_ft_merge_sort(f, v, n, tmp);
				return;
			}
		}
		v[j] = x;
	}
}

typedef struct {
	uint32_t rank, next;
} _ft_rank_t;

/* _rank_level() of level L (level_fs.c).  False on a NaN key. */
static bool _ft_level(_ft_t *f, uint32_t l, _ft_rank_t *r, bool tied_in)
{
	const _ft_lvl_t *lv = &f->lvls[l];
	uint32_t *k = f->kid + lv->first;
	long double parent_raw = f->u[lv->owner];
	long double prev = MF_LEVEL_FS_UNSET;

	for (uint32_t i = 0; i < lv->cnt; i++) {
		uint32_t p = k[i];
		long double x;

		switch (f->kind[p]) {
		case FT_PARENT_USER:
			x = (long double)INFINITY;
			break;
		case FT_PARENT_ACCOUNT:
			x = MF_LEVEL_FS_UNSET;
			break;
		default:
			if (f->sn[p] == 0.0) {
				x = 0.0L;
			} else {
				long double efctv = parent_raw != 0.0L ?
					f->u[p] / parent_raw : 0.0L;

				x = (long double)f->sn[p] / efctv;
			}
		}
		if (isnan(x))
			return false;
		f->lfs[p] = x;
	}
	_ft_sort(f, k, lv->cnt, f->tmp);
	for (uint32_t i = 0; i < lv->cnt; i++) {
		uint32_t p = k[i];
		bool tied = (i == 0 && tied_in) ? true : prev == f->lfs[p];

		if (_ft_is_user(f, p)) {
			if (!tied)
				r->rank = r->next;
			f->fs[p] = f->of_rank[r->rank];
			r->next--;
		} else if (f->lvl[p] != UINT32_MAX &&
			   !_ft_level(f, f->lvl[p], r, tied)) {
			return false;
		}
		prev = f->lfs[p];
	}
	return true;
}

/* The job fair-share factor of every association (FS) of a tick from OWN,
 * as _fairshare() and mf_replay_job_fs() give them (an account's is 0, as
 * Fair Tree gives accounts none: left as the core's last tick set it).
 * False: not done (a NaN), the core must do it. */
static bool _ft_tick(_ft_t *f, const long double *own)
{
	_ft_rank_t r = { f->users, f->users };

	memcpy(f->u, own, f->n * sizeof(*own));
	for (uint32_t k = 0; k < f->n_sum; k++) {
		const uint32_t *c = f->add_c + f->sum_first[k];
		long double sum = f->u[f->sum_p[k]];

		for (uint32_t i = 0; i < f->sum_cnt[k]; i++)
			sum += f->u[c[i]];
		f->u[f->sum_p[k]] = sum;
	}
	return _ft_level(f, f->lvl[f->root], &r, false);
}

/* Is job J pending at NOW? */
static bool _is_pending(const mf_replay_job_t *j, time_t now)
{
	if (!j->eligible || j->eligible > now)
		return false;
	if (j->start && j->start <= now)
		return false;
	return !(j->end && j->end <= now);
}

/* Step 5, first half: the jobs pending at NOW.  Returns how many of them
 * start by NEXT. */
static size_t _pending(_run_t *s, time_t now, time_t next)
{
	const mf_replay_t *r = s->r;
	GArray *p = s->pending;
	uint32_t now_off = _off(r, now);
	size_t starting = 0, k = 0;

	if (!r->price)
		return 0;
	/* the newly eligible join; the started and ended leave */
	for (; s->p_elig < s->n_elig && s->elig[s->p_elig].t <= now_off;
	     s->p_elig++)
		g_array_append_val(p, s->elig[s->p_elig].i);
	for (guint i = 0; i < p->len; i++) {
		uint32_t ji = g_array_index(p, uint32_t, i);
		const mf_replay_job_t *j = &r->jobs[ji];

		if (!_is_pending(j, now))
			continue;
		g_array_index(p, uint32_t, k++) = ji;
		if (j->start && j->start <= next)
			starting++;
	}
	g_array_set_size(p, (guint)k);
	return starting;
}

/* Step 5, second half: every pending job's priority at NOW; the ones
 * that start by NEXT keep theirs and get their rank. */
static void _priorities(_run_t *s, time_t now, time_t next)
{
	const mf_replay_t *r = s->r;
	GArray *p = s->pending;

	if (s->ranked_cap < p->len) {
		s->ranked_cap = p->len * 2;
		s->ranked = g_renew(uint64_t, s->ranked, s->ranked_cap);
	}
	for (guint i = 0; i < p->len; i++) {
		uint32_t ji = g_array_index(p, uint32_t, i);
		const mf_replay_job_t *j = &r->jobs[ji];
		double fs = s->ft.on ? s->ft.fs[s->aidx[j->assoc]] :
			    mf_replay_job_fs(r->assoc[j->assoc], &r->conf->fs);
		uint32_t prio = r->price(j, fs, now, r->arg);

		s->ranked[i] = _rank_key(prio, j->job_id);
		if (j->start && j->start <= next) {
			s->out[ji].priority = prio;
			s->out[ji].fs = (float)fs;
			s->out[ji].pending = p->len;
		}
	}
	_sort_keys(s->ranked, p->len);
	for (guint i = 0; i < p->len; i++) {
		uint32_t ji = g_array_index(p, uint32_t, i);
		const mf_replay_job_t *j = &r->jobs[ji];
		uint64_t key = _rank_key(s->out[ji].priority, j->job_id);
		size_t lo = 0, hi = p->len;

		if (!j->start || j->start > next)
			continue;
		while (lo < hi) {       /* first entry not before KEY */
			size_t mid = (lo + hi) / 2;

			if (s->ranked[mid] < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		s->out[ji].rank = (uint32_t)lo + 1;
	}
}

/* S's index of each association of the run into the tree's order (and,
 * for Fair Tree, its fast path set up), after checking that every job's
 * association is one of the run's.  Returns 0, or -1 with ERRP set (S
 * left with nothing to free). */
static int _run_index(_run_t *s, mf_error_t *errp)
{
	const mf_replay_t *r = s->r;
	guint n = r->tree->order->len;
	GHashTable *pos = g_hash_table_new(g_direct_hash, g_direct_equal);

	for (guint i = 0; i < n; i++)
		g_hash_table_insert(pos, r->tree->order->pdata[i],
				    GUINT_TO_POINTER(i + 1));
	s->aidx = g_new(uint32_t, r->assoc_cnt ? r->assoc_cnt : 1);
	for (uint32_t i = 0; i < r->assoc_cnt; i++) {
		guint p = GPOINTER_TO_UINT(g_hash_table_lookup(pos,
							       r->assoc[i]));

		if (!p) {
			g_hash_table_destroy(pos);
			g_free(s->aidx);
			return mf_errprintf(errp, "replay: association %u is "
					    "not in the tree", i);
		}
		s->aidx[i] = p - 1;
	}
	if (r->conf->fs.algo == MF_FS_FAIR_TREE)
		_ft_init(&s->ft, r->tree, pos);
	g_hash_table_destroy(pos);
	for (size_t i = 0; i < r->job_cnt; i++)
		if (r->jobs[i].assoc >= r->assoc_cnt) {
			_ft_free(&s->ft);
			g_free(s->aidx);
			return mf_errprintf(errp, "replay: job %u: association "
					    "index %u out of range",
					    r->jobs[i].job_id,
					    r->jobs[i].assoc);
		}
	return 0;
}

/* Run the ticks of S from the period's first to its last: usage, decay
 * and resets, the pending jobs' priorities where one starts, fair share
 * where read, the samples.  Returns the number of ticks. */
static long _run_ticks(_run_t *s)
{
	const mf_replay_t *r = s->r;
	const mf_replay_conf_t *c = r->conf;
	guint n = r->tree->order->len;
	time_t now, prev = 0, last_reset, boundary;
	double d = mf_decay_factor(c->half_life);
	long ticks = 0;

	last_reset = c->last_reset ? c->last_reset : r->first;
	for (now = r->first; now <= r->last; now += c->calc_period) {
		bool last = now + c->calc_period > r->last;
		bool sample = last || r->sample_every <= 1 ||
			      ticks % r->sample_every == 0;
		size_t starting;

		if (!ticks) {
			_first_tick(s, now);
		} else {
			if (mf_reset_due(c->reset, last_reset, now,
					 &boundary)) {
				memset(s->own, 0, n * sizeof(*s->own));
				last_reset = boundary;
			}
			_usage(s, prev, now, d,
			       mf_decay_over(d, difftime(now, prev)));
		}
		/* fair-share only when something reads it: the tree's usage
		 * is not made of it */
		starting = _pending(s, now, now + c->calc_period);
		if ((starting || sample) &&
		    (sample || !s->reset_done || !s->ft.on ||
		     !_ft_tick(&s->ft, s->own)))
			_fairshare(s);
		if (starting)
			_priorities(s, now, now + c->calc_period);
		if (sample && r->on_tick)
			r->on_tick(now, (uint32_t)ticks, r->tree, r->arg);
		prev = now;
		ticks++;
	}
	return ticks;
}

/* Free what the run S holds.  Returns nothing. */
static void _run_free(_run_t *s)
{
	_ft_free(&s->ft);
	g_free(s->aidx);
	g_free(s->own);
	g_free(s->rate);
	g_free(s->running);
	g_free(s->starts);
	g_free(s->ends);
	g_free(s->elig);
	g_free(s->ranked);
	g_array_free(s->pending, TRUE);
}

long mf_replay_run(const mf_replay_t *r, mf_replay_out_t *out,
		   mf_error_t *errp)
{
	const mf_replay_conf_t *c = r->conf;
	_run_t s = { .r = r, .out = out };
	guint n;
	long ticks;

	if (!c->calc_period)
		return mf_errprintf(errp, "replay: a calc period of 0");
	if (r->last < r->first)
		return mf_errprintf(errp, "replay: the period ends before it "
				    "starts");
	if ((int64_t)r->last - (int64_t)r->first >= (int64_t)UINT32_MAX)
		return mf_errprintf(errp, "replay: a period of over 136 years");
	if (_run_index(&s, errp))
		return -1;
	n = r->tree->order->len;
	memset(out, 0, r->job_cnt * sizeof(*out));
	s.own = g_new0(long double, n);
	s.rate = g_new0(long double, n);
	s.running = g_new0(uint32_t, n);
	s.pending = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	_events(&s);
	ticks = _run_ticks(&s);
	_run_free(&s);
	return ticks;
}
