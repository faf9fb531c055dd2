/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio priority: the priorities of a cluster's pending jobs, from the
 * dumps an administrator can take anywhere, printed as `sprio -l` prints
 * them; or, with --explain, why one job ranks where it does.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "cmd_error.h"
#include "slurm_release.h"
#include "age_factor.h"
#include "fairshare.h"
#include "input_opts.h"
#include "jobs_input.h"
#include "job_fs_factor.h"
#include "priority.h"
#include "priority_conf.h"
#include "priority_flags.h"
#include "priority_json.h"
#include "priority_run.h"
#include "release_table.h"
#include "slurm_conf.h"
#include "snapshot.h"
#include "snapshot_dir.h"
#include "timestr.h"

static const char _usage_head[] =
"Usage: mfprio priority --conf FILE --jobs FILE [--qos FILE]\n"
"                       [--assoc FILE [--usage FILE]] [--assoc-prio FILE]\n"
"                       [--now TIME] [--release VER] [-P] [-n] [-l]\n"
"                       [-jJOBS] [-u USERS] [-p PARTS] [-S SORT] [-w]\n"
"                       [--flags FLAGS] [--set KEY=VALUE]... [--cluster NAME]\n"
"                       [--explain JOBID] [--json]\n"
"       mfprio priority --snapshot DIR [any option above]\n"
"\n"
"Compute the priority of every pending job and print it as `sprio -l`\n"
"does (weighted factors), or explain one job's priority and rank.\n"
"\n";

static const char _usage_own[] =
"  -jLIST             only these job ids (comma-separated; attached, as\n"
"                     sprio takes it: --jobs is the dump)\n"
"  -u, --user LIST    only these users' jobs\n"
"  -p, --partition LIST  only the rows of these partitions\n"
"  -S, --sort LIST    order of the rows as sprio's: fields i (job id),\n"
"                     r (partition), u (user), y (priority), a, f, j, p,\n"
"                     q, t (age, fair-share, job size, partition, QOS, TRES\n"
"                     terms), N (nice); '-' before one: descending\n"
"                     (default: i)\n"
"  -w, --weights      the weights of the factors (a Weights row), no job\n"
"  -l, --long         taken, as sprio takes it: the table is sprio -l's\n"
"  -P, --parsable     '|'-separated fields, no padding\n"
"  -n, --noheader     no header line\n"
"  --explain JOBID    every factor of JOBID with its inputs and weight, and\n"
"                     the jobs ranked just above and below it\n"
"  --json             one JSON object: the settings used and the rows (or\n"
"                     the explanation); see mfprio(1)\n"
"  -h, --help         this text\n";

/* --help: the command, its input options (input_opts.def), its own. */
static void _usage(FILE *out)
{
	mf_iopt_usage(out, _usage_head, MF_IOPT_PRIORITY_INPUTS, _usage_own);
}

/* priority's own long options (input_opts.h's are from 400 on) */
enum {
	OPT_EXPLAIN = 256, OPT_JSON,
};

/* priority_run.h's types, by the names this file uses */
typedef mf_prun_job_t _job_t;
typedef mf_prun_row_t _row_t;
typedef mf_prun_opts_t _opts_t;
typedef mf_prun_ctx_t _ctx_t;


static char *_tres_str(const mf_tres_set_t *set, const mf_prio_result_t *r)
{
	GString *s = g_string_new(NULL);

	for (uint32_t i = 0; i < r->tres_cnt; i++) {
		if (!r->w_tres[i])
			continue;
		g_string_append_printf(s, "%s%s=%.0f", s->len ? "," : "",
				       set->names[i], r->w_tres[i]);
	}
	return g_string_free(s, FALSE);
}

static const char *const _header[] = {
	"JOBID", "PARTITION", "USER", "PRIORITY", "SITE", "AGE", "ASSOC",
	"FAIRSHARE", "JOBSIZE", "PARTITION", "QOS", "NICE", "TRES",
};
/* widths and justification of `sprio -l` */
static const int _width[] = { 15, 9, 8, 10, 10, 10, 10, 10, 10, 10, 10,
			      11, 20 };
static const bool _right[] = { true, false, true, true, true, true, true,
			       true, true, true, true, true, true };

/*
 * The table's text, gathered in blocks of a megabyte and written a block
 * at a time (a million rows).
 */
typedef struct {
	FILE *out;
	char *buf;
	size_t len, cap;
} _tout_t;

#define _TOUT_BLOCK ((size_t)1 << 20)

/* Room for N more bytes at the end of T's text. */
static char *_tout_room(_tout_t *t, size_t n)
{
	if (t->len + n > t->cap && !t->out) {
		/* no stream: the text is gathered whole */
		t->cap = 2 * (t->len + n) + _TOUT_BLOCK;
		t->buf = g_realloc(t->buf, t->cap);
	} else if (t->len + n > t->cap) {
		if (t->len)
			fwrite(t->buf, 1, t->len, t->out);
		t->len = 0;
		if (n > t->cap) {
			t->cap = n > _TOUT_BLOCK ? n : _TOUT_BLOCK;
			t->buf = g_realloc(t->buf, t->cap);
		}
	}
	return t->buf + t->len;
}

/* Write what T holds and free it. */
static void _tout_end(_tout_t *t)
{
	if (t->len)
		fwrite(t->buf, 1, t->len, t->out);
	g_free(t->buf);
	t->buf = NULL;
	t->len = t->cap = 0;
}

/* One row of F (LEN[i] bytes each): '|'-separated, or in sprio's columns
 * (%.Ns right-justified, %Ns left, both cut to the width). */
