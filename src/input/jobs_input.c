/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobs_input: a jobs file read into records (jobs_input.h): its lines on
 * a reader thread, split and checked in batches, each job handed on in
 * file order.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "dump_header.h"
#include "job_fields.h"
#include "job_keys.h"
#include "jobs_input.h"
#include "jobs_json.h"
#include "line_reader.h"

/*
 * A set of job ids with the line of each: open addressing, linear probing,
 * 8 bytes a job (id in the high half, line in the low), grown at half
 * full.
 */
typedef struct {
	uint64_t *slot;
	size_t cap, used;
} _idset_t;

/* ID's first slot in a table of CAP (a power of two, at least 1024):
 * each run of 256 ids keeps its order in a stretch of 256 slots, the
 * stretches spread by a multiplicative hash of the rest of the id.  Job
 * ids come mostly in order: each insert then touches the slot beside the
 * last one, not a random place in a table of megabytes. */
static size_t _idset_home(uint32_t id, size_t cap)
{
	unsigned bits = (unsigned)__builtin_ctzll((unsigned long long)cap);
	uint64_t stretch = ((uint64_t)(id >> 8) * 0x9E3779B97F4A7C15ULL) >>
			   (64 - (bits - 8));

	return (size_t)((stretch << 8) | (id & 0xffU));
}

