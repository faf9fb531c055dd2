/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sprio_table: `mfprio priority`'s rows as `sprio -l` prints them
 * (sprio_table.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sprio_table.h"

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

void mf_sprio_print_table(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
			  FILE *out)
{
	if (!o->noheader)
		_print_fields(out, (char **)_header, o->parsable);
	for (guint i = 0; i < c->rows->len; i++) {
		const mf_prun_row_t *row = c->rows->pdata[i];
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

/* -w: the header and one row of the weights, as sprio -w -l prints them. */
void mf_sprio_print_weights(const mf_prun_ctx_t *c, const mf_prun_opts_t *o,
			    FILE *out)
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
static void _print_lean_row(_tout_t *t, const mf_pstream_t *st,
			    const mf_lean_t *row, GString *ts, bool parsable)
{
	const mf_lean_t *rows = (const mf_lean_t *)(void *)st->rows->data;
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
		double v = tres[MF_TRES_AT(row - rows, st->weighted_cnt) + k];
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
	const mf_pstream_t *st;
	const uint64_t *order;       /* the rows, in the order printed */
	guint from, to;              /* the chunk: order[from..to) */
	bool parsable;
	_tout_t t;                   /* its text (no stream: gathered) */
	GString *ts;
} _chunk_t;

static void _chunk_format(_chunk_t *ch)
{
	const mf_lean_t *rows = (const mf_lean_t *)(void *)ch->st->rows->data;

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
static void _print_rows(const mf_pstream_t *st, const uint64_t *order,
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

void mf_sprio_print_lean(const mf_pstream_t *st, const uint64_t *order,
			 const mf_prun_opts_t *o, FILE *out)
{
	if (!o->noheader)
		_print_fields(out, (char **)_header, o->parsable);
	_print_rows(st, order, st->rows->len, o->parsable, out);
}