static void _tout_row(_tout_t *t, const char *const *f, const size_t *len,
		      bool parsable)
{
	size_t need = 1;
	char *p, *start;

	for (size_t i = 0; i < G_N_ELEMENTS(_header); i++)
		need += len[i] + (size_t)_width[i] + 1;
	p = start = _tout_room(t, need);
	for (size_t i = 0; i < G_N_ELEMENTS(_header); i++) {
		size_t l = len[i], pad;

		if (parsable) {
			if (i)
				*p++ = '|';
			memcpy(p, f[i], l);
			p += l;
			continue;
		}
		if (i)
			*p++ = ' ';
		if (l > (size_t)_width[i])
			l = (size_t)_width[i];
		pad = (size_t)_width[i] - l;
		if (!_right[i]) {
			memcpy(p, f[i], l);
			p += l;
		}
		memset(p, ' ', pad);
		p += pad;
		if (_right[i]) {
			memcpy(p, f[i], l);
			p += l;
		}
	}
	*p++ = '\n';
	t->len += (size_t)(p - start);
}

static void _print_fields(FILE *out, char **f, bool parsable)
{
	_tout_t t = { .out = out };
	size_t len[G_N_ELEMENTS(_header)];

	for (size_t i = 0; i < G_N_ELEMENTS(_header); i++)
		len[i] = strlen(f[i]);
	_tout_row(&t, (const char *const *)f, len, parsable);
	_tout_end(&t);
}

static void _print_table(const _ctx_t *c, const _opts_t *o, FILE *out)
{
	if (!o->noheader)
		_print_fields(out, (char **)_header, o->parsable);
	for (guint i = 0; i < c->rows->len; i++) {
		const _row_t *row = c->rows->pdata[i];
		const mf_prio_result_t *r = &row->r;
		char *f[G_N_ELEMENTS(_header)];

		f[0] = g_strdup_printf("%u", row->job->job.job_id);
		f[1] = g_strdup(r->partition ? r->partition->name : "");
		f[2] = g_strdup(row->job->line->user);
		f[3] = g_strdup_printf("%lld", (long long)row->sprio_priority);
		f[4] = g_strdup_printf("%.0f", r->direct ? 0.0 :
				       (double)r->site);
		f[5] = g_strdup_printf("%.0f", r->w_age);
		f[6] = g_strdup_printf("%.0f", r->w_assoc);
		f[7] = g_strdup_printf("%.0f", r->w_fs);
		f[8] = g_strdup_printf("%.0f", r->w_js);
		f[9] = g_strdup_printf("%.0f", r->w_part);
		f[10] = g_strdup_printf("%.0f", r->w_qos);
		f[11] = g_strdup_printf("%.0f", r->direct ? 0.0 :
					(double)r->nice);
		f[12] = _tres_str(c->pc->tres, r);
		_print_fields(out, f, o->parsable);
		for (size_t k = 0; k < G_N_ELEMENTS(f); k++)
			g_free(f[k]);
	}
}

/*
 * The plain table over a big dump: each job is read, computed and reduced
 * to the figures `sprio -l` prints, then its line and factors are freed.
 * The rows live in one array, their TRES figures in another.
 */
typedef struct {
	uint32_t job_id;
	bool direct;
	const char *user;            /* interned by jobs_input */
	const mf_part_t *part;
	double sprio;                /* sprio's PRIORITY */
	double w[6];                 /* age, assoc, fs, js, part, qos */
	int64_t site, nice;
} _lean_t;

/* Where row I's weighted TRES start in _stream_t.tres: every row has
 * weighted_cnt of them. */
#define _TRES_AT(i, weighted_cnt) ((size_t)(i) * (weighted_cnt))

typedef struct {
	_ctx_t *c;
	const _opts_t *o;
	time_t now;
	GArray *rows;                /* _lean_t */
	GArray *tres;                /* double, weighted_cnt per row: the
				      * weighted TRES factors that can be
				      * non-zero */
	uint32_t *weighted;          /* the TRES with a weight, by index */
	uint32_t weighted_cnt;
	mf_prun_bcache_t bc;                /* what the jobs before found */
	double *scratch;             /* 4 x the TRES count: the TRES arrays
				      * of a job's two results (bound) */
} _stream_t;

