/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_sides: the two sides of `mfprio replay` (replay_sides.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_status.h"
#include "priority_flags.h"
#include "replay_sides.h"
#include "settings.h"
#include "slurm_release.h"

const char mf_replay_note[] =
	"the schedule is replayed as it happened: no job starts earlier or "
	"later under the other settings (no re-simulation)";

/* --- settings -------------------------------------------------------- */

static bool _at_end_of(const mf_conf_t *conf)
{
	const mf_conf_pair_t *p = mf_conf_get(conf, "AccountingStorageEnforce");
	char **w;
	bool yes = false;

	if (!p)
		return false;
	w = g_strsplit(p->value, ",", -1);
	for (int i = 0; w[i]; i++) {
		char *x = g_strstrip(w[i]);

		if (!g_ascii_strcasecmp(x, "limits") ||
		    !g_ascii_strcasecmp(x, "safe") ||
		    !g_ascii_strcasecmp(x, "qos") ||
		    !g_ascii_strcasecmp(x, "all"))
			yes = true;
	}
	g_strfreev(w);
	return yes;
}

/* Read the conf PATH with SETS (may be NULL) into S (settings.h); *CLUSTER
 * set from the conf if CLUSTER is given and *CLUSTER is NULL.  Returns an
 * exit status. */
int mf_rside_settings(mf_rside_t *s, const char *path, const mf_conf_t *sets,
		     int at_end, bool quiet, char **cluster)
{
	mf_settings_in_t in = { .conf = path,
				.sets = sets ? sets->globals : NULL };
	mf_settings_t set = { 0 };
	mf_error_t e;

	if (mf_settings_read(&set, &in, &e)) {
		mf_print_error("%s", e.text);
		mf_settings_clear(&set);
		return MF_EXIT_INPUT;
	}
	if (cluster && !*cluster)
		*cluster = g_steal_pointer(&set.cluster);
	s->rc.charge_at_end = at_end < 0 ? _at_end_of(set.conf) : at_end;
	mf_settings_warn(&set, quiet ? MF_SETTINGS_WARN_SETS :
			 MF_SETTINGS_WARN_ALL);
	s->pc = g_steal_pointer(&set.pc);
	mf_prio_conf_to_config(s->pc, &s->cfg);
	s->cfg.release = set.rel.release;
	mf_settings_clear(&set);
	s->rc.calc_period = s->pc->calc_period ? s->pc->calc_period : 60;
	s->rc.half_life = s->pc->decay_half_life;
	s->rc.reset = s->pc->reset_period;
	s->rc.fs.algo = mf_priority_flags_algo(s->pc->flags);
	s->rc.fs.damp = s->pc->fs_damp;
	return MF_EXIT_OK;
}

/* --share ARG into the finalized TREE: its raw shares, and the level
 * shares of its siblings redone.  Returns 0, or -1 after printing why. */
int mf_rside_share(mf_tree_t *tree, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *name, *slash, *end;
	unsigned long v;
	mf_assoc_t *a, *p;
	uint32_t sum = 0;

	if (!eq || eq == arg) {
		mf_print_error("--share '%s': not ACCOUNT=N or ACCOUNT/USER=N",
			     arg);
		return -1;
	}
	v = strtoul(eq + 1, &end, 10);
	if (!g_ascii_isdigit(eq[1]) || *end || v >= MF_SHARES_PARENT) {
		mf_print_error("--share '%s': the shares are not a whole number "
			     "(FairShare=parent is not taken here)", arg);
		return -1;
	}
	name = g_strndup(arg, (gsize)(eq - arg));
	slash = strchr(name, '/');
	if (slash) {
		*slash = '\0';
		a = mf_tree_find_user(tree, name, slash + 1);
	} else {
		a = mf_tree_find_account(tree, name);
	}
	if (!a || !a->fs_parent || mf_assoc_is_parent_fs(a)) {
		mf_print_error("--share '%s': %s", arg, !a ?
			     "no such association in the snapshot" :
			     "root's and FairShare=parent associations' "
			     "shares are not changed here");
		g_free(name);
		return -1;
	}
	g_free(name);
	a->shares_raw = (uint32_t)v;
	p = a->fs_parent;
	for (guint j = 0; j < p->fs_children->len; j++) {
		mf_assoc_t *c = p->fs_children->pdata[j];

		if (!mf_assoc_is_parent_fs(c))
			sum += c->shares_raw;
	}
	for (guint j = 0; j < p->fs_children->len; j++)
		((mf_assoc_t *)p->fs_children->pdata[j])->level_shares = sum;
	return 0;
}

/* The associations the history's jobs are charged to in S's tree; warns
 * once per missing one when WARN.  */
static void _map_assocs(mf_rside_t *s, const mf_sacct_t *h, bool warn)
{
	uint32_t n = h->acct->len;
	uint32_t *first_line = g_new0(uint32_t, n ? n : 1);

	for (guint i = 0; i < h->jobs->len; i++) {
		const mf_replay_job_t *j = &g_array_index(h->jobs,
							  mf_replay_job_t, i);

		if (!first_line[j->assoc])
			first_line[j->assoc] = j->line;
	}
	s->assoc = g_new0(mf_assoc_t *, n ? n : 1);
	for (uint32_t i = 0; i < n; i++) {
		const char *acct = h->acct->pdata[i];
		const char *user = h->user->pdata[i];
		mf_assoc_t *a = mf_tree_find_job_assoc(s->tree, acct, user,
						       h->assoc_part->pdata[i]);

		if (!a) {
			a = mf_tree_find_account(s->tree, acct);
			if (!a)
				a = s->tree->root;
			if (warn)
				fprintf(stderr, "mfprio: warning: %s:%u: "
					"user %s in account %s is not in the "
					"snapshot's association tree: its "
					"jobs' usage is counted to account %s\n",
					h->path, first_line[i], user, acct,
					a->acct);
		}
		s->assoc[i] = a;
	}
	g_free(first_line);
}

static void _map_parts_qos(mf_rside_t *s, const mf_sacct_t *h, GHashTable *qos)
{
	s->part = g_new0(const mf_part_t *, h->part->len ? h->part->len : 1);
	for (guint i = 0; i < h->part->len; i++) {
		const char *name = h->part->pdata[i];
		/* a job queued in several partitions shows them all, the one
		 * it ran in first once it started: take the first */
		char *first = g_strndup(name, strcspn(name, ","));
		const mf_conf_part_t *cp = mf_prio_conf_find_part(s->pc,
								   first);

		s->part[i] = cp ? &cp->part : NULL;
		g_free(first);
	}
	s->qos_prio = g_new0(uint32_t, h->qos->len ? h->qos->len : 1);
	for (guint i = 0; qos && i < h->qos->len; i++)
		s->qos_prio[i] = GPOINTER_TO_UINT(
			g_hash_table_lookup(qos, h->qos->pdata[i]));
}

/* --- the replay ------------------------------------------------------ */

static uint32_t _price(const mf_replay_job_t *j, double fs, time_t now,
		       void *arg)
{
	mf_rside_t *s = arg;
	mf_prio_job_t *pj = &s->pj;

	/* the fields of a job; the others stay as _price_init() set them
	 * (mf_priority_compute() does not write the job, and sets every
	 * field of a bound result) */
	pj->job_id = j->job_id;
	pj->min_nodes = j->nodes;
	pj->cpu_cnt = j->cpus;
	pj->qos_priority = s->qos_prio[j->qos];
	pj->submit_time = (time_t)j->submit;
	pj->begin_time = (time_t)j->eligible;
	pj->accrue_time = (s->pc->flags & MF_FLAG_ACCRUE_ALWAYS) &&
			  j->submit ? (time_t)j->submit : (time_t)j->eligible;
	pj->part = s->part[j->part];
	pj->fs_factor = fs;
	return mf_priority_compute(&s->cfg, pj, now, &s->pr);
}

static void _price_init(mf_rside_t *s)
{
	memset(&s->pj, 0, sizeof(s->pj));
	s->pj.time_limit = MF_NO_VAL;
	s->pj.has_qos = true;
	mf_prio_result_bind(&s->pr, 0, NULL);
}

static void _on_tick(time_t now, uint32_t tick, const mf_tree_t *tree,
		     void *arg)
{
	mf_rside_t *s = arg;

	(void)tick;
	g_array_append_val(s->times, now);
	for (guint u = 0; u < s->users->len; u++) {
		const mf_assoc_t *a = tree->order->pdata[
			GPOINTER_TO_UINT(s->users->pdata[u])];
		float f = (float)mf_replay_job_fs(a, &s->rc.fs);
		double us = (double)a->usage_raw;

		g_array_append_val(s->fs, f);
		g_array_append_val(s->usage, us);
	}
}

/* Replay side S (a GThreadFunc: the two sides run side by side, each on
 * its own tree; only the history is shared, read-only). */
gpointer mf_rside_run(gpointer arg)
{
	mf_rside_t *s = arg;
	const mf_sacct_t *h = s->h;
	mf_replay_t r = {
		.conf = &s->rc, .tree = s->tree,
		.assoc = s->assoc, .assoc_cnt = h->acct->len,
		.jobs = (const mf_replay_job_t *)(void *)h->jobs->data,
		.job_cnt = h->jobs->len, .first = s->from, .last = s->to,
		.price = _price, .on_tick = _on_tick, .arg = s,
		.sample_every = s->every,
	};
	mf_error_t e;

	_price_init(s);
	if (mf_replay_run(&r, s->out, &e) < 0) {
		mf_print_error("%s", e.text);
		s->status = MF_EXIT_INPUT;
	}
	return NULL;
}

/* Ready side S to replay [FROM, TO]. */
static void _prepare(mf_rctx_t *c, mf_rside_t *s, time_t from, time_t to,
		     uint32_t every)
{
	s->h = c->h;
	s->users = c->users;
	s->from = from;
	s->to = to;
	s->ticks = (long)((to - from) / s->rc.calc_period) + 1;
	s->every = every ? every : (uint32_t)(s->ticks / 500 + 1);
	s->out = g_new(mf_replay_out_t, c->h->jobs->len ? c->h->jobs->len : 1);
	s->times = g_array_new(FALSE, FALSE, sizeof(time_t));
	s->fs = g_array_new(FALSE, FALSE, sizeof(float));
	s->usage = g_array_new(FALSE, FALSE, sizeof(double));
}

/* Ready both sides of C to replay FROM to TO: the user associations, the
 * highest QOS priority of QOS (may be NULL), the maps from the history
 * into each tree.  Returns nothing. */
void mf_rctx_prepare(mf_rctx_t *c, GHashTable *qos, time_t from, time_t to,
		     uint32_t every)
{
	c->users = g_ptr_array_new();
	for (guint i = 0; i < c->s[0].tree->order->len; i++)
		if (((mf_assoc_t *)c->s[0].tree->order->pdata[i])->user)
			g_ptr_array_add(c->users, GUINT_TO_POINTER(i));
	for (int side = 0; side < 2; side++) {
		mf_rside_t *s = &c->s[side];
		GHashTableIter it;
		gpointer k, v;

		if (qos) {
			g_hash_table_iter_init(&it, qos);
			while (g_hash_table_iter_next(&it, &k, &v))
				if (GPOINTER_TO_UINT(v) >
				    s->cfg.qos_max_priority)
					s->cfg.qos_max_priority =
						GPOINTER_TO_UINT(v);
		}
		_map_assocs(s, c->h, !side);
		_map_parts_qos(s, c->h, qos);
		_prepare(c, s, from, to, every);
	}
}

const mf_assoc_t *mf_rctx_user(const mf_rctx_t *c, int side, guint u)
{
	return c->s[side].tree->order->pdata[
		GPOINTER_TO_UINT(c->users->pdata[u])];
}

/* The sample of side 1 in force at side 0's sample K: the latest at or
 * before its time (the first if none). */
guint mf_rctx_after_sample(const mf_rctx_t *c, guint k, guint *cursor)
{
	const GArray *t0 = c->s[0].times, *t1 = c->s[1].times;
	time_t t = g_array_index(t0, time_t, k);

	while (*cursor + 1 < t1->len &&
	       g_array_index(t1, time_t, *cursor + 1) <= t)
		(*cursor)++;
	return *cursor;
}

float mf_rside_fs_at(const mf_rside_t *s, guint users, guint k, guint u)
{
	return g_array_index(s->fs, float, (gsize)k * users + u);
}

double mf_rside_usage_at(const mf_rside_t *s, guint users, guint k, guint u)
{
	return g_array_index(s->usage, double, (gsize)k * users + u);
}

/* Which user associations the series shows: SHOW's names, else the TOP
 * that move most (the largest mean difference between the sides over the
 * samples, one user an account: lines of one account tend to move
 * together), else all.  A new array of bools. */
bool *mf_rctx_selected(const mf_rctx_t *c, char **show, int top)
{
	guint n = c->users->len, ns = c->s[0].times->len;
	bool *sel = g_new0(bool, n ? n : 1);

	if (show) {
		for (guint u = 0; u < n; u++) {
			const mf_assoc_t *a = mf_rctx_user(c, 0, u);

			for (int i = 0; show[i]; i++) {
				char *slash = strchr(show[i], '/');

				if (slash ? (!strncmp(show[i], a->acct,
						      (size_t)(slash - show[i])) &&
					     !a->acct[slash - show[i]] &&
					     !strcmp(slash + 1, a->user)) :
				    !strcmp(show[i], a->acct))
					sel[u] = true;
			}
		}
		return sel;
	}
	if (top <= 0) {
		for (guint u = 0; u < n; u++)
			sel[u] = true;
		return sel;
	}
	{
		double *move = g_new0(double, n ? n : 1);
		guint cur = 0;

		for (guint k = 0; k < ns; k++) {
			guint k1 = mf_rctx_after_sample(c, k, &cur);

			for (guint u = 0; u < n; u++) {
				move[u] += fabs((double)mf_rside_fs_at(&c->s[0], n, k, u) -
						(double)mf_rside_fs_at(&c->s[1], n, k1, u));
			}
		}
		for (int t = 0; t < top; t++) {
			gint best = -1;

			for (guint u = 0; u < n; u++) {
				bool taken = false;

				if (sel[u] || (best >= 0 && move[u] <= move[best]))
					continue;
				for (guint v = 0; v < n && !taken; v++)
					taken = sel[v] && !strcmp(mf_rctx_user(c, 0, v)->acct,
								  mf_rctx_user(c, 0, u)->acct);
				if (!taken)
					best = (gint)u;
			}
			if (best < 0)
				break;
			sel[best] = true;
		}
		g_free(move);
	}
	return sel;
}

/* The period's default ends from the records. */
void mf_replay_period(const mf_sacct_t *h, time_t *from, time_t *to)
{
	int64_t lo = INT64_MAX, hi = 0;

	for (guint i = 0; i < h->jobs->len; i++) {
		const mf_replay_job_t *j = &g_array_index(h->jobs,
							  mf_replay_job_t, i);
		int64_t b = j->submit ? j->submit : j->eligible ? j->eligible :
			    j->start;

		if (j->eligible && j->eligible < b)
			b = j->eligible;
		if (j->start && j->start < b)
			b = j->start;
		int64_t e = MAX(MAX(j->end, j->start), MAX(j->eligible,
							    j->submit));

		if (b && b < lo)
			lo = b;
		if (e > hi)
			hi = e;
	}
	*from = lo == INT64_MAX ? 0 : (time_t)lo;
	*to = (time_t)hi;
}

/* Say what was clipped at the period's ends. */
void mf_replay_clip_notes(const mf_sacct_t *h, time_t from, time_t to)
{
	uint32_t before = 0, after = 0, out = 0, l_before = 0, l_after = 0,
		 l_out = 0;

	for (guint i = 0; i < h->jobs->len; i++) {
		const mf_replay_job_t *j = &g_array_index(h->jobs,
							  mf_replay_job_t, i);

		if (!j->start)
			continue;
		if ((j->end && j->end <= from) || j->start > to) {
			if (!out++)
				l_out = j->line;
			continue;
		}
		if (j->start < from && !before++)
			l_before = j->line;
		if ((!j->end || j->end > to) && !after++)
			l_after = j->line;
	}
	if (before)
		fprintf(stderr, "mfprio: note: %s:%u: %u record(s) started "
			"before the period's first tick: charged from it on\n",
			h->path, l_before, before);
	if (after)
		fprintf(stderr, "mfprio: note: %s:%u: %u record(s) ran past the "
			"period's last tick (or still run): charged up to it\n",
			h->path, l_after, after);
	if (out)
		fprintf(stderr, "mfprio: note: %s:%u: %u record(s) ran wholly "
			"outside the period: not charged\n", h->path, l_out,
			out);
	if (h->no_tres)
		fprintf(stderr, "mfprio: warning: %s:%u: %u job(s) that ran "
			"have no billing nor cpu in AllocTRES: charged "
			"nothing\n", h->path, h->first_no_tres, h->no_tres);
}

void mf_rside_clear(mf_rside_t *s)
{
	mf_prio_conf_free(s->pc);
	mf_tree_destroy(s->tree);
	g_free(s->assoc);
	g_free(s->part);
	g_free(s->qos_prio);
	g_free(s->out);
	if (s->times)
		g_array_free(s->times, TRUE);
	if (s->fs)
		g_array_free(s->fs, TRUE);
	if (s->usage)
		g_array_free(s->usage, TRUE);
}

