/* SPDX-License-Identifier: GPL-2.0-or-later */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "dump_header.h"
#include "jobs_input.h"
#include "timestr.h"

void mf_job_line_free(mf_job_line_t *job)
{
	if (!job)
		return;
	g_free(job->job_id_str);
	g_free(job->user);
	g_free(job->account);
	g_free(job->qos);
	g_free(job->state);
	g_free(job->reason);
	g_strfreev(job->partitions);
	g_free(job->tres);
	g_free(job->file);
	g_free(job);
}

int mf_parse_slurm_time(const char *text, time_t *out)
{
	struct tm tm;
	const char *end;
	char *nend;
	long long secs;

	if (!strcasecmp(text, "Unknown") || !strcasecmp(text, "None") ||
	    !strcasecmp(text, "N/A") || !strcmp(text, "0")) {
		*out = 0;
		return 0;
	}
	if (isdigit((unsigned char)text[0]) && !strchr(text, '-') &&
	    !strchr(text, ':')) {
		errno = 0;
		secs = strtoll(text, &nend, 10);
		if (*nend || errno || secs < 0)
			return -1;
		*out = (time_t)secs;
		return 0;
	}
	memset(&tm, 0, sizeof(tm));
	end = strptime(text, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || *end)
		return -1;
	tm.tm_isdst = -1;
	*out = mktime(&tm);
	return *out == (time_t)-1 ? -1 : 0;
}

/* A whole number into *OUT within MAX.  Returns 0 or -1. */
static int _parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno || v > max)
		return -1;
	*out = v;
	return 0;
}

static int _parse_int(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

/* "N" or "N-M" into LO and HI (0 when no range). */
static int _parse_range(const char *s, uint32_t *lo, uint32_t *hi)
{
	char *dash = strchr(s, '-');
	uint64_t a, b = 0;
	int rc;

	if (dash) {
		char *first = g_strndup(s, (gsize)(dash - s));

		rc = _parse_uint(first, 0xffffffffU, &a);
		g_free(first);
		if (rc || _parse_uint(dash + 1, 0xffffffffU, &b))
			return -1;
	} else if (_parse_uint(s, 0xffffffffU, &a)) {
		return -1;
	}
	*lo = (uint32_t)a;
	*hi = (uint32_t)b;
	return 0;
}

/* Split TEXT into key -> value (first occurrence wins). */
static GHashTable *_fields(const char *text)
{
	GHashTable *f = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      g_free);
	char **words = g_strsplit_set(text, " \t\r\n", -1);
	char *last_key = NULL;

	for (int i = 0; words[i]; i++) {
		char *w = words[i], *eq;

		if (!*w)
			continue;
		eq = strchr(w, '=');
		if (!eq || eq == w) {
			/* continues the previous value */
			if (last_key) {
				char *old = g_hash_table_lookup(f, last_key);

				if (old)
					g_hash_table_insert(f,
						g_strdup(last_key),
						g_strdup_printf("%s %s", old,
								w));
			}
			continue;
		}
		*eq = '\0';
		g_free(last_key);
		last_key = NULL;
		if (!g_hash_table_contains(f, w)) {
			g_hash_table_insert(f, g_strdup(w), g_strdup(eq + 1));
			last_key = g_strdup(w);
		}
	}
	g_free(last_key);
	g_strfreev(words);
	return f;
}

static bool _is_null(const char *v)
{
	return !v || !*v || !strcmp(v, "(null)");
}