/* Whether NAME is in the NULL-ended LIST (NULL: every name is). */
static bool _in_list(char *const *list, const char *name)
{
	if (!list)
		return true;
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/* Whether the row of job J in R's partition is one sprio's -j, -u, -p
 * select. */
static bool _selected(const _opts_t *o, const _job_t *j,
		      const mf_prio_result_t *r)
{
	char id[16];

	if (o->sel_jobs) {
		snprintf(id, sizeof(id), "%u", j->job.job_id);
		if (!_in_list(o->sel_jobs, id))
			return false;
	}
	return _in_list(o->sel_users, j->line->user) &&
	       _in_list(o->sel_parts, r->partition ? r->partition->name : "");
}

static void _lean_add(_stream_t *st, const _job_t *j,
		      const mf_prio_result_t *r)
{
	_lean_t row = {
		.job_id = j->job.job_id, .direct = r->direct,
		.user = j->line->user, .part = r->partition,
		.sprio = mf_prun_sprio_sum(r),
		.w = { r->w_age, r->w_assoc, r->w_fs, r->w_js, r->w_part,
		       r->w_qos },
		.site = r->site, .nice = r->nice,
	};

	if (!_selected(st->o, j, r))
		return;
	if (r->clamped && !st->c->clamp_warned) {
		mf_prun_warn("job %u: priority %.0f is above 4294967295 and is "
		      "clamped to it (Slurm does the same and logs it; sprio "
		      "shows the unclamped sum); lower the weights",
		      j->job.job_id, r->sum);
		st->c->clamp_warned = true;
	}
	for (uint32_t k = 0; k < st->weighted_cnt; k++)
		g_array_append_val(st->tres, r->w_tres[st->weighted[k]]);
	g_array_append_val(st->rows, row);
}

static int _stream_fn(mf_job_line_t *l, void *arg)
{
	_stream_t *st = arg;
	_ctx_t *c = st->c;
	uint32_t tres_cnt = c->pc->tres->cnt;
	_job_t j = { .line = l };
	int rc;

	if (!mf_prun_listed(c, l, st->now)) {
		mf_job_line_free(l);
		return 0;
	}
	if ((rc = mf_prun_build_job(c, &j, st->now, &st->bc))) {
		if (rc == MF_PRUN_BUILD_SKIP)
			rc = 0;
		goto out;
	}
	mf_prio_result_bind(&j.base, tres_cnt, st->scratch);
	mf_priority_compute(&c->cfg, &j.job, st->now, &j.base);
	if (!j.job.parts) {
		_lean_add(st, &j, &j.base);
	} else {
		mf_prio_result_t r;

		mf_prio_result_bind(&r, tres_cnt, st->scratch + 2 * tres_cnt);
		for (uint32_t k = 0; k < j.job.part_cnt; k++) {
			mf_priority_in_part(&c->cfg, &j.job, &j.base,
					    j.job.parts[k], &r);
			_lean_add(st, &j, &r);
		}
		mf_prio_result_clear(&r);
	}
out:
	mf_prun_job_clear(&j);
	mf_job_line_free(l);
	return rc;
}

/* "00" to "99", for _lltoa's two digits at a time */
static const char _pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/* V as "%lld" writes it, into BUF (N bytes, at least 21).  Returns its
 * length. */
static size_t _lltoa(char *buf, size_t n, long long v)
{
	char tmp[24], *e = tmp + sizeof(tmp), *q = e;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
				     : (unsigned long long)v;
	size_t k, i = 0;

	while (u >= 100) {
		unsigned d = (unsigned)(u % 100) * 2;

		u /= 100;
		*--q = _pairs[d + 1];
		*--q = _pairs[d];
	}
	if (u >= 10) {
		*--q = _pairs[u * 2 + 1];
		*--q = _pairs[u * 2];
	} else {
		*--q = (char)('0' + u);
	}
	if (v < 0)
		buf[i++] = '-';
	for (k = (size_t)(e - q); k && i + 1 < n; k--)
		buf[i++] = *q++;
	buf[i] = '\0';
	return i;
}

/* V as "%.0f" writes it, faster for the usual whole-number range.
 * Returns its length. */
static size_t _fmt0(char *buf, size_t n, double v)
{
	double r;

	if (!(fabs(v) < 9e15)) {
		snprintf(buf, n, "%.0f", v);
		return strlen(buf);
	}
	r = nearbyint(v);    /* to even at .5, as printf does */
	if (r == 0 && signbit(v)) {
		snprintf(buf, n, "-0");
		return strlen(buf);
	}
	return _lltoa(buf, n, (long long)r);
}

/* Sort keys: job id in the high half, row index in the low one (a job's
 * partitions stay in tier order, as computed). */
static int _key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* -S: compare two rows (their indexes in A and B) field by field. */
typedef struct {
	const _lean_t *rows;
	const double *tres;
	uint32_t tres_cnt;
	const char *sort;
	uint32_t weighted_cnt;       /* a row's weighted TRES (_TRES_AT) */
} _sort_ctx_t;

static double _tres_sum(const _sort_ctx_t *s, const _lean_t *r)
{
	double sum = 0.0;

	for (uint32_t k = 0; k < s->tres_cnt; k++)
		sum += s->tres[_TRES_AT(r - s->rows, s->weighted_cnt) + k];
	return sum;
}

static int _sort_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const _sort_ctx_t *s = data;
	uint32_t ia = (uint32_t)*(const uint64_t *)a;
	uint32_t ib = (uint32_t)*(const uint64_t *)b;
	const _lean_t *x = &s->rows[ia], *y = &s->rows[ib];

	for (const char *p = s->sort; *p; p++) {
		bool desc = p > s->sort && p[-1] == '-';
		double dx = 0, dy = 0;
		int c = 0;

		switch (*p) {
		case 'i': dx = x->job_id; dy = y->job_id; break;
		case 'y': case 'Y': dx = x->sprio; dy = y->sprio; break;
		case 'a': case 'A': dx = x->w[0]; dy = y->w[0]; break;
		case 'f': case 'F': dx = x->w[2]; dy = y->w[2]; break;
		case 'j': case 'J': dx = x->w[3]; dy = y->w[3]; break;
		case 'p': case 'P': dx = x->w[4]; dy = y->w[4]; break;
		case 'q': case 'Q': dx = x->w[5]; dy = y->w[5]; break;
		case 'N': dx = (double)x->nice; dy = (double)y->nice; break;
		case 't': case 'T':
			dx = _tres_sum(s, x);
			dy = _tres_sum(s, y);
			break;
		case 'u': c = strcmp(x->user, y->user); break;
		case 'r':
			c = strcmp(x->part ? x->part->name : "",
				   y->part ? y->part->name : "");
			break;
		default: continue;
		}
		if (!c)
			c = (dx > dy) - (dx < dy);
		if (c)
			return desc ? -c : c;
	}
	return ia < ib ? -1 : ia > ib;
}

/* Whether SORT is a list sprio takes of the fields _sort_cmp() knows. */
static bool _sort_valid(const char *sort)
{
	for (const char *p = sort; *p; p++)
		if (*p != ',' && *p != '+' && *p != '-' &&
		    !strchr("iyYaAfFjJpPqQNtTur", *p))
			return false;
	return true;
}

