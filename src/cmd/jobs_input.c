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
#include "jobs_json.h"
#include "timestr.h"

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

/* N digits at S into *V.  Returns 0 or -1. */
static int _digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return 0;
}

/*
 * "YYYY-MM-DDTHH:MM:SS" in the local time zone.  mktime() is slow and a
 * dump repeats the same hours: the start of each hour is computed once and
 * kept (time zones shift by whole hours or half hours at the start of an
 * hour; within an hour the seconds add up).  Returns 0 or -1.
 */
static int _parse_local(const char *t, time_t *out)
{
	static GHashTable *hours;
	int y, mo, d, h, mi, sec;
	gpointer key, v;
	time_t start;

	if (strlen(t) != 19 || t[4] != '-' || t[7] != '-' || t[10] != 'T' ||
	    t[13] != ':' || t[16] != ':' || _digits(t, 4, &y) ||
	    _digits(t + 5, 2, &mo) || _digits(t + 8, 2, &d) ||
	    _digits(t + 11, 2, &h) || _digits(t + 14, 2, &mi) ||
	    _digits(t + 17, 2, &sec) || mo < 1 || mo > 12 || d < 1 ||
	    d > 31 || h > 23 || mi > 59 || sec > 60 || y < 1970)
		return -1;
	if (!hours)
		hours = g_hash_table_new_full(g_int64_hash, g_int64_equal,
					      g_free, NULL);
	{
		gint64 k = (((gint64)y * 100 + mo) * 100 + d) * 100 + h;

		if (g_hash_table_lookup_extended(hours, &k, &key, &v)) {
			start = (time_t)GPOINTER_TO_SIZE(v);
		} else {
			struct tm tm = { 0 };
			gint64 *kp = g_new(gint64, 1);

			tm.tm_year = y - 1900;
			tm.tm_mon = mo - 1;
			tm.tm_mday = d;
			tm.tm_hour = h;
			tm.tm_isdst = -1;
			start = mktime(&tm);
			/* a day that does not exist (Feb 30) */
			if (start == (time_t)-1 || tm.tm_mday != d) {
				g_free(kp);
				return -1;
			}
			*kp = k;
			g_hash_table_insert(hours, kp,
					    GSIZE_TO_POINTER((gsize)start));
		}
	}
	*out = start + mi * 60 + sec;
	return 0;
}

