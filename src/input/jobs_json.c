/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "jobs_json.h"

/* 32-bit sentinels as the one-line reader keeps them */
#define _UNLIMITED 0xffffffffU
#define _PART_LIMIT 0xfffffffeU

bool mf_jobs_is_json(const char *path)
{
	FILE *fp = fopen(path, "r");
	int c;

	if (!fp)
		return false;
	while ((c = getc(fp)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		;
	fclose(fp);
	return c == '{';
}

/* What a number member holds. */
typedef enum {
	_NUM_ABSENT,   /* no such member */
	_NUM_NULL,     /* null: plain releases' "not set" (or infinite) */
	_NUM_UNSET,    /* {"set": false} */
	_NUM_INFINITE, /* {"infinite": true} */
	_NUM_VALUE,    /* a number, in *v */
	_NUM_BAD,      /* anything else */
} _num_kind_t;

/* Whether member KEY of O is the boolean B. */
static bool _is_bool(JsonObject *o, const char *key, bool b)
{
	JsonNode *n = json_object_get_member(o, key);

	return n && JSON_NODE_HOLDS_VALUE(n) &&
	       json_node_get_value_type(n) == G_TYPE_BOOLEAN &&
	       !json_node_get_boolean(n) == !b;
}

/* Member KEY of O as a whole number: plain, null, or the data_parser's
 * {"set", "infinite", "number"} object. */
static _num_kind_t _num(JsonObject *o, const char *key, gint64 *v)
{
	JsonNode *n = json_object_get_member(o, key);
	JsonObject *no;

	*v = 0;
	if (!n)
		return _NUM_ABSENT;
	if (JSON_NODE_HOLDS_NULL(n))
		return _NUM_NULL;
	if (JSON_NODE_HOLDS_OBJECT(n)) {
		JsonNode *num;

		no = json_node_get_object(n);
		if (_is_bool(no, "infinite", true))
			return _NUM_INFINITE;
		if (_is_bool(no, "set", false))
			return _NUM_UNSET;
		num = json_object_get_member(no, "number");
		if (!num)
			return _NUM_UNSET;
		n = num;
	}
	if (!JSON_NODE_HOLDS_VALUE(n))
		return _NUM_BAD;
	switch (json_node_get_value_type(n)) {
	case G_TYPE_INT64:
		*v = json_node_get_int(n);
		return _NUM_VALUE;
	case G_TYPE_BOOLEAN:
		*v = json_node_get_boolean(n);
		return _NUM_VALUE;
	default:
		return _NUM_BAD;
	}
}

/* Member KEY of O as a string: a string, or the first of an array of
 * strings (job_state from 23.11); NULL when absent, null or empty.
 * Sets *BAD to KEY (the first such) if it is of another type. */
static const char *_str(JsonObject *o, const char *key, const char **bad)
{
	JsonNode *n = json_object_get_member(o, key);
	const char *s;

	if (n && JSON_NODE_HOLDS_ARRAY(n)) {
		JsonArray *a = json_node_get_array(n);

		n = json_array_get_length(a) ? json_array_get_element(a, 0)
					     : NULL;
	}
	if (!n || JSON_NODE_HOLDS_NULL(n))
		return NULL;
	if (!JSON_NODE_HOLDS_VALUE(n) ||
	    json_node_get_value_type(n) != G_TYPE_STRING) {
		if (!*bad)
			*bad = key;
		return NULL;
	}
	s = json_node_get_string(n);
	return s && *s && strcmp(s, "(null)") ? s : NULL;
}

/*
 * The members of a job object read into mf_job_line_t, by a table: each
 * its parser, the member it fills, its default and what a bad value is
 * not.  A parser returns 0, or -1 for a bad value ("KEY is not WHY"); a
 * string of another type is noted in *BAD_STR (the first such, named
 * after every other check).  job_id, the array task's name and user_name
 * come first (_job_id: every message names the job).
 */
typedef struct _jspec _jspec_t;

typedef int (*_jparse_t)(JsonObject *o, const _jspec_t *s,
			 mf_job_line_t *job, const char **bad_str);

struct _jspec {
	const char *key;
	_jparse_t parse;
	size_t off;              /* offsetof(mf_job_line_t, ...) */
	const void *dflt;        /* for PARSE */
	const char *why;
};

#define _TO(job, s, type) ((type *)(void *)((char *)(job) + (s)->off))

/* A string, interned; DFLT (NULL: none) when absent or empty. */
static int _jp_str(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		   const char **bad_str)
{
	const char *v = _str(o, s->key, bad_str);

	if (!v)
		v = s->dflt;
	*_TO(job, s, const char *) = v ? mf_jobs_intern(v) : NULL;
	return 0;
}

/* Whether the string is there. */
static int _jp_set(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		   const char **bad_str)
{
	*_TO(job, s, bool) = _str(o, s->key, bad_str) != NULL;
	return 0;
}

/* A list of partitions. */
static int _jp_parts(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		     const char **bad_str)
{
	*_TO(job, s, const char *const *) =
		mf_jobs_intern_parts(_str(o, s->key, bad_str));
	return 0;
}

/* A 32-bit number kept when it is one, else left (user_id). */
static int _jp_u32_if(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		      const char **bad_str)
{
	gint64 v;

	if (_num(o, s->key, &v) == _NUM_VALUE && v >= 0 && v <= 0xffffffffLL)
		*_TO(job, s, uint32_t) = (uint32_t)v;
	return 0;
}

/* A 32-bit number; *DFLT when absent, null or not set. */
static int _jp_u32(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		   const char **bad_str)
{
	gint64 v;
	_num_kind_t k = _num(o, s->key, &v);

	if (k == _NUM_BAD || (k == _NUM_VALUE &&
			      (v < 0 || v > 0xffffffffLL)))
		return -1;
	*_TO(job, s, uint32_t) = k == _NUM_VALUE ? (uint32_t)v
				 : *(const uint32_t *)s->dflt;
	return 0;
}

/* A signed number; 0 when absent, null or not set. */
static int _jp_i64(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		   const char **bad_str)
{
	gint64 v;
	_num_kind_t k = _num(o, s->key, &v);

	if (k == _NUM_BAD)
		return -1;
	*_TO(job, s, int64_t) = k == _NUM_VALUE ? v : 0;
	return 0;
}

/* nice: 22.05 takes the offset off in unsigned 32-bit arithmetic, so a
 * negative nice comes out as 2^32 + nice. */
static int _jp_nice(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		    const char **bad_str)
{
	if (_jp_i64(o, s, job, bad_str))
		return -1;
	if (job->nice >= 0x80000000LL && job->nice <= 0xffffffffLL)
		job->nice -= 0x100000000LL;
	return 0;
}

/* 22.05 writes null for UNLIMITED and the number 4294967294 for the
 * partition's limit; the data_parser {"infinite": true} and
 * {"set": false}. */
static int _jp_limit(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		     const char **bad_str)
{
	gint64 v;

	switch (_num(o, s->key, &v)) {
	case _NUM_NULL:
	case _NUM_INFINITE:
		job->time_limit = _UNLIMITED;
		return 0;
	case _NUM_ABSENT:
	case _NUM_UNSET:
		job->time_limit = _PART_LIMIT;
		return 0;
	case _NUM_VALUE:
		if (v < 0 || v > 0xffffffffLL)
			return -1;
		job->time_limit = (uint32_t)v;
		return 0;
	case _NUM_BAD:
	default:
		return -1;
	}
}

/* A time; 0 when absent, null or not set. */
static int _jp_time(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		    const char **bad_str)
{
	gint64 v;
	_num_kind_t k = _num(o, s->key, &v);

	if (k == _NUM_BAD || (k == _NUM_VALUE && v < 0))
		return -1;
	*_TO(job, s, time_t) = k == _NUM_VALUE ? (time_t)v : 0;
	if (s->dflt)             /* accrue_time: whether it is there */
		job->has_accrue_time = k != _NUM_ABSENT;
	return 0;
}

/* A count (node_count, cpus); 1 when absent, null or not set. */
static int _jp_count(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		     const char **bad_str)
{
	gint64 v;
	_num_kind_t k = _num(o, s->key, &v);

	*_TO(job, s, uint32_t) = 1;
	if (k == _NUM_VALUE && v >= 0 && v <= 0xffffffffLL)
		*_TO(job, s, uint32_t) = (uint32_t)v;
	else if (k == _NUM_VALUE || k == _NUM_BAD)
		return -1;
	return 0;
}

/* max_nodes: as scontrol prints NumNodes= for a pending job, the smaller
 * of the minimum and a maximum below it. */
static int _jp_max_nodes(JsonObject *o, const _jspec_t *s,
			 mf_job_line_t *job, const char **bad_str)
{
	gint64 w;

	if (job->state && !strcmp(job->state, "PENDING") &&
	    _num(o, s->key, &w) == _NUM_VALUE && w > 0 && w < job->min_nodes)
		job->min_nodes = (uint32_t)w;
	return 0;
}

/* max_cpus: kept when above 0. */
static int _jp_max(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		   const char **bad_str)
{
	gint64 v;
	_num_kind_t k = _num(o, s->key, &v);

	if (k == _NUM_VALUE && v > 0 && v <= 0xffffffffLL)
		*_TO(job, s, uint32_t) = (uint32_t)v;
	else if (k == _NUM_BAD)
		return -1;
	return 0;
}

/* The allocated TRES, else the requested (DFLT): what 22.05's TRES=
 * is. */
static int _jp_tres(JsonObject *o, const _jspec_t *s, mf_job_line_t *job,
		    const char **bad_str)
{
	const char *v = _str(o, s->key, bad_str);

	if (!v)
		v = _str(o, s->dflt, bad_str);
	job->tres = v ? mf_jobs_intern(v) : NULL;
	return 0;
}

static const uint32_t _one = 1;

#define _AT(m) offsetof(mf_job_line_t, m)
static const _jspec_t _jspec[] = {
	{ "user_id", _jp_u32_if, _AT(uid), NULL, NULL },
	{ "account", _jp_str, _AT(account), "", NULL },
	{ "qos", _jp_str, _AT(qos), NULL, NULL },
	/* null or not set: none given (as a line without Priority=) */
	{ "priority", _jp_u32, _AT(priority), &_one, "a number" },
	{ "nice", _jp_nice, _AT(nice), NULL, "a number" },
	{ "site_factor", _jp_i64, _AT(site_factor), NULL, "a number" },
	{ "job_state", _jp_str, _AT(state), "PENDING", NULL },
	{ "state_reason", _jp_str, _AT(reason), "None", NULL },
	{ "dependency", _jp_set, _AT(dependent), NULL, NULL },
	{ "time_limit", _jp_limit, _AT(time_limit), NULL,
	  "a number of minutes" },
	{ "submit_time", _jp_time, _AT(submit_time), NULL, "a time" },
	{ "eligible_time", _jp_time, _AT(eligible_time), NULL, "a time" },
	{ "accrue_time", _jp_time, _AT(accrue_time), &_one, "a time" },
	{ "partition", _jp_parts, _AT(partitions), NULL, NULL },
	{ "node_count", _jp_count, _AT(min_nodes), NULL, "a number" },
	{ "max_nodes", _jp_max_nodes, _AT(min_nodes), NULL, NULL },
	{ "cpus", _jp_count, _AT(min_cpus), NULL, "a number" },
	{ "max_cpus", _jp_max, _AT(max_cpus), NULL, "a number" },
	{ "tres_alloc_str", _jp_tres, _AT(tres), "tres_req_str", NULL },
};
#undef _AT

/* job_id, the name squeue gives an array's task or record, and
 * user_name.  Returns 0, or -1 with errp naming FILE:LINE. */
static int _job_id(JsonObject *o, mf_job_line_t *job, const char **bad_str,
		   mf_error_t *errp)
{
	gint64 v, w;
	_num_kind_t k = _num(o, "job_id", &v);
	const char *s;

	if (k == _NUM_ABSENT)
		return mf_errprintf(errp, "%s:%d: a job without job_id",
				    job->file, job->line);
	if (k != _NUM_VALUE || v <= 0 || v > 0xffffffffLL)
		return mf_errprintf(errp, "%s:%d: job_id is not a job id (a "
				    "whole number from 1 to 4294967295)",
				    job->file, job->line);
	job->job_id = (uint32_t)v;
	snprintf(job->id_text, sizeof(job->id_text), "%u", job->job_id);
	job->job_id_str = job->id_text;

	/* an array's task (100_3) or record of pending tasks (100_[4-9%2]),
	 * as squeue names them */
	if (_num(o, "array_job_id", &v) == _NUM_VALUE && v > 0) {
		k = _num(o, "array_task_id", &w);
		s = _str(o, "array_task_string", bad_str);
		if (k == _NUM_VALUE && w >= 0 && w < 0xfffffffeLL)
			job->job_id_str = g_strdup_printf(
				"%" G_GINT64_FORMAT "_%" G_GINT64_FORMAT, v, w);
		else if (s)
			job->job_id_str = g_strdup_printf(
				s[strspn(s, "0123456789")] ?
				"%" G_GINT64_FORMAT "_[%s]" :
				"%" G_GINT64_FORMAT "_%s", v, s);
	}

	if (!(s = _str(o, "user_name", bad_str)))
		return mf_errprintf(errp, "%s:%d: job %s: no user_name",
				    job->file, job->line, job->job_id_str);
	job->user = mf_jobs_intern(s);
	return 0;
}

/* Fill JOB from O.  Returns 0, or -1 with errp naming FILE:LINE. */
static int _job(JsonObject *o, mf_job_line_t *job, mf_error_t *errp)
{
	const char *bad_str = NULL;

	if (_job_id(o, job, &bad_str, errp))
		return -1;
	for (size_t i = 0; i < G_N_ELEMENTS(_jspec); i++)
		if (_jspec[i].parse(o, &_jspec[i], job, &bad_str))
			return mf_errprintf(errp, "%s:%d: job %s: %s is not %s",
					    job->file, job->line,
					    job->job_id_str, _jspec[i].key,
					    _jspec[i].why);
	if (bad_str)
		return mf_errprintf(errp, "%s:%d: job %s: %s is not a string",
				    job->file, job->line, job->job_id_str,
				    bad_str);
	return 0;
}

/* The state of one read: JsonParser hands each element of an array to
 * _element_cb as soon as it is parsed; a job of the "jobs" array (an
 * array in the root object) is made a record, handed to FN and taken out
 * of the tree at once, so the tree never holds more than one job. */
typedef struct {
	const char *path;        /* interned */
	mf_job_fn fn;
	void *arg;
	mf_error_t *errp;
	GHashTable *seen;        /* job id -> the line its object ended on */
	int depth;               /* objects and arrays open */
	guint jobs;              /* jobs handed to FN */
	int rc;                  /* set: the rest is parsed, not read */
} _read_t;

static void _open_cb(JsonParser *parser, gpointer arg)
{
	((_read_t *)arg)->depth++;
}

static void _close_cb(JsonParser *parser, gpointer any, gpointer arg)
{
	((_read_t *)arg)->depth--;
}

static void _element_cb(JsonParser *parser, JsonArray *array, gint index,
			gpointer arg)
{
	_read_t *rd = arg;
	guint last = json_array_get_length(array) - 1;
	JsonNode *n = json_array_get_element(array, last);
	JsonObject *o;
	mf_job_line_t *job;
	gpointer first;

	/* only the elements of an array in the root object that are
	 * objects with a job_id: the rest stays for the checks after */
	if (rd->depth != 2 || !JSON_NODE_HOLDS_OBJECT(n) ||
	    !json_object_has_member((o = json_node_get_object(n)), "job_id"))
		return;
	if (!rd->rc) {
		job = g_new0(mf_job_line_t, 1);
		job->file = rd->path;
		job->line = json_parser_get_current_line(parser);
		if (!(rd->rc = _job(o, job, rd->errp)) &&
		    (first = g_hash_table_lookup(
			     rd->seen, GUINT_TO_POINTER(job->job_id))))
			rd->rc = mf_errprintf(rd->errp, "%s:%d: job %u is "
					      "listed twice (first ending at "
					      "line %d)", rd->path, job->line,
					      job->job_id,
					      GPOINTER_TO_INT(first));
		if (rd->rc) {
			mf_job_line_free(job);
		} else {
			g_hash_table_insert(rd->seen,
					    GUINT_TO_POINTER(job->job_id),
					    GINT_TO_POINTER(job->line));
			rd->jobs++;
			rd->rc = rd->fn(job, rd->arg);
		}
	}
	json_array_remove_element(array, last);
}

int mf_jobs_json_each(const char *path, mf_job_fn fn, void *arg,
		      mf_error_t *errp)
{
	JsonParser *parser = json_parser_new();
	_read_t rd = {
		.path = mf_jobs_intern(path), .fn = fn, .arg = arg,
		.errp = errp,
		.seen = g_hash_table_new(g_direct_hash, g_direct_equal),
	};
	GError *gerr = NULL;
	JsonNode *root, *jobs_node = NULL;
	JsonArray *jobs;
	int rc = 0;

	g_signal_connect(parser, "object-start", G_CALLBACK(_open_cb), &rd);
	g_signal_connect(parser, "array-start", G_CALLBACK(_open_cb), &rd);
	g_signal_connect(parser, "object-end", G_CALLBACK(_close_cb), &rd);
	g_signal_connect(parser, "array-end", G_CALLBACK(_close_cb), &rd);
	g_signal_connect(parser, "array-element", G_CALLBACK(_element_cb),
			 &rd);
	if (!json_parser_load_from_mapped_file(parser, path, &gerr)) {
		/* a job's error, or what FN returned, comes first */
		if (rd.rc)
			rc = rd.rc;
		/* json-glib's parse errors start "FILE:LINE:COL: "; its
		 * encoding error names no file */
		else if (gerr->domain == JSON_PARSER_ERROR &&
			 g_str_has_prefix(gerr->message, path))
			rc = mf_errprintf(errp, "%s (not a JSON job dump: "
					  "squeue --json or scontrol show job "
					  "--json)", gerr->message);
		else if (gerr->domain == JSON_PARSER_ERROR)
			rc = mf_errprintf(errp, "%s: %s (not a JSON job dump: "
					  "squeue --json or scontrol show job "
					  "--json)", path, gerr->message);
		else
			rc = mf_errprintf(errp, "%s: %s", path,
					  gerr->message);
		goto out;
	}
	if ((rc = rd.rc))
		goto out;
	root = json_parser_get_root(parser);
	if (root && JSON_NODE_HOLDS_OBJECT(root))
		jobs_node = json_object_get_member(json_node_get_object(root),
						   "jobs");
	if (!jobs_node || !JSON_NODE_HOLDS_ARRAY(jobs_node)) {
		rc = mf_errprintf(errp, "%s: no \"jobs\" array (expected the "
				  "output of squeue --json or scontrol show "
				  "job --json)", path);
		goto out;
	}
	/* the jobs were taken out as they came: what is left is not one */
	jobs = json_node_get_array(jobs_node);
	if (json_array_get_length(jobs)) {
		JsonNode *n = json_array_get_element(jobs, 0);

		rc = mf_errprintf(errp, "%s: \"jobs\" holds %s after job %u "
				  "of the file (a job is an object with "
				  "job_id)", path, JSON_NODE_HOLDS_OBJECT(n) ?
				  "an object without job_id" :
				  "something not an object", rd.jobs);
	}
out:
	if (gerr)
		g_error_free(gerr);
	g_hash_table_unref(rd.seen);
	g_object_unref(parser);
	return rc;
}