/* -w: the header and one row of the weights, as sprio -w -l prints them. */
static void _print_weights(const _ctx_t *c, const _opts_t *o, FILE *out)
{
	const mf_prio_conf_t *pc = c->pc;
	char b[G_N_ELEMENTS(_header)][32];
	char *f[G_N_ELEMENTS(_header)];
	GString *ts = g_string_new(NULL);

	for (size_t k = 0; k < G_N_ELEMENTS(f); k++) {
		b[k][0] = '\0';
		f[k] = b[k];
	}
	f[0] = (char *)"Weights";
	snprintf(b[4], sizeof(b[4]), "1");
	snprintf(b[5], sizeof(b[5]), "%u", pc->weight_age);
	snprintf(b[6], sizeof(b[6]), "%u", pc->weight_assoc);
	snprintf(b[7], sizeof(b[7]), "%u", pc->weight_fs);
	snprintf(b[8], sizeof(b[8]), "%u", pc->weight_js);
	snprintf(b[9], sizeof(b[9]), "%u", pc->weight_part);
	snprintf(b[10], sizeof(b[10]), "%u", pc->weight_qos);
	for (uint32_t k = 0; pc->weight_tres && k < pc->tres->cnt; k++) {
		if (!pc->weight_tres[k])
			continue;
		g_string_append_printf(ts, "%s%s=%.0f", ts->len ? "," : "",
				       pc->tres->names[k],
				       pc->weight_tres[k]);
	}
	f[12] = ts->str;
	if (!o->noheader)
		_print_fields(out, (char **)_header, o->parsable);
	_print_fields(out, f, o->parsable);
	g_string_free(ts, TRUE);
}

/* One row of the plain table: ROW's figures (TS: room for its TRES). */
static void _print_lean_row(_tout_t *t, const _stream_t *st,
			    const _lean_t *row, GString *ts, bool parsable)
{
	const _lean_t *rows = (const _lean_t *)(void *)st->rows->data;
	const double *tres = (const double *)(void *)st->tres->data;
	const mf_tres_set_t *set = st->c->pc->tres;
	char b[G_N_ELEMENTS(_header)][40];
	const char *f[G_N_ELEMENTS(_header)];
	size_t len[G_N_ELEMENTS(_header)];

	for (size_t k = 0; k < G_N_ELEMENTS(f); k++)
		f[k] = b[k];
	len[0] = _lltoa(b[0], sizeof(b[0]), row->job_id);
	f[1] = row->part ? row->part->name : "";
	len[1] = strlen(f[1]);
	f[2] = row->user;
	len[2] = strlen(f[2]);
	len[3] = _lltoa(b[3], sizeof(b[3]), (long long)row->sprio);
	len[4] = _fmt0(b[4], sizeof(b[4]),
		       row->direct ? 0.0 : (double)row->site);
	for (int k = 0; k < 6; k++)
		len[5 + k] = _fmt0(b[5 + k], sizeof(b[5 + k]), row->w[k]);
	len[11] = _fmt0(b[11], sizeof(b[11]),
			row->direct ? 0.0 : (double)row->nice);
	g_string_truncate(ts, 0);
	for (uint32_t k = 0; k < st->weighted_cnt; k++) {
		double v = tres[_TRES_AT(row - rows, st->weighted_cnt) + k];
		char num[40];
		size_t n;

		if (!v)
			continue;
		n = _fmt0(num, sizeof(num), v);
		if (ts->len)
			g_string_append_c(ts, ',');
		g_string_append(ts, set->names[st->weighted[k]]);
		g_string_append_c(ts, '=');
		g_string_append_len(ts, num, (gssize)n);
	}
	f[12] = ts->str;
	len[12] = ts->len;
	_tout_row(t, f, len, parsable);
}

/*
 * The rows of the plain table are formatted on two threads, in chunks of
 * _CHUNK rows, one thread taking every other chunk; the chunks are
 * written in order.
 */
#define _CHUNK 8192

typedef struct {
	const _stream_t *st;
	const uint64_t *order;       /* the rows, in the order printed */
	guint from, to;              /* the chunk: order[from..to) */
	bool parsable;
	_tout_t t;                   /* its text (no stream: gathered) */
	GString *ts;
} _chunk_t;

static void _chunk_format(_chunk_t *ch)
{
	const _lean_t *rows = (const _lean_t *)(void *)ch->st->rows->data;

	ch->t.len = 0;
	for (guint i = ch->from; i < ch->to; i++)
		_print_lean_row(&ch->t, ch->st, &rows[(uint32_t)ch->order[i]],
				ch->ts, ch->parsable);
}

/* The formatting thread: a chunk from TODO, formatted, to DONE; NULL's
 * chunk stops it. */
typedef struct {
	GAsyncQueue *todo, *done;
	_chunk_t *stop;
} _fmt_pipe_t;

static gpointer _format_main(gpointer arg)
{
	_fmt_pipe_t *fp = arg;
	_chunk_t *ch;

	while ((ch = g_async_queue_pop(fp->todo)) != fp->stop) {
		_chunk_format(ch);
		g_async_queue_push(fp->done, ch);
	}
	return NULL;
}

static void _chunk_write(const _chunk_t *ch, FILE *out)
{
	if (ch->t.len)
		fwrite(ch->t.buf, 1, ch->t.len, out);
}