mf_job_line_t *mf_job_line_parse(const char *text, const char *file,
				 int line, mf_error_t *errp)
{
	GHashTable *f = _fields(text);
	mf_job_line_t *job = g_new0(mf_job_line_t, 1);
	const char *v;
	uint64_t u;
	const char *bad = NULL, *bad_value = NULL, *why = NULL;

	job->file = g_strdup(file);
	job->line = line;
	job->time_limit = 0xfffffffeU;

	if (!(v = g_hash_table_lookup(f, "JobId"))) {
		mf_errprintf(errp, "%s:%d: no JobId= field (expected a line of "
			     "`scontrol -o show job`)", file, line);
		goto fail;
	}
	if (_parse_uint(v, 0xffffffffU, &u) || !u) {
		bad = "JobId", bad_value = v, why = "a job id";
		goto bad_field;
	}
	job->job_id = (uint32_t)u;
	job->job_id_str = g_strdup(v);

	if ((v = g_hash_table_lookup(f, "UserId"))) {
		const char *paren = strchr(v, '(');

		job->user = paren ? g_strndup(v, (gsize)(paren - v))
				  : g_strdup(v);
		if (paren) {
			char *num = g_strndup(paren + 1,
					      strcspn(paren + 1, ")"));

			if (!_parse_uint(num, 0xffffffffU, &u))
				job->uid = (uint32_t)u;
			g_free(num);
		}
		if (!*job->user) {
			bad = "UserId", bad_value = v, why = "NAME(UID)";
			goto bad_field;
		}
	} else {
		job->user = g_strdup("");
	}
	v = g_hash_table_lookup(f, "Account");
	job->account = g_strdup(_is_null(v) ? "" : v);
	v = g_hash_table_lookup(f, "QOS");
	job->qos = _is_null(v) ? NULL : g_strdup(v);

	if ((v = g_hash_table_lookup(f, "Priority"))) {
		if (_parse_uint(v, 0xffffffffU, &u)) {
			bad = "Priority", bad_value = v, why = "a number";
			goto bad_field;
		}
		job->priority = (uint32_t)u;
	} else {
		job->priority = 1;
	}
	if ((v = g_hash_table_lookup(f, "Nice")) &&
	    _parse_int(v, &job->nice)) {
		bad = "Nice", bad_value = v, why = "a number";
		goto bad_field;
	}
	if ((v = g_hash_table_lookup(f, "SiteFactor")) &&
	    _parse_int(v, &job->site_factor)) {
		bad = "SiteFactor", bad_value = v, why = "a number";
		goto bad_field;
	}
	v = g_hash_table_lookup(f, "JobState");
	job->state = g_strdup(v ? v : "PENDING");
	v = g_hash_table_lookup(f, "Reason");
	job->reason = g_strdup(v ? v : "None");
	v = g_hash_table_lookup(f, "Dependency");
	job->dependent = !_is_null(v);

	if ((v = g_hash_table_lookup(f, "TimeLimit"))) {
		if (!strcmp(v, "Partition_Limit")) {
			job->time_limit = 0xfffffffeU;
		} else {
			mf_error_t e;
			uint32_t mins;

			if (mf_timestr_mins(v, &mins, &e)) {
				bad = "TimeLimit", bad_value = v;
				why = "a time limit";
				goto bad_field;
			}
			job->time_limit = mins;
		}
	}
	if ((v = g_hash_table_lookup(f, "SubmitTime")) &&
	    mf_parse_slurm_time(v, &job->submit_time)) {
		bad = "SubmitTime", bad_value = v, why = "a time";
		goto bad_field;
	}
	if ((v = g_hash_table_lookup(f, "EligibleTime")) &&
	    mf_parse_slurm_time(v, &job->eligible_time)) {
		bad = "EligibleTime", bad_value = v, why = "a time";
		goto bad_field;
	}
	if ((v = g_hash_table_lookup(f, "AccrueTime"))) {
		if (mf_parse_slurm_time(v, &job->accrue_time)) {
			bad = "AccrueTime", bad_value = v, why = "a time";
			goto bad_field;
		}
		job->has_accrue_time = true;
	}
	v = g_hash_table_lookup(f, "Partition");
	job->partitions = _is_null(v) ? g_new0(char *, 1)
				      : g_strsplit(v, ",", -1);
	job->min_nodes = 1;
	if ((v = g_hash_table_lookup(f, "NumNodes"))) {
		uint32_t hi;

		if (_parse_range(v, &job->min_nodes, &hi)) {
			bad = "NumNodes", bad_value = v, why = "N or N-M";
			goto bad_field;
		}
	}
	job->min_cpus = 1;
	if ((v = g_hash_table_lookup(f, "NumCPUs")) &&
	    _parse_range(v, &job->min_cpus, &job->max_cpus)) {
		bad = "NumCPUs", bad_value = v, why = "N or N-M";
		goto bad_field;
	}
	v = g_hash_table_lookup(f, "TRES");
	job->tres = _is_null(v) ? NULL : g_strdup(v);
	g_hash_table_unref(f);
	return job;

bad_field:
	mf_errprintf(errp, "%s:%d: job %s: %s=%s is not %s", file, line,
		     job->job_id_str ? job->job_id_str : "?", bad, bad_value,
		     why);
fail:
	g_hash_table_unref(f);
	mf_job_line_free(job);
	return NULL;
}

/* Read PATH's lines; calls LINE_FN for each non-blank, non-comment line
 * but a first one that is the header of TITLES (may be NULL: none). */
typedef int (*_line_fn)(const char *text, const char *path, int lineno,
			void *arg, mf_error_t *errp);

