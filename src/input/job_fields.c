/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_fields: one scontrol job line into a record (job_fields.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "job_fields.h"
#include "job_values.h"
#include "line_reader.h"
#include "timestr.h"

static bool _is_null(const char *v)
{
	return !v || !*v || (v[0] == '(' && !strcmp(v, "(null)"));
}

/*
 * The table of the fields a job line is read for, in the order they are
 * checked (the first bad one is the one named): each its parser, the
 * member of mf_job_line_t it fills, its default when the line lacks it,
 * and what a bad value is not.  A parser is handed the value (NULL when
 * absent) and the place to fill; it returns 0, or -1 for a bad value.
 * JobId and the array task name come first (_job_name: every message
 * names the job); TRES after (_job_tres: three keys for one member).
 */
typedef int (*_fparse_t)(const char *v, void *to, const void *dflt);

typedef struct {
	int f;                   /* F_*: the value read */
	_fparse_t parse;
	size_t off;              /* offsetof(mf_job_line_t, ...) */
	const void *dflt;        /* handed to PARSE */
	const char *why;         /* "FIELD=VALUE is not WHY" */
} _fspec_t;

/* UserId=NAME(UID): user, then uid. */
static int _fp_user(const char *v, void *to, const void *dflt)
{
	mf_job_line_t *job = (mf_job_line_t *)(void *)((char *)to -
		offsetof(mf_job_line_t, user));
	const char *paren;
	uint64_t u;

	if (!v) {
		job->user = mf_jobs_intern("");
		return 0;
	}
	paren = strchr(v, '(');
	job->user = mf_jobs_intern_len(v, paren ? (size_t)(paren - v)
					  : strlen(v));
	if (paren && !mf_jv_uint_n(paren + 1, strcspn(paren + 1, ")"),
				    0xffffffffU, &u))
		job->uid = (uint32_t)u;
	return *job->user ? 0 : -1;
}

/* A string, interned; DFLT when absent. */
static int _fp_str(const char *v, void *to, const void *dflt)
{
	*(const char **)to = mf_jobs_intern(v ? v : dflt);
	return 0;
}

/* A string, interned; DFLT (NULL: none) when absent, "" or "(null)". */
static int _fp_str_set(const char *v, void *to, const void *dflt)
{
	*(const char **)to = _is_null(v) ? (dflt ? mf_jobs_intern(dflt) : NULL)
					 : mf_jobs_intern(v);
	return 0;
}

/* Whether the value is set (not absent, "" or "(null)"). */
static int _fp_set(const char *v, void *to, const void *dflt)
{
	*(bool *)to = !_is_null(v);
	return 0;
}

/* A 32-bit whole number; *DFLT when absent. */
static int _fp_u32(const char *v, void *to, const void *dflt)
{
	uint64_t u;

	if (!v) {
		*(uint32_t *)to = *(const uint32_t *)dflt;
		return 0;
	}
	if (mf_jv_uint(v, 0xffffffffU, &u))
		return -1;
	*(uint32_t *)to = (uint32_t)u;
	return 0;
}

/* A signed number; 0 when absent. */
static int _fp_i64(const char *v, void *to, const void *dflt)
{
	return v ? mf_jv_int(v, to) : 0;
}

/* A time limit (Partition_Limit and absent: 0xfffffffe). */
static int _fp_limit(const char *v, void *to, const void *dflt)
{
	mf_error_t e;

	*(uint32_t *)to = 0xfffffffeU;
	if (!v || !strcmp(v, "Partition_Limit"))
		return 0;
	return mf_timestr_mins(v, to, &e);
}

/* A time; 0 when absent. */
static int _fp_time(const char *v, void *to, const void *dflt)
{
	return v ? mf_parse_slurm_time(v, to) : 0;
}

/* AccrueTime: a time, and whether the line had it. */
static int _fp_accrue(const char *v, void *to, const void *dflt)
{
	mf_job_line_t *job = (mf_job_line_t *)(void *)((char *)to -
		offsetof(mf_job_line_t, accrue_time));

	if (!v)
		return 0;
	job->has_accrue_time = true;
	return mf_parse_slurm_time(v, to);
}

static int _fp_parts(const char *v, void *to, const void *dflt)
{
	*(const char *const **)to = mf_jobs_intern_parts(v);
	return 0;
}

/* "N" or "N-M": N into the member, M into the next one (NumCPUs) or
 * nowhere (NumNodes: DFLT false); 1 when absent. */
static int _fp_range(const char *v, void *to, const void *dflt)
{
	uint32_t *lo = to, hi;

	*lo = 1;
	if (!v)
		return 0;
	if (mf_jv_range(v, lo, &hi))
		return -1;
	if (dflt)
		lo[1] = hi;
	return 0;
}

static const uint32_t _one = 1;

#define _AT(m) offsetof(mf_job_line_t, m)
static const _fspec_t _fspec[] = {
	{ F_USERID, _fp_user, _AT(user), NULL, "NAME(UID)" },
	{ F_ACCOUNT, _fp_str_set, _AT(account), "", NULL },
	{ F_QOS, _fp_str_set, _AT(qos), NULL, NULL },
	{ F_PRIORITY, _fp_u32, _AT(priority), &_one, "a number" },
	{ F_NICE, _fp_i64, _AT(nice), NULL, "a number" },
	{ F_SITEFACTOR, _fp_i64, _AT(site_factor), NULL, "a number" },
	{ F_JOBSTATE, _fp_str, _AT(state), "PENDING", NULL },
	{ F_REASON, _fp_str, _AT(reason), "None", NULL },
	{ F_DEPENDENCY, _fp_set, _AT(dependent), NULL, NULL },
	{ F_TIMELIMIT, _fp_limit, _AT(time_limit), NULL, "a time limit" },
	{ F_SUBMITTIME, _fp_time, _AT(submit_time), NULL, "a time" },
	{ F_ELIGIBLETIME, _fp_time, _AT(eligible_time), NULL, "a time" },
	{ F_ACCRUETIME, _fp_accrue, _AT(accrue_time), NULL, "a time" },
	{ F_PARTITION, _fp_parts, _AT(partitions), NULL, NULL },
	{ F_NUMNODES, _fp_range, _AT(min_nodes), NULL, "N or N-M" },
	{ F_NUMCPUS, _fp_range, _AT(min_cpus), &_one, "N or N-M" },
};
#undef _AT

/* min_cpus and max_cpus side by side, as _fp_range fills them */
G_STATIC_ASSERT(offsetof(mf_job_line_t, max_cpus) ==
		offsetof(mf_job_line_t, min_cpus) + sizeof(uint32_t));

/* V (at most 10 digits) as "%u" writes it, into BUF. */
static void _utoa(char *buf, uint32_t v)
{
	char tmp[12];
	size_t k = 0, i = 0;

	do {
		tmp[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k)
		buf[i++] = tmp[--k];
	buf[i] = '\0';
}

/* JobId, and the name squeue gives an array's task or record.  Returns
 * 0, or -1 with errp set. */
static int _job_name(mf_job_line_t *job, char *const *f, const char *file,
		     int line, mf_error_t *errp)
{
	const char *v = f[F_JOBID], *t = f[F_ARRAYTASKID];
	uint64_t u;

	if (!v)
		return mf_errprintf(errp, "%s:%d: no JobId= field (expected a "
				    "line of `scontrol -o show job`)", file,
				    line);
	if (mf_jv_uint(v, 0xffffffffU, &u) || !u)
		return mf_errprintf(errp, "%s:%d: job ?: JobId=%s is not a job "
				    "id", file, line, v);
	job->job_id = (uint32_t)u;
	_utoa(job->id_text, job->job_id);
	job->job_id_str = job->id_text;
	if (f[F_ARRAYJOBID] && t && !_is_null(t)) {
		bool one = t[strspn(t, "0123456789")] == '\0';

		/* as squeue names them: 100_3, 100_[4-9%2] */
		job->job_id_str = g_strdup_printf(one ? "%s_%s" : "%s_[%s]",
						  f[F_ARRAYJOBID], t);
	}
	return 0;
}

/* 22.05 prints TRES= (the allocated TRES, else the requested); 23.02 on
 * ReqTRES= and AllocTRES=. */
static void _job_tres(mf_job_line_t *job, char *const *f)
{
	const char *v = f[F_TRES];

	if (_is_null(v))
		v = f[F_ALLOCTRES];
	if (_is_null(v))
		v = f[F_REQTRES];
	job->tres = _is_null(v) ? NULL : mf_jobs_intern(v);
}

/* The interned FILE: the same for every line of a file. */
static const char *_file_name(const char *file)
{
	static const char *last;

	if (!last || strcmp(file, last))
		last = mf_jobs_intern(file);
	return last;
}

/* The fields F of the line LINE of FILE into JOB (its JobId and name
 * read), by _fspec.  Where the file is read on two threads
 * (mf_jobs_each), this runs on the caller's: the strings are interned
 * there, the table of them its thread's alone.  Returns 0, or -1 with
 * errp naming the field. */
int mf_jfields_fill(mf_job_line_t *job, char *const *f, const char *file,
		     int line, mf_error_t *errp)
{
	job->file = _file_name(file);
	for (size_t i = 0; i < G_N_ELEMENTS(_fspec); i++) {
		const _fspec_t *s = &_fspec[i];

		if (s->parse(f[s->f], (char *)job + s->off, s->dflt))
			return mf_errprintf(errp, "%s:%d: job %s: %s=%s is not "
					    "%s", file, line, job->job_id_str,
					    mf_jkeys_name[s->f], f[s->f], s->why);
	}
	_job_tres(job, f);
	return 0;
}

/* The line TEXT split into F (the values' lengths in LEN), and a new
 * record with its JobId and name (the rest for mf_jfields_fill); NULL with errp
 * set. */
mf_job_line_t *mf_jfields_split(char *text, const char *file, int line,
				char **f, uint32_t *len, mf_error_t *errp)
{
	mf_job_line_t *job = g_new0(mf_job_line_t, 1);

	mf_jkeys_init();
	mf_jkeys_fields(text, f, len);
	job->line = line;
	if (_job_name(job, f, file, line, errp)) {
		mf_job_line_free(job);
		return NULL;
	}
	return job;
}

mf_job_line_t *mf_jfields_parse(char *text, const char *file,
				      int line, mf_error_t *errp)
{
	char *f[F_N];
	uint32_t len[F_N];
	mf_job_line_t *job = mf_jfields_split(text, file, line, f, len, errp);

	if (job && mf_jfields_fill(job, f, file, line, errp)) {
		mf_job_line_free(job);
		return NULL;
	}
	return job;
}
mf_job_line_t *mf_job_line_parse(const char *text, const char *file,
				 int line, mf_error_t *errp)
{
	size_t len = strlen(text);
	char *copy = g_malloc0(len + 1 + MF_LINES_SLACK);
	mf_job_line_t *job;

	memcpy(copy, text, len);
	job = mf_jfields_parse(copy, file, line, errp);

	g_free(copy);
	return job;
}

/* Whether task T is in SPEC, an ArrayTaskId list as scontrol prints it
 * ("4-9", "1,3,5-7", "1-9:2", each optionally ending "%N"). */
static bool _task_in(const char *spec, unsigned long t)
{
	char *copy = g_strndup(spec, strcspn(spec, "%]"));
	char **parts = g_strsplit(copy, ",", -1);
	bool in = false;

	for (int i = 0; parts[i] && !in; i++) {
		unsigned long lo, hi, step = 1;
		char *end;

		lo = strtoul(parts[i], &end, 10);
		hi = lo;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (*end == ':')
			step = strtoul(end + 1, &end, 10);
		if (*end || !step || end == parts[i])
			continue;
		in = t >= lo && t <= hi && (t - lo) % step == 0;
	}
	g_strfreev(parts);
	g_free(copy);
	return in;
}

bool mf_job_named(const mf_job_line_t *job, const char *text)
{
	const char *us = strchr(text, '_');
	const char *br;

	if (!strcmp(text, job->job_id_str) || !strcmp(text, job->id_text))
		return true;
	/* a pending task of an array record: 100_7 in 100_[4-9] */
	br = strstr(job->job_id_str, "_[");
	if (us && br && (size_t)(us - text) == (size_t)(br - job->job_id_str) &&
	    !strncmp(text, job->job_id_str, (size_t)(us - text)) && us[1] &&
	    strspn(us + 1, "0123456789") == strlen(us + 1))
		return _task_in(br + 2, strtoul(us + 1, NULL, 10));
	return false;
}



void mf_jfields_filled(bool filled[F_N])
{
	for (size_t i = 0; i < G_N_ELEMENTS(_fspec); i++)
		filled[_fspec[i].f] = true;
	filled[F_TRES] = filled[F_REQTRES] = filled[F_ALLOCTRES] = true;
}