/* The rows in ORDER (N of them) formatted and written to OUT. */
static void _print_rows(const _stream_t *st, const uint64_t *order,
			guint n, bool parsable, FILE *out)
{
	_chunk_t ch[2] = {
		{ .st = st, .order = order, .parsable = parsable },
		{ .st = st, .order = order, .parsable = parsable },
	};
	_fmt_pipe_t fp = { g_async_queue_new(), g_async_queue_new(), &ch[0] };
	GThread *th = n > _CHUNK ? g_thread_try_new("mfprio-print",
						     _format_main, &fp, NULL)
				 : NULL;

	for (int k = 0; k < 2; k++)
		ch[k].ts = g_string_new(NULL);
	for (guint from = 0; from < n; from += 2 * _CHUNK) {
		bool other;

		ch[0].from = from;
		ch[0].to = MIN(n, from + _CHUNK);
		ch[1].from = ch[0].to;
		ch[1].to = MIN(n, from + 2 * _CHUNK);
		other = th && ch[1].from < ch[1].to;
		if (other)
			g_async_queue_push(fp.todo, &ch[1]);
		_chunk_format(&ch[0]);
		_chunk_write(&ch[0], out);
		if (other)
			g_async_queue_pop(fp.done);
		else
			_chunk_format(&ch[1]);
		_chunk_write(&ch[1], out);
	}
	if (th) {
		g_async_queue_push(fp.todo, fp.stop);
		g_thread_join(th);
	}
	for (int k = 0; k < 2; k++) {
		g_string_free(ch[k].ts, TRUE);
		g_free(ch[k].t.buf);
	}
	g_async_queue_unref(fp.todo);
	g_async_queue_unref(fp.done);
}

static void _print_lean(const _stream_t *st, const _opts_t *o, FILE *out)
{
	const _lean_t *rows = (const _lean_t *)(void *)st->rows->data;
	const double *tres = (const double *)(void *)st->tres->data;
	const mf_tres_set_t *set = st->c->pc->tres;
	uint64_t *order = g_new(uint64_t, st->rows->len ? st->rows->len : 1);
	bool sorted = true;

	for (guint i = 0; i < st->rows->len; i++) {
		order[i] = (uint64_t)rows[i].job_id << 32 | i;
		sorted = sorted && (!i || order[i - 1] < order[i]);
	}
	if (o->sort) {
		_sort_ctx_t sc = { rows, tres, set->cnt, o->sort,
				   st->weighted_cnt };

		g_qsort_with_data(order, (gint)st->rows->len, sizeof(*order),
				  _sort_cmp, &sc);
	} else if (!sorted) {
		qsort(order, st->rows->len, sizeof(*order), _key_cmp);
	}
	if (!o->noheader)
		_print_fields(out, (char **)_header, o->parsable);
	_print_rows(st, order, st->rows->len, o->parsable, out);
	g_free(order);
}

/* Read the inputs, then stream the jobs file into the table.  Returns an
 * exit status. */
static int _stream_table(_ctx_t *c, const _opts_t *o, FILE *out)
{
	_stream_t st = { .c = c, .o = o, .now = o->now };
	mf_error_t e;
	int rc;

	if ((rc = mf_prun_load_inputs(c, o, false)))
		return rc;
	if (o->weights) {
		_print_weights(c, o, out);
		return MF_EXIT_OK;
	}
	st.rows = g_array_new(FALSE, FALSE, sizeof(_lean_t));
	st.tres = g_array_new(FALSE, FALSE, sizeof(double));
	st.weighted = g_new0(uint32_t, c->pc->tres->cnt + 1);
	for (uint32_t k = 0; c->cfg.weight_tres && k < c->pc->tres->cnt; k++)
		if (c->cfg.weight_tres[k])
			st.weighted[st.weighted_cnt++] = k;
	mf_prun_bcache_init(&st.bc);
	st.scratch = g_new0(double, 4 * (size_t)c->pc->tres->cnt + 1);
	rc = mf_jobs_each(o->jobs, _stream_fn, &st, &e);
	mf_prun_bcache_clear(&st.bc);
	g_free(st.scratch);
	if (rc < 0) {
		mf_cmd_error("%s", e.text);
		rc = MF_EXIT_INPUT;
	}
	if (!rc)
		_print_lean(&st, o, out);
	g_array_free(st.rows, TRUE);
	g_array_free(st.tres, TRUE);
	g_free(st.weighted);
	return rc;
}

static void _fmt_duration(char *buf, size_t n, uint64_t secs)
{
	snprintf(buf, n, "%llu-%02llu:%02llu:%02llu",
		 (unsigned long long)(secs / 86400),
		 (unsigned long long)(secs / 3600 % 24),
		 (unsigned long long)(secs / 60 % 60),
		 (unsigned long long)(secs % 60));
}

/* The weighted terms of a row by name, for the comparison of two rows. */
typedef struct {
	const char *name;
	double value;
} _term_t;

static int _terms(const mf_prio_result_t *r, _term_t t[9])
{
	t[0] = (_term_t){ "age", r->w_age };
	t[1] = (_term_t){ "assoc", r->w_assoc };
	t[2] = (_term_t){ "fairshare", r->w_fs };
	t[3] = (_term_t){ "jobsize", r->w_js };
	t[4] = (_term_t){ "partition", r->w_part };
	t[5] = (_term_t){ "qos", r->w_qos };
	t[6] = (_term_t){ "tres", r->w_tres_sum };
	t[7] = (_term_t){ "site", (double)r->site };
	t[8] = (_term_t){ "nice", -(double)r->nice };
	return 9;
}

/* "by fairshare (+600), age (+55)": where HI beats LO, largest first. */
static char *_why(const mf_prio_result_t *hi, const mf_prio_result_t *lo)
{
	_term_t a[9], b[9];
	int n = _terms(hi, a);
	GString *s = g_string_new(NULL);
	bool used[9] = { false };

	_terms(lo, b);
	for (int k = 0; k < n; k++) {
		int best = -1;
		double best_d = 0.0;

		for (int i = 0; i < n; i++) {
			double d = a[i].value - b[i].value;

			if (!used[i] && d > best_d) {
				best = i;
				best_d = d;
			}
		}
		if (best < 0)
			break;
		used[best] = true;
		g_string_append_printf(s, "%s%s +%.2f", s->len ? ", " : "",
				       a[best].name, best_d);
	}
	if (!s->len)
		g_string_append(s, "no factor (equal sums; the job id breaks "
				   "the tie)");
	return g_string_free(s, FALSE);
}