/* Add ID at LINE.  Returns 0, or the line ID was first seen at. */
static int _idset_add(_idset_t *s, uint32_t id, int line)
{
	size_t i;

	if (2 * (s->used + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		uint64_t *slot = g_new0(uint64_t, cap);

		for (size_t k = 0; k < s->cap; k++) {
			uint64_t e = s->slot[k];

			if (!e)
				continue;
			for (i = _idset_home((uint32_t)(e >> 32), cap); slot[i];
			     i = (i + 1) & (cap - 1))
				;
			slot[i] = e;
		}
		g_free(s->slot);
		s->slot = slot;
		s->cap = cap;
	}
	for (i = _idset_home(id, s->cap); s->slot[i];
	     i = (i + 1) & (s->cap - 1))
		if ((uint32_t)(s->slot[i] >> 32) == id)
			return (int)(uint32_t)s->slot[i];
	s->slot[i] = ((uint64_t)id << 32) | (uint32_t)line;
	s->used++;
	return 0;
}

/*
 * The jobs file is read on a thread of its own while the caller's
 * thread runs FN: the reader hands the jobs over in batches, in the order
 * of the file, and at most _BATCHES of them are under way (the memory of
 * a few thousand jobs).  The reader stops at its first error, and at the
 * next batch once FN stopped: FN sees the same jobs, in the same order,
 * as when one thread does both, and the error it would have met.
 */
#define _BATCH 2048
#define _BATCHES 4

/* A line split on the reader's thread: its record with the JobId and
 * name read, and its values, copied into the batch's text, for the
 * other thread to read (mf_jfields_fill). */
typedef struct {
	mf_job_line_t *job;
	bool cut;                /* the file ends in the middle of it */
	uint32_t at[F_N];        /* 1 + the offset of each value in the
				  * batch's text; 0: absent */
} _rec_t;

typedef struct {
	_rec_t rec[_BATCH];
	guint n;
	bool last;               /* the reader's last: it has stopped */
	char *text;              /* the values, NUL-ended */
	size_t len, cap;
} _batch_t;

typedef struct {
	GAsyncQueue *full;       /* batches for FN's thread */
	GAsyncQueue *empty;      /* batches back to the reader */
	_batch_t *cur;           /* the batch being filled */
	gint stop;               /* FN's thread stopped: read no more */
} _pipe_t;

typedef struct {
	mf_job_fn fn;
	void *arg;
	_pipe_t *pipe;           /* set: hand the jobs to another thread */
	_idset_t ids;            /* job ids seen (ids are never 0) */
	int jobs;                /* job lines read */
	int no_jobs_line;        /* line of "No jobs in the system", or 0 */
	int fn_rc;               /* what FN returned to stop */
	/* the reader thread's */
	const char *path;
	mf_error_t err;
	int rc;
} _load_t;

/* _filled[F_*]: read by mf_jfields_fill() (F_JOBID and the array's fields
 * are read where the line is split; set by _each_job_line) */
static bool _filled[F_N];

static void _batch_free(gpointer p)
{
	_batch_t *b = p;

	g_free(b->text);
	g_free(b);
}

/* Hand JOB, its values F (of lengths LEN), to the other thread.  Returns
 * 0, or -2 once that thread stopped. */
static int _pipe_put(_pipe_t *pp, mf_job_line_t *job, char *const *f,
		     const uint32_t *len, bool cut)
{
	_batch_t *b = pp->cur;
	_rec_t *r = &b->rec[b->n++];

	r->job = job;
	r->cut = cut;
	for (int i = 0; i < F_N; i++) {
		size_t n;

		r->at[i] = 0;
		if (!f[i] || !_filled[i])
			continue;
		n = (size_t)len[i] + 1;
		if (b->len + n > b->cap) {
			b->cap = 2 * (b->len + n) + 64 * 1024;
			b->text = g_realloc(b->text, b->cap);
		}
		memcpy(b->text + b->len, f[i], n);
		r->at[i] = (uint32_t)b->len + 1;
		b->len += n;
	}
	if (b->n < _BATCH)
		return 0;
	g_async_queue_push(pp->full, b);
	pp->cur = g_async_queue_pop(pp->empty);
	return g_atomic_int_get(&pp->stop) ? -2 : 0;
}

static int _job_fn(char *text, const char *path, int lineno, bool cut,
		   void *arg, mf_error_t *errp)
{
	_load_t *ld = arg;
	mf_job_line_t *job;
	const char *missing;
	int first;

	/* as g_strstrip(), which moves every line's text: only a line
	 * that starts with white space is moved */
	text = g_ascii_isspace(*text) ? g_strstrip(text) : g_strchomp(text);
	if (*text == 'N' && !strcmp(text, "No jobs in the system")) {
		/* scontrol on an idle cluster */
		ld->no_jobs_line = lineno;
		return 0;
	}
	/* a line the file ends in: whole only if it has every key scontrol
	 * always prints (the last, DelayBoot, comes after all those read) */
	if (cut && (missing = mf_jkeys_missing_always(text)))
		return mf_errprintf(errp, "%s:%d: no %s= field, which scontrol "
				    "prints on every job line", path, lineno,
				    missing);
	if (ld->pipe) {
		char *f[F_N];
		uint32_t len[F_N];

		if (!(job = mf_jfields_split(text, path, lineno, f, len, errp)))
			return -1;
		/* the other thread reads the values, then looks for the job
		 * listed twice, as below */
		return _pipe_put(ld->pipe, job, f, len, cut);
	}
	if (!(job = mf_jfields_parse(text, path, lineno, errp)))
		return -1;
	if ((first = _idset_add(&ld->ids, job->job_id, lineno))) {
		mf_errprintf(errp, "%s:%d: job %u is listed twice (first at "
			     "line %d)", path, lineno, job->job_id, first);
		mf_job_line_free(job);
		return -1;
	}
	ld->jobs++;
	if ((ld->fn_rc = ld->fn(job, ld->arg)))
		return -2;       /* FN reports: errp untouched */
	return 0;
}

/* The reader thread: the file into batches, then the last batch. */
static gpointer _reader_main(gpointer arg)
{
	_load_t *ld = arg;

	ld->rc = mf_lines_each(ld->path, &mf_dump_jobs, _job_fn, ld, &ld->err);
	ld->pipe->cur->last = true;
	g_async_queue_push(ld->pipe->full, ld->pipe->cur);
	ld->pipe->cur = NULL;
	return NULL;
}

/* One record R of batch B on FN's thread: the rest of its line read,
 * then handed to FN.  Returns 0, -1 with errp set, or what FN returned
 * (in *FN_RC). */
static int _rec_take(_load_t *ld, const _batch_t *b, const _rec_t *r,
		     int *fn_rc, mf_error_t *errp)
{
	mf_job_line_t *job = r->job;
	char *f[F_N];
	int first = 0;

	for (int i = 0; i < F_N; i++)
		f[i] = r->at[i] ? b->text + r->at[i] - 1 : NULL;
	if (mf_jfields_fill(job, f, ld->path, job->line, errp) ||
	    ((first = _idset_add(&ld->ids, job->job_id, job->line)) &&
	     mf_errprintf(errp, "%s:%d: job %u is listed twice (first at "
			  "line %d)", ld->path, job->line, job->job_id,
			  first))) {
		if (r->cut)
			mf_dump_note_cut(errp, "this line");
		mf_job_line_free(job);
		return -1;
	}
	ld->jobs++;
	*fn_rc = ld->fn(job, ld->arg);
	return 0;
}

/* FN's side: each record of each batch read and handed to FN until one
 * is at fault or FN stops (the rest are freed), then the reader's end.
 * Returns mf_lines_each()'s status as one thread gives it, or -2 for FN's
 * (in ld->fn_rc). */
static int _pipe_take(_load_t *ld, GThread *th, mf_error_t *errp)
{
	_pipe_t *pp = ld->pipe;
	bool last = false;
	int fn_rc = 0, rc = 0;

	while (!last) {
		_batch_t *b = g_async_queue_pop(pp->full);

		for (guint i = 0; i < b->n; i++)
			if (rc || fn_rc)
				mf_job_line_free(b->rec[i].job);
			else
				rc = _rec_take(ld, b, &b->rec[i], &fn_rc,
					       errp);
		if (rc || fn_rc)
			g_atomic_int_set(&pp->stop, 1);
		last = b->last;
		b->n = 0;
		b->len = 0;
		b->last = false;
		if (last)
			_batch_free(b);
		else
			g_async_queue_push(pp->empty, b);
	}
	g_thread_join(th);
	if ((ld->fn_rc = fn_rc))
		return -2;
	if (rc)
		return rc;
	if (ld->rc && errp)
		*errp = ld->err;
	return ld->rc;
}

/* mf_lines_each() over the jobs file on a reader thread (one thread when
 * none can be started). */
static int _each_job_line(const char *path, _load_t *ld, mf_error_t *errp)
{
	_pipe_t pp = {
		.full = g_async_queue_new(),
		.empty = g_async_queue_new_full(_batch_free),
	};
	GThread *th;
	int rc;

	mf_jkeys_init();
	mf_jfields_filled(_filled);
	for (int i = 0; i < _BATCHES - 1; i++)
		g_async_queue_push(pp.empty, g_new0(_batch_t, 1));
	pp.cur = g_new0(_batch_t, 1);
	ld->pipe = &pp;
	ld->path = path;
	if ((th = g_thread_try_new("mfprio-jobs", _reader_main, ld, NULL))) {
		rc = _pipe_take(ld, th, errp);
	} else {
		ld->pipe = NULL;
		_batch_free(pp.cur);
		rc = mf_lines_each(path, &mf_dump_jobs, _job_fn, ld, errp);
	}
	g_async_queue_unref(pp.full);
	g_async_queue_unref(pp.empty);
	return rc;
}

int mf_jobs_each(const char *path, mf_job_fn fn, void *arg,
		 mf_error_t *errp)
{
	_load_t ld = { .fn = fn, .arg = arg };
	int rc;

	if (mf_jobs_is_json(path))
		return mf_jobs_json_each(path, fn, arg, errp);
	rc = _each_job_line(path, &ld, errp);

	g_free(ld.ids.slot);
	if (ld.fn_rc)
		return ld.fn_rc;
	if (!rc && ld.no_jobs_line && ld.jobs)
		rc = mf_errprintf(errp, "%s:%d: \"No jobs in the system\" in a "
				  "file that lists jobs", path,
				  ld.no_jobs_line);
	return rc;
}

static int _add_fn(mf_job_line_t *job, void *arg)
{
	g_ptr_array_add(arg, job);
	return 0;
}

GPtrArray *mf_jobs_load(const char *path, mf_error_t *errp)
{
	GPtrArray *jobs = g_ptr_array_new_with_free_func(
		(GDestroyNotify)mf_job_line_free);

	if (mf_jobs_each(path, _add_fn, jobs, errp)) {
		g_ptr_array_unref(jobs);
		return NULL;
	}
	return jobs;
}