int mf_parse_slurm_time(const char *text, time_t *out)
{
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
	return _parse_local(text, out);
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

/*
 * The keys of `scontrol -o show job` in the order scontrol prints them
 * (22.05 to 26.05; keys a release adds are merely unknown to the others).
 * ALWAYS: printed on every job line.  TEXT: a free-text value (a name, a
 * path, a comment: spaces and '=' allowed).  A free-text value runs until
 * a word "KEY=" whose KEY comes later in this order but no later than the
 * next ALWAYS key: the words in between belong to the text, whatever they
 * look like.  SiteFactor is ours (added by hand for a what-if).
 */
enum { _ALWAYS = 1, _TEXT = 2 };

typedef struct {
	const char *key;
	unsigned flags;
} _layout_t;

static const _layout_t _layout[] = {
	{ "JobId", _ALWAYS }, { "ArrayJobId", 0 }, { "ArrayTaskId", 0 },
	{ "ArrayTaskThrottle", 0 }, { "HetJobId", 0 }, { "HetJobOffset", 0 },
	{ "JobName", _ALWAYS | _TEXT }, { "SLUID", 0 }, { "HetJobIdSet", 0 },
	{ "UserId", _ALWAYS }, { "GroupId", _ALWAYS }, { "MCS_label", 0 },
	{ "Priority", _ALWAYS }, { "Nice", _ALWAYS }, { "Account", _ALWAYS },
	{ "QOS", _ALWAYS }, { "WCKey", 0 }, { "JobState", _ALWAYS },
	{ "Reason", _ALWAYS }, { "FailedNode", 0 },
	{ "Dependency", _ALWAYS }, { "Requeue", 0 },
	{ "Restarts", 0 }, { "BatchFlag", 0 }, { "Reboot", 0 },
	{ "ExitCode", 0 }, { "DerivedExitCode", 0 }, { "RunTime", 0 },
	{ "TimeLimit", 0 }, { "TimeMin", 0 }, { "SubmitTime", 0 },
	{ "EligibleTime", 0 }, { "AccrueTime", 0 }, { "ResizeTime", 0 },
	{ "StartTime", 0 }, { "EndTime", 0 }, { "Deadline", 0 },
	{ "CronJob", 0 }, { "CrontabSpec", _TEXT },
	{ "PreemptEligibleTime", 0 }, { "PreemptTime", 0 },
	{ "SuspendTime", 0 }, { "SecsPreSuspend", 0 },
	{ "LastSchedEval", 0 }, { "Scheduler", 0 }, { "Partition", 0 },
	{ "AllocNode:Sid", 0 }, { "ReqNodeList", 0 }, { "ExcNodeList", 0 },
	{ "NodeList", 0 }, { "BatchHost", 0 }, { "BatchFeatures", _TEXT },
	{ "StepMgrEnabled", 0 }, { "FedOrigin", 0 }, { "FedViableSiblings", 0 },
	{ "FedActiveSiblings", 0 }, { "NumNodes", 0 }, { "NumCPUs", 0 },
	{ "NumTasks", 0 }, { "CPUs/Task", 0 }, { "ReqB:S:C:T", 0 },
	{ "TRES", 0 }, { "ReqTRES", 0 }, { "AllocTRES", 0 },
	{ "Socks/Node", 0 }, { "NtasksPerN:B:S:C", 0 },
	{ "CoreSpec", 0 }, { "ThreadSpec", 0 }, { "JOB_GRES", 0 },
	{ "Nodes", 0 }, { "CPU_IDs", 0 }, { "Mem", 0 }, { "GRES", 0 },
	{ "MinCPUsNode", 0 }, { "MinMemoryNode", 0 }, { "MinMemoryCPU", 0 },
	{ "MinTmpDiskNode", 0 }, { "Features", _TEXT },
	{ "DelayBoot", _ALWAYS }, { "ClusterFeatures", _TEXT },
	{ "Prefer", _TEXT }, { "Reservation", 0 }, { "OverSubscribe", 0 },
	{ "Contiguous", 0 }, { "Licenses", 0 }, { "LicensesAlloc", 0 },
	{ "Network", 0 }, { "Command", _TEXT }, { "SubmitLine", _TEXT },
	{ "WorkDir", _TEXT }, { "AdminComment", _TEXT },
	{ "SystemComment", _TEXT }, { "Comment", _TEXT }, { "Extra", _TEXT },
	{ "StdErr", _TEXT }, { "StdIn", _TEXT }, { "StdOut", _TEXT },
	{ "SegmentSize", 0 }, { "Switches", 0 }, { "BurstBuffer", _TEXT },
	{ "BurstBufferState", _TEXT }, { "Power", 0 },
	{ "GresEnforceBind", 0 }, { "KillOInInvalidDependent", 0 },
	{ "SpreadJob", 0 }, { "CpusPerTres", 0 }, { "MemPerTres", 0 },
	{ "TresBind", 0 }, { "TresFreq", 0 }, { "TresPerJob", 0 },
	{ "TresPerNode", 0 }, { "TresPerSocket", 0 }, { "TresPerTask", 0 },
	{ "MailUser", _TEXT }, { "MailType", 0 }, { "NtasksPerTRES", 0 },
	{ "Container", _TEXT }, { "ContainerID", 0 },
	{ "SELinuxContext", _TEXT }, { "SiteFactor", 0 },
};

/* The fields a job line is read for: indexes into _val. */
enum {
	F_JOBID, F_ARRAYJOBID, F_ARRAYTASKID, F_USERID, F_ACCOUNT, F_QOS,
	F_PRIORITY, F_NICE, F_SITEFACTOR, F_JOBSTATE, F_REASON,
	F_DEPENDENCY, F_TIMELIMIT, F_SUBMITTIME, F_ELIGIBLETIME,
	F_ACCRUETIME, F_PARTITION, F_NUMNODES, F_NUMCPUS, F_TRES, F_REQTRES,
	F_ALLOCTRES, F_N
};

static const char *const _wanted[F_N] = {
	"JobId", "ArrayJobId", "ArrayTaskId", "UserId", "Account", "QOS",
	"Priority", "Nice", "SiteFactor", "JobState", "Reason", "Dependency",
	"TimeLimit", "SubmitTime", "EligibleTime", "AccrueTime", "Partition",
	"NumNodes", "NumCPUs", "TRES", "ReqTRES", "AllocTRES",
};

/* key -> 1 + index in _layout; built once */
static GHashTable *_pos_of;
/* _field_at[i]: the F_* of _layout[i], or -1; _key_len[i]: its length */
static int _field_at[G_N_ELEMENTS(_layout)];
static size_t _key_len[G_N_ELEMENTS(_layout)];
/* _layout's index of AllocTRES, the last key read but SiteFactor */
static int _tres_pos;
/* _end_of[i]: the index of the next ALWAYS key after i (or the end) */
static int _end_of[G_N_ELEMENTS(_layout)];

static void _layout_init(void)
{
	int n = (int)G_N_ELEMENTS(_layout), next = n;

	if (_pos_of)
		return;
	_pos_of = g_hash_table_new(g_str_hash, g_str_equal);
	for (int i = n; i-- > 0;) {
		_end_of[i] = next;
		if (_layout[i].flags & _ALWAYS)
			next = i;
		g_hash_table_insert(_pos_of, (gpointer)_layout[i].key,
				    GINT_TO_POINTER(i + 1));
		_key_len[i] = strlen(_layout[i].key);
		if (!strcmp(_layout[i].key, "AllocTRES"))
			_tres_pos = i;
		_field_at[i] = -1;
		for (int f = 0; f < F_N; f++)
			if (!strcmp(_wanted[f], _layout[i].key))
				_field_at[i] = f;
	}
}

/* The index of key W in _layout, or -1.  scontrol prints the keys in
 * order: the few after the last one (HINT) are tried first.  LEN:
 * strlen(W). */
static int _key_pos(const char *w, size_t len, int hint)
{
	int n = (int)G_N_ELEMENTS(_layout);

	for (int i = hint; i < n && i < hint + 4; i++)
		if (_key_len[i] == len && !memcmp(w, _layout[i].key, len))
			return i;
	return GPOINTER_TO_INT(g_hash_table_lookup(_pos_of, w)) - 1;
}

/* Whether the word at END starts with "KEY=". */
static bool _word_is(const char *end, const char *key, size_t len)
{
	while (*end == ' ' || *end == '\t')
		end++;
	return !strncmp(end, key, len) && end[len] == '=';
}

/*
 * A free text ends at the key at POS (its value ending at END); but where
 * scontrol always prints the key after POS right after it (UserId=...
 * GroupId=...) and END is not followed by it, while a later word of the
 * line is that key so followed, this one belongs to the text (a job named
 * "a UserId=b c").  Returns true if so.
 */
static bool _later_end(const char *end, int pos)
{
	int n = (int)G_N_ELEMENTS(_layout);
	const char *key, *next, *at;
	size_t len, next_len;

	if (pos < 0 || pos + 1 >= n || !(_layout[pos + 1].flags & _ALWAYS))
		return false;
	key = _layout[pos].key, len = _key_len[pos];
	next = _layout[pos + 1].key, next_len = _key_len[pos + 1];
	if (_word_is(end, next, next_len))
		return false;
	for (at = strstr(end, key); at; at = strstr(at + 1, key)) {
		const char *v;

		if ((at[-1] != ' ' && at[-1] != '\t') || at[len] != '=')
			continue;
		for (v = at + len; *v && *v != ' ' && *v != '\t'; v++)
			;
		if (_word_is(v, next, next_len))
			return true;
	}
	return false;
}

/*
 * Split the line TEXT (modified: NULs written after keys and values) into
 * VAL[F_*] (pointers into TEXT, NULL when absent; the first occurrence of
 * a key wins), skipping free-text values as _layout says.
 */
static void _fields(char *text, char *val[F_N])
{
	int text_pos = -1;       /* in a free-text value: its key's index */
	int hint = 0;            /* just after the last key's index */
	bool in_order = true;    /* every key so far after the one before */
	bool looked = false;     /* the rest searched for SiteFactor= */
	char *p = text;

	memset(val, 0, sizeof(char *) * F_N);
	for (;;) {
		char *w, *eq, *end;
		int pos, f;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		w = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '=')
			p++;
		if (*p != '=' || p == w) {
			/* a word without a key: part of the value before */
			while (*p && *p != ' ' && *p != '\t')
				p++;
			continue;
		}
		eq = p;
		end = eq + 1;
		while (*end && *end != ' ' && *end != '\t')
			end++;
		*eq = '\0';
		pos = _key_pos(w, (size_t)(eq - w), hint);
		if (text_pos >= 0 &&
		    (pos <= text_pos || pos > _end_of[text_pos] ||
		     _later_end(end, pos))) {
			/* inside a free-text value: not a field */
			*eq = '=';
			p = end;
			continue;
		}
		text_pos = pos >= 0 && (_layout[pos].flags & _TEXT) ? pos : -1;
		if (pos >= 0) {
			in_order = in_order && pos >= hint - 1;
			hint = pos + 1;
		}
		f = pos >= 0 ? _field_at[pos] : -1;
		p = end;
		if (*end)
			p++;
		*end = '\0';
		if (f >= 0 && !val[f])
			val[f] = eq + 1;
		/* past the TRES (TRES=, or ReqTRES= and AllocTRES=), in
		 * scontrol's order, only SiteFactor (ours, rare) is left to
		 * read: the rest of the line is not looked at without one */
		if (pos >= _tres_pos - 2 && in_order && !looked) {
			if (pos >= _tres_pos ||
			    (!_word_is(p, "ReqTRES", 7) &&
			     !_word_is(p, "AllocTRES", 9))) {
				looked = true;
				if (!strstr(p, "SiteFactor="))
					break;
			}
		}
	}
}