static void _explain_neighbour(FILE *out, const char *label,
			       const _row_t *row, const _row_t *other,
			       bool other_is_above)
{
	char *why;

	if (!other) {
		fprintf(out, "  %s: none\n", label);
		return;
	}
	why = other_is_above ? _why(&other->r, &row->r)
			     : _why(&row->r, &other->r);
	fprintf(out, "  %s: job %u (%s, %s) priority %u (%+lld): %s ahead "
		"by %s\n", label, other->job->job.job_id,
		other->job->line->user,
		other->r.partition ? other->r.partition->name : "",
		other->r.priority,
		(long long)other->r.priority - (long long)row->r.priority,
		other_is_above ? "it is" : "this job is", why);
	g_free(why);
}

/* Where the release changes the job size factor of PJ, say how. */
static const char *_js_release_note(const mf_prio_config_t *cfg,
				    const mf_prio_job_t *pj)
{
	bool guarded = mf_release_js_guarded(cfg->release);

	if (!cfg->weight_js)
		return "";
	if (!cfg->node_count || !cfg->cluster_cpus)
		return guarded ? "; no node or CPU: 0 (from Slurm 23.02)"
			       : "; no node or CPU (Slurm 22.05: what the "
				 "formula gives)";
	if (cfg->favor_small &&
	    !(cfg->flags & MF_FLAG_SMALL_RELATIVE_TO_TIME) &&
	    pj->min_nodes > cfg->node_count)
		return guarded ? "; more nodes than the cluster: node term 0 "
				 "(from Slurm 23.02)"
			       : "; more nodes than the cluster: node term "
				 "wraps, held at 1 (Slurm 22.05)";
	return "";
}


/* The header of the explanation of job J: who, where, which release and
 * which what-if settings.  Returns nothing. */
static void _explain_head(const _ctx_t *c, const _opts_t *o, const _job_t *j,
			  FILE *out)
{
	const mf_prio_job_t *pj = &j->job;
	const mf_job_line_t *l = j->line;
	char rel[8];

	if (l->job_id_str && strcmp(l->job_id_str, l->id_text))
		fprintf(out, "Job %s (JobId %u)", l->job_id_str, pj->job_id);
	else
		fprintf(out, "Job %u", pj->job_id);
	fprintf(out, ": user %s, account %s, QOS %s, partition "
		"%s, state %s, at %ld\n", l->user,
		l->account, l->qos ? l->qos : "(none)",
		pj->part ? pj->part->name : "(none)", l->state,
		(long)o->now);
	fprintf(out, "  as Slurm %s computes it (%s)\n",
		mf_release_name(c->cfg.release, rel), c->rel.source);
	for (guint i = 0; o->sets && i < o->sets->len; i++) {
		const mf_conf_pair_t *p = o->sets->pdata[i];

		fprintf(out, "  %s %s=%s (what-if, in place of the "
			"conf's)\n", p->file, p->key, p->value);
	}
}

/* The age, association and fair-share rows of job J.  Returns nothing. */
static void _explain_age_assoc_fs(const _ctx_t *c, const _opts_t *o,
				  const _job_t *j, FILE *out)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const mf_prio_result_t *r = &j->base;
	const mf_prio_job_t *pj = &j->job;
	char dur[64], dur2[64];

	if (pj->accrue_time && o->now > pj->accrue_time)
		_fmt_duration(dur, sizeof(dur),
			      (uint64_t)(o->now - pj->accrue_time));
	else
		snprintf(dur, sizeof(dur), "0");
	_fmt_duration(dur2, sizeof(dur2), cfg->max_age);
	fprintf(out, "  %-12s %12.7f %12u %14.2f  waited %s since "
		"accrue time %ld%s; PriorityMaxAge %s\n", "age",
		r->age, cfg->weight_age, r->w_age, dur,
		(long)pj->accrue_time,
		pj->accrue_time ? "" : " (not accruing)", dur2);
	fprintf(out, "  %-12s %12.7f %12u %14.2f  association "
		"priority %u of highest %u%s\n", "assoc", r->assoc,
		cfg->weight_assoc, r->w_assoc, pj->assoc_priority,
		cfg->assoc_max_priority,
		(cfg->flags & MF_FLAG_NO_NORMAL_ASSOC) ?
		" (NO_NORMAL_ASSOC: raw)" : "");
	fprintf(out, "  %-12s %12.7f %12u %14.2f  %s/%s, %s\n",
		"fairshare", r->fs, cfg->weight_fs, r->w_fs,
		j->line->account, j->line->user, j->fs_note);
}

