/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "job_line.h"

void mf_job_line_free(mf_job_line_t *job)
{
	if (!job)
		return;
	/* the strings are interned (shared for the process) but the array
	 * task's name */
	if (job->job_id_str != job->id_text)
		g_free(job->job_id_str);
	g_free(job);
}

/* Whether V says no value: absent, "" or "(null)". */
static bool _is_null(const char *v)
{
	return !v || !*v || (v[0] == '(' && !strcmp(v, "(null)"));
}

/*
 * Interned strings: the same user, account, QOS, partition list, state
 * and reason are on many lines; one copy each for the process, in a pool
 * of its own (kept reachable to the end, unlike g_intern_string's blocks,
 * which leak checkers report).  An open-addressing table of entries that
 * keep each string's hash and length, so that a lookup compares a word
 * with few strings, and its split as a partition list once asked for.
 */
typedef struct {
	const char *s;           /* NULL: an empty slot */
	uint32_t hash;
	uint32_t len;
	const char *const *parts; /* s split at ',', interned; or NULL */
} _istr_t;

static struct {
	GStringChunk *pool;
	_istr_t *slot;
	size_t cap, used;
} _is;

static _istr_t *_intern_find(const char *s, size_t len, uint32_t hash)
{
	size_t i;

	for (i = hash & (_is.cap - 1); _is.slot[i].s; i = (i + 1) &
	     (_is.cap - 1))
		if (_is.slot[i].hash == hash && _is.slot[i].len == len &&
		    !memcmp(_is.slot[i].s, s, len))
			break;
	return &_is.slot[i];
}

static void _intern_grow(void)
{
	_istr_t *old = _is.slot;
	size_t old_cap = _is.cap;

	_is.cap = old_cap ? 2 * old_cap : 1024;
	_is.slot = g_new0(_istr_t, _is.cap);
	for (size_t k = 0; k < old_cap; k++) {
		size_t i;

		if (!old[k].s)
			continue;
		for (i = old[k].hash & (_is.cap - 1); _is.slot[i].s;
		     i = (i + 1) & (_is.cap - 1))
			;
		_is.slot[i] = old[k];
	}
	g_free(old);
}

/* The entry of the LEN bytes at S, made if new. */
static _istr_t *_intern_len(const char *s, size_t len)
{
	uint32_t hash = mf_jobs_hash(s, len);
	_istr_t *e;

	if (2 * (_is.used + 1) > _is.cap)
		_intern_grow();
	if (!_is.pool)
		_is.pool = g_string_chunk_new(64 * 1024);
	e = _intern_find(s, len, hash);
	if (!e->s) {
		e->s = g_string_chunk_insert_len(_is.pool, s, (gssize)len);
		e->hash = hash;
		e->len = (uint32_t)len;
		_is.used++;
	}
	return e;
}

const char *const *mf_jobs_intern_parts(const char *parts)
{
	static const char *const none[1] = { NULL };
	_istr_t *e;
	const char **l;
	const char *p;
	size_t n = 1, k = 0;

	if (_is_null(parts))
		return none;
	e = _intern_len(parts, strlen(parts));
	if (e->parts)
		return e->parts;
	for (p = parts; *p; p++)
		n += *p == ',';
	l = g_new0(const char *, n + 1);
	for (p = parts;; p++) {
		const char *q = strchr(p, ',');
		size_t len = q ? (size_t)(q - p) : strlen(p);

		l[k++] = _intern_len(p, len)->s;
		if (!q)
			break;
		p = q;
	}
	/* the table may have grown: find the entry again */
	e = _intern_len(parts, strlen(parts));
	e->parts = l;
	return l;
}

const char *mf_jobs_intern(const char *s)
{
	return _intern_len(s, strlen(s))->s;
}

const char *mf_jobs_intern_len(const char *s, size_t len)
{
	return _intern_len(s, len)->s;
}
