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
 * rank the tree on flat arrays (replay_fair_tree.h): the usage sums in
 * the order mf_tree_sum_usage() adds them, each level's keys computed as
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
#include "replay_fair_tree.h"
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

typedef struct {
	const mf_replay_t *r;
	mf_replay_out_t *out;
	mf_rft_t ft;
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
		mf_rft_init(&s->ft, r->tree, pos);
	g_hash_table_destroy(pos);
	for (size_t i = 0; i < r->job_cnt; i++)
		if (r->jobs[i].assoc >= r->assoc_cnt) {
			mf_rft_free(&s->ft);
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
		     !mf_rft_tick(&s->ft, s->own)))
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
	mf_rft_free(&s->ft);
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