/* The job size, partition and QOS rows of job J.  Returns nothing. */
static void _explain_js_part_qos(const _ctx_t *c, const _job_t *j, FILE *out)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const mf_prio_result_t *r = &j->base;
	const mf_prio_job_t *pj = &j->job;
	uint32_t limit = pj->time_limit != MF_NO_VAL ? pj->time_limit :
			 (pj->part ? pj->part->max_time : 1);

	fprintf(out, "  %-12s %12.7f %12u %14.2f  %u node(s), %u "
		"CPU(s) of %u node(s), %u CPUs%s%s", "jobsize", r->js,
		cfg->weight_js, r->w_js, pj->min_nodes, pj->cpu_cnt,
		cfg->node_count, cfg->cluster_cpus,
		cfg->favor_small ? "; PriorityFavorSmall" : "",
		(cfg->flags & MF_FLAG_SMALL_RELATIVE_TO_TIME) ?
		"; SMALL_RELATIVE_TO_TIME" : "");
	if (cfg->flags & MF_FLAG_SMALL_RELATIVE_TO_TIME)
		fprintf(out, ", time limit %u min", limit);
	fputs(_js_release_note(cfg, pj), out);
	fputc('\n', out);
	fprintf(out, "  %-12s %12.7f %12u %14.2f  PriorityJobFactor %u "
		"of highest %u%s\n", "partition", r->part,
		cfg->weight_part, r->w_part,
		pj->part ? pj->part->priority_job_factor : 0,
		cfg->part_max_priority,
		(cfg->flags & MF_FLAG_NO_NORMAL_PART) ?
		" (NO_NORMAL_PART: raw)" : "");
	fprintf(out, "  %-12s %12.7f %12u %14.2f  QOS priority %u of "
		"highest %u%s\n", "qos", r->qos, cfg->weight_qos,
		r->w_qos, pj->qos_priority, cfg->qos_max_priority,
		(cfg->flags & MF_FLAG_NO_NORMAL_QOS) ?
		" (NO_NORMAL_QOS: raw)" : "");
}

/* The rows of job J's trackable resources that count.  Returns nothing. */
static void _explain_tres(const _ctx_t *c, const _job_t *j, FILE *out)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const mf_prio_result_t *r = &j->base;
	const mf_prio_job_t *pj = &j->job;

	for (uint32_t i = 0; i < r->tres_cnt; i++) {
		char name[64];

		if (!pj->tres_cnt[i] && !r->tres[i])
			continue;
		snprintf(name, sizeof(name), "tres:%s",
			 c->pc->tres->names[i]);
		fprintf(out, "  %-12s %12.7f %12g %14.2f  %llu of the "
			"partition's %llu%s\n", name, r->tres[i],
			cfg->weight_tres ? cfg->weight_tres[i] : 0.0,
			r->w_tres[i],
			(unsigned long long)pj->tres_cnt[i],
			(unsigned long long)(pj->part &&
				pj->part->tres_cnt ?
				pj->part->tres_cnt[i] : 0),
			(cfg->flags & MF_FLAG_NO_NORMAL_TRES) ?
			" (NO_NORMAL_TRES: raw)" : "");
	}
}

/* Site and nice, the sum, INCR_ONLY and the priority of job J in each of
 * its partitions.  Returns nothing. */
static void _explain_total(const _ctx_t *c, const _job_t *j, FILE *out)
{
	const mf_prio_config_t *cfg = &c->cfg;
	const mf_prio_result_t *r = &j->base;
	const mf_prio_job_t *pj = &j->job;
	const mf_job_line_t *l = j->line;

	fprintf(out, "  %-12s %12s %12s %14lld\n", "site", "", "",
		(long long)r->site);
	fprintf(out, "  %-12s %12s %12s %14lld  (subtracted)\n",
		"nice", "", "", (long long)r->nice);
	fprintf(out, "  priority = %.2f -> %u%s\n", r->sum, r->priority,
		r->clamped ? " (clamped at 4294967295)" : "");
	if (cfg->flags & MF_FLAG_INCR_ONLY)
		fprintf(out, "  INCR_ONLY: the job keeps %u (its "
			"current priority %u, computed %u)\n",
			mf_priority_incr_only(cfg->flags, l->priority,
					      r->priority),
			l->priority, r->priority);
	for (uint32_t k = 0; k < pj->part_cnt; k++) {
		for (guint i = 0; i < c->rows->len; i++) {
			const _row_t *row = c->rows->pdata[i];

			if (row->job == j &&
			    row->r.partition == pj->parts[k])
				fprintf(out, "  in partition %s "
					"(tier %u): %u\n",
					pj->parts[k]->name,
					pj->parts[k]->priority_tier,
					row->r.priority);
		}
	}
}

/* The rank of job J in partition PART and its neighbours there, as the
 * scheduler queues them.  Returns nothing. */
static void _explain_rank(const _ctx_t *c, const _job_t *j,
			  const mf_part_t *part, FILE *out)
{
	const _row_t *row = NULL, *above = NULL, *below = NULL;
	GPtrArray *ranked = mf_prun_part_ranked(c, part);
	guint at = 0;

	for (guint i = 0; i < ranked->len && !row; i++)
		if (((_row_t *)ranked->pdata[i])->job == j) {
			row = ranked->pdata[i];
			at = i;
		}
	if (!row) {
		g_ptr_array_unref(ranked);
		return;
	}
	if (at > 0)
		above = ranked->pdata[at - 1];
	if (at + 1 < ranked->len)
		below = ranked->pdata[at + 1];
	fprintf(out, "Rank %u of %u pending jobs in partition %s (tier "
		"%u; by priority, then job id)\n", at + 1, ranked->len,
		part ? part->name : "(none)",
		part ? part->priority_tier : 0);
	_explain_neighbour(out, "just above", row, above, true);
	_explain_neighbour(out, "just below", row, below, false);
	g_ptr_array_unref(ranked);
}

/* The place of job J in the scheduler's one queue: tier first, then
 * priority.  Returns nothing. */
static void _explain_queue(const _ctx_t *c, const _job_t *j, FILE *out)
{
	const _row_t *mine = mf_prun_job_row(c, j);
	guint pos = 0, ahead = 0;

	for (guint i = 0; mine && i < c->rows->len; i++) {
		const _row_t *x = c->rows->pdata[i];

		if (x->job != j && mf_prun_queue_cmp(x, mine) < 0)
			ahead++;
	}
	pos = ahead + 1;
	fprintf(out, "In the scheduler's queue (partition PriorityTier "
		"first, then priority): %u of %u rows; a job queued in "
		"several partitions is tried in each, in tier order\n",
		pos, c->rows->len);
}