static bool _is_null(const char *v)
{
	return !v || !*v || !strcmp(v, "(null)");
}

/* Interned strings: the same user, account, QOS, partition list, state
 * and reason are on many lines; one copy each for the process, in a pool
 * of its own (kept reachable to the end, unlike g_intern_string's blocks,
 * which leak checkers report). */
static const char *_intern(const char *s)
{
	static GStringChunk *pool;
	static GHashTable *set;
	const char *in;

	if (!pool) {
		pool = g_string_chunk_new(64 * 1024);
		set = g_hash_table_new(g_str_hash, g_str_equal);
	}
	if ((in = g_hash_table_lookup(set, s)))
		return in;
	in = g_string_chunk_insert(pool, s);
	g_hash_table_add(set, (gpointer)in);
	return in;
}

/* PARTS ("a,b") as an interned NULL-ended list. */
static const char *const *_intern_parts(const char *parts)
{
	static GHashTable *lists;
	static const char *const none[1] = { NULL };
	const char *key;
	char **l;

	if (_is_null(parts))
		return none;
	if (!lists)
		lists = g_hash_table_new(g_direct_hash, g_direct_equal);
	key = _intern(parts);
	if ((l = g_hash_table_lookup(lists, key)))
		return (const char *const *)l;
	l = g_strsplit(parts, ",", -1);
	for (int i = 0; l[i]; i++) {
		const char *in = _intern(l[i]);

		g_free(l[i]);
		l[i] = (char *)in;
	}
	g_hash_table_insert(lists, (gpointer)key, l);
	return (const char *const *)l;
}