static int _each_line(const char *path, const char *const *titles,
		      _line_fn fn, void *arg, mf_error_t *errp)
{
	bool first = true;
	char *text = NULL;
	GError *gerr = NULL;
	char **lines;
	int rc = 0;

	if (!g_file_get_contents(path, &text, NULL, &gerr)) {
		rc = mf_errprintf(errp, "%s: %s", path, gerr->message);
		g_error_free(gerr);
		return rc;
	}
	lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i] && !rc; i++) {
		char *l = lines[i];
		size_t n = strlen(l);

		if (n && l[n - 1] == '\r')
			l[n - 1] = '\0';
		{
			char *copy = g_strstrip(g_strdup(l));
			bool skip = !*copy || copy[0] == '#';

			g_free(copy);
			if (skip)
				continue;
		}
		if (first && titles && mf_dump_is_header(l, titles)) {
			first = false;
			continue;
		}
		first = false;
		rc = fn(l, path, i + 1, arg, errp);
	}
	g_strfreev(lines);
	g_free(text);
	return rc;
}

static int _job_fn(const char *text, const char *path, int lineno,
		   void *arg, mf_error_t *errp)
{
	GPtrArray *jobs = arg;
	mf_job_line_t *job = mf_job_line_parse(text, path, lineno, errp);

	if (!job)
		return -1;
	for (guint i = 0; i < jobs->len; i++) {
		mf_job_line_t *o = jobs->pdata[i];

		if (o->job_id == job->job_id) {
			int rc = mf_errprintf(errp, "%s:%d: job %u is listed "
					      "twice (first at line %d)", path,
					      lineno, job->job_id, o->line);
			mf_job_line_free(job);
			return rc;
		}
	}
	g_ptr_array_add(jobs, job);
	return 0;
}

GPtrArray *mf_jobs_load(const char *path, mf_error_t *errp)
{
	GPtrArray *jobs = g_ptr_array_new_with_free_func(
		(GDestroyNotify)mf_job_line_free);

	if (_each_line(path, NULL, _job_fn, jobs, errp)) {
		g_ptr_array_unref(jobs);
		return NULL;
	}
	return jobs;
}

static int _qos_fn(const char *text, const char *path, int lineno,
		   void *arg, mf_error_t *errp)
{
	GHashTable *qos = arg;
	char **f = g_strsplit(text, "|", -1);
	uint64_t prio = 0;
	int rc = 0;
	char *name;

	if (g_strv_length(f) < 2) {
		rc = mf_errprintf(errp, "%s:%d: expected NAME|PRIORITY "
				  "(sacctmgr -P -n show qos "
				  "format=Name,Priority)", path, lineno);
		goto out;
	}
	name = g_strstrip(f[0]);
	g_strstrip(f[1]);
	if (!*name)
		rc = mf_errprintf(errp, "%s:%d: empty QOS name", path, lineno);
	else if (*f[1] && _parse_uint(f[1], 0xffffffffU, &prio))
		rc = mf_errprintf(errp, "%s:%d: QOS %s: priority '%s' is not "
				  "a whole number", path, lineno, name, f[1]);
	else if (g_hash_table_contains(qos, name))
		rc = mf_errprintf(errp, "%s:%d: QOS %s is listed twice", path,
				  lineno, name);
	else
		g_hash_table_insert(qos, g_strdup(name),
				    GUINT_TO_POINTER((guint)prio));
out:
	g_strfreev(f);
	return rc;
}

GHashTable *mf_qos_load(const char *path, mf_error_t *errp)
{
	GHashTable *qos = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, NULL);

	if (_each_line(path, mf_header_qos, _qos_fn, qos, errp)) {
		g_hash_table_unref(qos);
		return NULL;
	}
	return qos;
}

static int _assoc_prio_fn(const char *text, const char *path, int lineno,
			  void *arg, mf_error_t *errp)
{
	GHashTable *t = arg;
	char **f = g_strsplit(text, "|", -1);
	uint64_t prio = 0;
	int rc = 0;

	if (g_strv_length(f) < 3) {
		rc = mf_errprintf(errp, "%s:%d: expected ACCOUNT|USER|PRIORITY "
				  "(sacctmgr -P -n show assoc "
				  "format=Account,User,Priority)", path,
				  lineno);
		goto out;
	}
	g_strstrip(f[0]);
	g_strstrip(f[1]);
	g_strstrip(f[2]);
	if (!*f[0])
		rc = mf_errprintf(errp, "%s:%d: empty account", path, lineno);
	else if (*f[2] && _parse_uint(f[2], 0xffffffffU, &prio))
		rc = mf_errprintf(errp, "%s:%d: %s/%s: priority '%s' is not a "
				  "whole number", path, lineno, f[0], f[1],
				  f[2]);
	else
		g_hash_table_insert(t, g_strdup_printf("%s\n%s", f[0], f[1]),
				    GUINT_TO_POINTER((guint)prio));
out:
	g_strfreev(f);
	return rc;
}

GHashTable *mf_assoc_prio_load(const char *path, mf_error_t *errp)
{
	GHashTable *t = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      NULL);

	if (_each_line(path, mf_header_assoc_prio, _assoc_prio_fn, t,
		       errp)) {
		g_hash_table_unref(t);
		return NULL;
	}
	return t;
}