/* Explain the priority of the job O->explain names: its factors, its
 * rank in each partition and in the scheduler's queue.  Returns an exit
 * status. */
static int _explain(const _ctx_t *c, const _opts_t *o, FILE *out)
{
	const _job_t *j = NULL;
	int rc;

	if ((rc = mf_prun_explained(c, o, &j)))
		return rc;
	_explain_head(c, o, j, out);
	fprintf(out, "  %-12s %12s %12s %14s  %s\n", "factor", "value",
		"weight", "weighted", "from");
	_explain_age_assoc_fs(c, o, j, out);
	_explain_js_part_qos(c, j, out);
	_explain_tres(c, j, out);
	_explain_total(c, j, out);
	for (uint32_t k = 0; k < (mf_prun_job_parts(j) ? j->job.part_cnt : 1); k++)
		_explain_rank(c, j, mf_prun_job_parts(j) ? j->job.parts[k]
						: j->job.part, out);
	_explain_queue(c, j, out);
	return MF_EXIT_OK;
}


/* Read the options of ARGV into IO (a bad --release into C's).
 * Returns 0, 1 after --help or -1 for a usage error (reported). */
static int _prio_parse_args(int argc, char **argv, mf_iopts_t *io,
			    _ctx_t *c)
{
	static const struct option own[] = {
		{ "explain", required_argument, NULL, OPT_EXPLAIN },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "user", required_argument, NULL, 'u' },
		{ "partition", required_argument, NULL, 'p' },
		{ "sort", required_argument, NULL, 'S' },
		{ "weights", no_argument, NULL, 'w' },
		{ "long", no_argument, NULL, 'l' },
		{ "parsable", no_argument, NULL, 'P' },
		{ "noheader", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct option *opts =
		mf_iopt_longopts(MF_IOPT_PRIORITY_INPUTS, own);
	_opts_t *o = &io->o;
	int ch, t;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "j:u:p:S:wlPnh", opts, NULL))
	       != -1) {
		if ((t = mf_iopt_take(io, ch, optarg))) {
			if (t < 0)
				return -1;
			/* a bad --release is a usage error at once */
			if (ch == MF_IOPT_RELEASE &&
			    mf_cmd_release_option(&c->rel, optarg))
				return -1;
			continue;
		}
		switch (ch) {
		case 'j':
			g_strfreev(o->sel_jobs);
			o->sel_jobs = g_strsplit(optarg, ",", -1);
			break;
		case 'u':
			g_strfreev(o->sel_users);
			o->sel_users = g_strsplit(optarg, ",", -1);
			break;
		case 'p':
			g_strfreev(o->sel_parts);
			o->sel_parts = g_strsplit(optarg, ",", -1);
			break;
		case 'S':
			if (!_sort_valid(optarg)) {
				mf_cmd_error("-S '%s': not a sort list of "
					     "the fields i r u y a f j p q t "
					     "N", optarg);
				return -1;
			}
			o->sort = optarg;
			break;
		case 'w': o->weights = true; break;
		case 'l': break;
		case OPT_EXPLAIN: o->explain = optarg; break;
		case OPT_JSON: o->json = true; break;
		case 'P': o->parsable = true; break;
		case 'n': o->noheader = true; break;
		case 'h':
			_usage(stdout);
			return 1;
		default:
			_usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		mf_cmd_error("priority: unexpected argument '%s'",
			     argv[optind]);
		return -1;
	}
	return 0;
}

/* Compute and print what O asks: the plain table streamed, or the
 * explanation, the JSON or the table of --weights from the loaded
 * jobs.  Returns an exit status. */
static int _prio_run(_ctx_t *c, const _opts_t *o)
{
	int rc;

	if ((!o->explain && !o->json) || o->weights) {
		/* the plain table: streamed, for dumps of any size */
		rc = _stream_table(c, o, stdout);
		if (!rc && fflush(stdout))
			rc = MF_EXIT_INPUT;
		return rc;
	}
	if ((rc = mf_prun_run(c, o)))
		return rc;
	if (o->explain && o->json)
		rc = mf_prun_explain_json(c, o, stdout);
	else if (o->explain)
		rc = _explain(c, o, stdout);
	else if (o->json)
		rc = mf_prun_print_json(c, o, stdout);
	else
		_print_table(c, o, stdout);
	if (fflush(stdout))
		rc = MF_EXIT_INPUT;
	return rc;
}

int cmd_priority(int argc, char **argv)
{
	/* the inputs, --now, --release and the what-ifs: input_opts, as
	 * why, check and compare take them */
	mf_iopts_t io;
	_opts_t *o = &io.o;
	_ctx_t c = { 0 };
	int rc;

	mf_iopt_init(&io);
	rc = _prio_parse_args(argc, argv, &io, &c);
	if (rc) {
		rc = rc > 0 ? MF_EXIT_OK : MF_EXIT_USAGE;
		goto out;
	}
	/* the release is set in C already (mf_iopt_run is not used: the
	 * plain table streams) */
	io.release = NULL;
	if ((rc = mf_iopt_finish(&io, "priority")) == MF_EXIT_USAGE &&
	    (!o->conf || !o->jobs))
		_usage(stderr);
	if (!rc)
		rc = _prio_run(&c, o);
out:
	mf_prun_clear(&c);
	mf_iopt_clear(&io);
	g_strfreev(o->sel_jobs);
	g_strfreev(o->sel_users);
	g_strfreev(o->sel_parts);
	return rc;
}