const char *mf_jobs_intern(const char *s)
{
	return _intern(s);
}

const char *const *mf_jobs_intern_parts(const char *parts)
{
	return _intern_parts(parts);
}

static mf_job_line_t *_job_line_parse(char *text, const char *file,
				      int line, mf_error_t *errp)
{
	char *f[F_N];
	mf_job_line_t *job = g_new0(mf_job_line_t, 1);
	const char *v;
	uint64_t u;
	const char *bad = NULL, *bad_value = NULL, *why = NULL;

	_layout_init();
	_fields(text, f);
	job->file = _intern(file);
	job->line = line;
	job->time_limit = 0xfffffffeU;

	if (!(v = f[F_JOBID])) {
		mf_errprintf(errp, "%s:%d: no JobId= field (expected a line of "
			     "`scontrol -o show job`)", file, line);
		goto fail;
	}
	if (_parse_uint(v, 0xffffffffU, &u) || !u) {
		bad = "JobId", bad_value = v, why = "a job id";
		goto bad_field;
	}
	job->job_id = (uint32_t)u;
	snprintf(job->id_text, sizeof(job->id_text), "%u", job->job_id);
	job->job_id_str = job->id_text;
	if (f[F_ARRAYJOBID] && f[F_ARRAYTASKID] &&
	    !_is_null(f[F_ARRAYTASKID])) {
		const char *t = f[F_ARRAYTASKID];
		bool one = t[strspn(t, "0123456789")] == '\0';

		/* as squeue names them: 100_3, 100_[4-9%2] */
		job->job_id_str = g_strdup_printf(one ? "%s_%s" : "%s_[%s]",
						  f[F_ARRAYJOBID], t);
	}

	if ((v = f[F_USERID])) {
		const char *paren = strchr(v, '(');
		char *name = paren ? g_strndup(v, (gsize)(paren - v))
				   : g_strdup(v);

		job->user = _intern(name);
		g_free(name);
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
		job->user = _intern("");
	}
	v = f[F_ACCOUNT];
	job->account = _intern(_is_null(v) ? "" : v);
	v = f[F_QOS];
	job->qos = _is_null(v) ? NULL : _intern(v);

	if ((v = f[F_PRIORITY])) {
		if (_parse_uint(v, 0xffffffffU, &u)) {
			bad = "Priority", bad_value = v, why = "a number";
			goto bad_field;
		}
		job->priority = (uint32_t)u;
	} else {
		job->priority = 1;
	}
	if ((v = f[F_NICE]) && _parse_int(v, &job->nice)) {
		bad = "Nice", bad_value = v, why = "a number";
		goto bad_field;
	}
	if ((v = f[F_SITEFACTOR]) && _parse_int(v, &job->site_factor)) {
		bad = "SiteFactor", bad_value = v, why = "a number";
		goto bad_field;
	}
	v = f[F_JOBSTATE];
	job->state = _intern(v ? v : "PENDING");
	v = f[F_REASON];
	job->reason = _intern(v ? v : "None");
	job->dependent = !_is_null(f[F_DEPENDENCY]);

	if ((v = f[F_TIMELIMIT])) {
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
	if ((v = f[F_SUBMITTIME]) &&
	    mf_parse_slurm_time(v, &job->submit_time)) {
		bad = "SubmitTime", bad_value = v, why = "a time";
		goto bad_field;
	}
	if ((v = f[F_ELIGIBLETIME]) &&
	    mf_parse_slurm_time(v, &job->eligible_time)) {
		bad = "EligibleTime", bad_value = v, why = "a time";
		goto bad_field;
	}
	if ((v = f[F_ACCRUETIME])) {
		if (mf_parse_slurm_time(v, &job->accrue_time)) {
			bad = "AccrueTime", bad_value = v, why = "a time";
			goto bad_field;
		}
		job->has_accrue_time = true;
	}
	job->partitions = _intern_parts(f[F_PARTITION]);
	job->min_nodes = 1;
	if ((v = f[F_NUMNODES])) {
		uint32_t hi;

		if (_parse_range(v, &job->min_nodes, &hi)) {
			bad = "NumNodes", bad_value = v, why = "N or N-M";
			goto bad_field;
		}
	}
	job->min_cpus = 1;
	if ((v = f[F_NUMCPUS]) &&
	    _parse_range(v, &job->min_cpus, &job->max_cpus)) {
		bad = "NumCPUs", bad_value = v, why = "N or N-M";
		goto bad_field;
	}
	/* 22.05 prints TRES= (the allocated TRES, else the requested);
	 * 23.02 on ReqTRES= and AllocTRES= */
	v = f[F_TRES];
	if (_is_null(v))
		v = f[F_ALLOCTRES];
	if (_is_null(v))
		v = f[F_REQTRES];
	job->tres = _is_null(v) ? NULL : _intern(v);
	return job;

bad_field:
	mf_errprintf(errp, "%s:%d: job %s: %s=%s is not %s", file, line,
		     job->job_id_str ? job->job_id_str : "?", bad, bad_value,
		     why);
fail:
	mf_job_line_free(job);
	return NULL;
}

mf_job_line_t *mf_job_line_parse(const char *text, const char *file,
				 int line, mf_error_t *errp)
{
	char *copy = g_strdup(text);
	mf_job_line_t *job = _job_line_parse(copy, file, line, errp);

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

/* Read PATH's lines; calls LINE_FN for each non-blank, non-comment line
 * (its text may be modified; CUT: the file ends in the middle of it) but a
 * first one that is the header of KIND.  LINE_FN returns 0, -1 with errp
 * set, or another value to stop (errp untouched).  A file with no such
 * line, or whose first is plainly of another kind, is refused.  One pass,
 * one line in memory at a time. */
typedef int (*_line_fn)(char *text, const char *path, int lineno, bool cut,
			void *arg, mf_error_t *errp);

static int _each_line(const char *path, const mf_dump_kind_t *kind,
		      _line_fn fn, void *arg, mf_error_t *errp)
{
	bool first = true;
	char *l = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *fp = fopen(path, "r");
	int rc = 0, lineno = 0, lines = 0;

	if (!fp)
		return mf_errprintf(errp, "%s: %s", path, g_strerror(errno));
	while (!rc && (n = getline(&l, &cap, fp)) >= 0) {
		bool cut = !n || l[n - 1] != '\n';
		const char *s;

		lineno++;
		while (n && (l[n - 1] == '\n' || l[n - 1] == '\r'))
			l[--n] = '\0';
		for (s = l; *s == ' ' || *s == '\t'; s++)
			;
		if (!*s || *s == '#')
			continue;
		if (first && kind->titles &&
		    mf_dump_is_header(l, kind->titles)) {
			first = false;
			continue;
		}
		if (first && (rc = mf_dump_check_kind(l, kind, path, lineno,
						      errp)))
			break;
		first = false;
		lines++;
		if ((rc = fn(l, path, lineno, cut, arg, errp)) == -1 && cut)
			mf_dump_note_cut(errp, "this line");
	}
	if (!rc && ferror(fp))
		rc = mf_errprintf(errp, "%s: %s", path, g_strerror(errno));
	else if (!rc && !lines)
		rc = mf_errprintf(errp, "%s: %s", path, kind->empty);
	free(l);
	fclose(fp);
	return rc;
}

/*
 * A set of job ids with the line of each: open addressing, linear probing,
 * 8 bytes a job (id in the high half, line in the low), grown at half
 * full.
 */
typedef struct {
	uint64_t *slot;
	size_t cap, used;
} _idset_t;

static size_t _idset_home(uint32_t id, size_t cap)
{
	return (size_t)((id * 0x9E3779B1U) & (cap - 1));
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

typedef struct {
	mf_job_fn fn;
	void *arg;
	_idset_t ids;            /* job ids seen (ids are never 0) */
	int jobs;                /* job lines read */
	int no_jobs_line;        /* line of "No jobs in the system", or 0 */
	int fn_rc;               /* what FN returned to stop */
} _load_t;

/* The first key scontrol prints on every job line (_ALWAYS) that TEXT
 * has no "KEY=" word of, or NULL. */
static const char *_missing_always(const char *text)
{
	_layout_init();
	for (size_t i = 0; i < G_N_ELEMENTS(_layout); i++) {
		const char *key = _layout[i].key, *at;

		if (!(_layout[i].flags & _ALWAYS))
			continue;
		for (at = strstr(text, key); at; at = strstr(at + 1, key))
			if ((at == text || at[-1] == ' ' || at[-1] == '\t') &&
			    at[_key_len[i]] == '=')
				break;
		if (!at)
			return key;
	}
	return NULL;
}

static int _job_fn(char *text, const char *path, int lineno, bool cut,
		   void *arg, mf_error_t *errp)
{
	_load_t *ld = arg;
	mf_job_line_t *job;
	const char *missing;
	int first;

	if (!strcmp(g_strstrip(text), "No jobs in the system")) {
		/* scontrol on an idle cluster */
		ld->no_jobs_line = lineno;
		return 0;
	}
	/* a line the file ends in: whole only if it has every key scontrol
	 * always prints (the last, DelayBoot, comes after all those read) */
	if (cut && (missing = _missing_always(text)))
		return mf_errprintf(errp, "%s:%d: no %s= field, which scontrol "
				    "prints on every job line", path, lineno,
				    missing);
	if (!(job = _job_line_parse(text, path, lineno, errp)))
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

int mf_jobs_each(const char *path, mf_job_fn fn, void *arg,
		 mf_error_t *errp)
{
	_load_t ld = { .fn = fn, .arg = arg };
	int rc;

	if (mf_jobs_is_json(path))
		return mf_jobs_json_each(path, fn, arg, errp);
	rc = _each_line(path, &mf_dump_jobs, _job_fn, &ld, errp);

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

static int _qos_fn(char *text, const char *path, int lineno, bool cut,
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

	if (_each_line(path, &mf_dump_qos, _qos_fn, qos, errp)) {
		g_hash_table_unref(qos);
		return NULL;
	}
	return qos;
}

static int _assoc_prio_fn(char *text, const char *path, int lineno,
			  bool cut, void *arg, mf_error_t *errp)
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
	/* sshare indents an account by its depth; sacctmgr never does */
	if (*f[0] == ' ') {
		rc = mf_errprintf(errp, "%s:%d: account '%s' indented, as "
				  "sshare prints its tree: not a line of `%s` "
				  "(is this sshare's usage dump?)", path,
				  lineno, f[0], mf_dump_assoc_prio.cmd);
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

	if (_each_line(path, &mf_dump_assoc_prio, _assoc_prio_fn, t,
		       errp)) {
		g_hash_table_unref(t);
		return NULL;
	}
	return t;
}
