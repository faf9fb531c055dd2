/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
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

/* Fill JOB from O.  Returns 0, or -1 with errp naming FILE:LINE. */
static int _job(JsonObject *o, mf_job_line_t *job, mf_error_t *errp)
{
	const char *bad = NULL, *why = NULL, *s;
	const char *file = job->file;
	int line = job->line;
	const char *bad_str = NULL;
	gint64 v, w;
	_num_kind_t k;

	k = _num(o, "job_id", &v);
	if (k == _NUM_ABSENT)
		return mf_errprintf(errp, "%s:%d: a job without job_id", file,
				    line);
	if (k != _NUM_VALUE || v <= 0 || v > 0xffffffffLL)
		return mf_errprintf(errp, "%s:%d: job_id is not a job id (a "
				    "whole number from 1 to 4294967295)", file,
				    line);
	job->job_id = (uint32_t)v;
	snprintf(job->id_text, sizeof(job->id_text), "%u", job->job_id);
	job->job_id_str = job->id_text;

	/* an array's task (100_3) or record of pending tasks (100_[4-9%2]),
	 * as squeue names them */
	if (_num(o, "array_job_id", &v) == _NUM_VALUE && v > 0) {
		k = _num(o, "array_task_id", &w);
		s = _str(o, "array_task_string", &bad_str);
		if (k == _NUM_VALUE && w >= 0 && w < 0xfffffffeLL)
			job->job_id_str = g_strdup_printf(
				"%" G_GINT64_FORMAT "_%" G_GINT64_FORMAT, v, w);
		else if (s)
			job->job_id_str = g_strdup_printf(
				s[strspn(s, "0123456789")] ?
				"%" G_GINT64_FORMAT "_[%s]" :
				"%" G_GINT64_FORMAT "_%s", v, s);
	}

	if (!(s = _str(o, "user_name", &bad_str)))
		return mf_errprintf(errp, "%s:%d: job %s: no user_name", file,
				    line, job->job_id_str);
	job->user = mf_jobs_intern(s);
	if (_num(o, "user_id", &v) == _NUM_VALUE && v >= 0 &&
	    v <= 0xffffffffLL)
		job->uid = (uint32_t)v;
	s = _str(o, "account", &bad_str);
	job->account = mf_jobs_intern(s ? s : "");
	s = _str(o, "qos", &bad_str);
	job->qos = s ? mf_jobs_intern(s) : NULL;

	/* null or not set: none given (as a line without Priority=) */
	k = _num(o, "priority", &v);
	if (k == _NUM_VALUE && (v < 0 || v > 0xffffffffLL))
		k = _NUM_BAD;
	if (k == _NUM_BAD) {
		bad = "priority", why = "a number";
		goto bad_member;
	}
	job->priority = k == _NUM_VALUE ? (uint32_t)v : 1;

	if ((k = _num(o, "nice", &v)) == _NUM_BAD) {
		bad = "nice", why = "a number";
		goto bad_member;
	}
	job->nice = k == _NUM_VALUE ? v : 0;
	/* 22.05 takes the offset off in unsigned 32-bit arithmetic: a
	 * negative nice comes out as 2^32 + nice */
	if (job->nice >= 0x80000000LL && job->nice <= 0xffffffffLL)
		job->nice -= 0x100000000LL;
	if ((k = _num(o, "site_factor", &v)) == _NUM_BAD) {
		bad = "site_factor", why = "a number";
		goto bad_member;
	}
	job->site_factor = k == _NUM_VALUE ? v : 0;

	s = _str(o, "job_state", &bad_str);
	job->state = mf_jobs_intern(s ? s : "PENDING");
	s = _str(o, "state_reason", &bad_str);
	job->reason = mf_jobs_intern(s ? s : "None");
	job->dependent = _str(o, "dependency", &bad_str) != NULL;

	/* 22.05 writes null for UNLIMITED and the number 4294967294 for the
	 * partition's limit; the data_parser {"infinite": true} and
	 * {"set": false} */
	switch (_num(o, "time_limit", &v)) {
	case _NUM_NULL:
	case _NUM_INFINITE:
		job->time_limit = _UNLIMITED;
		break;
	case _NUM_ABSENT:
	case _NUM_UNSET:
		job->time_limit = _PART_LIMIT;
		break;
	case _NUM_VALUE:
		if (v >= 0 && v <= 0xffffffffLL) {
			job->time_limit = (uint32_t)v;
			break;
		}
		/* fall through */
	case _NUM_BAD:
		bad = "time_limit", why = "a number of minutes";
		goto bad_member;
	}

	{
		static const char *const names[] = {
			"submit_time", "eligible_time", "accrue_time"
		};
		time_t *to[] = { &job->submit_time, &job->eligible_time,
				 &job->accrue_time };

		for (int i = 0; i < 3; i++) {
			k = _num(o, names[i], &v);
			if (k == _NUM_BAD || (k == _NUM_VALUE && v < 0)) {
				bad = names[i], why = "a time";
				goto bad_member;
			}
			*to[i] = k == _NUM_VALUE ? (time_t)v : 0;
			if (i == 2)
				job->has_accrue_time = k != _NUM_ABSENT;
		}
	}

	job->partitions = mf_jobs_intern_parts(_str(o, "partition",
						    &bad_str));

	/* as scontrol prints NumNodes= for a pending job: the smaller of
	 * the minimum and a maximum below it */
	job->min_nodes = 1;
	if ((k = _num(o, "node_count", &v)) == _NUM_VALUE && v >= 0 &&
	    v <= 0xffffffffLL)
		job->min_nodes = (uint32_t)v;
	else if (k == _NUM_VALUE || k == _NUM_BAD) {
		bad = "node_count", why = "a number";
		goto bad_member;
	}
	if (job->state && !strcmp(job->state, "PENDING") &&
	    _num(o, "max_nodes", &w) == _NUM_VALUE && w > 0 &&
	    w < job->min_nodes)
		job->min_nodes = (uint32_t)w;
	job->min_cpus = 1;
	if ((k = _num(o, "cpus", &v)) == _NUM_VALUE && v >= 0 &&
	    v <= 0xffffffffLL)
		job->min_cpus = (uint32_t)v;
	else if (k == _NUM_VALUE || k == _NUM_BAD) {
		bad = "cpus", why = "a number";
		goto bad_member;
	}
	if ((k = _num(o, "max_cpus", &v)) == _NUM_VALUE && v > 0 &&
	    v <= 0xffffffffLL)
		job->max_cpus = (uint32_t)v;
	else if (k == _NUM_BAD) {
		bad = "max_cpus", why = "a number";
		goto bad_member;
	}
	/* the allocated TRES, else the requested: what 22.05's TRES= is */
	if (!(s = _str(o, "tres_alloc_str", &bad_str)))
		s = _str(o, "tres_req_str", &bad_str);
	job->tres = s ? mf_jobs_intern(s) : NULL;

	if (bad_str)
		return mf_errprintf(errp, "%s:%d: job %s: %s is not a string",
				    file, line, job->job_id_str, bad_str);
	return 0;

bad_member:
	return mf_errprintf(errp, "%s:%d: job %s: %s is not %s", file, line,
			    job->job_id_str, bad, why);
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
