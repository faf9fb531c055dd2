/* SPDX-License-Identifier: GPL-2.0-or-later */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "dump_header.h"
#include "jobs_input.h"
#include "jobs_json.h"
#include "timestr.h"

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

/* The start of local hour K (YYYYMMDDHH) by mktime(), or -1 for a day
 * that does not exist (Feb 30). */
static time_t _hour_start(int y, int mo, int d, int h)
{
	struct tm tm = { 0 };
	time_t start;

	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_isdst = -1;
	start = mktime(&tm);
	return tm.tm_mday != d ? (time_t)-1 : start;
}

/*
 * "YYYY-MM-DDTHH:MM:SS" in the local time zone.  mktime() is slow and a
 * dump repeats the same hours: the start of each hour is computed once and
 * kept in a direct-mapped cache (time zones shift by whole hours or half
 * hours at the start of an hour; within an hour the seconds add up).
 * Returns 0 or -1.
 */
static int _parse_local(const char *t, time_t *out)
{
	enum { HOURS = 4096 };
	static struct {
		int64_t key;     /* YYYYMMDDHH + 1: 0 is an empty slot */
		time_t start;
	} hours[HOURS];
	int y, mo, d, h, mi, sec;
	int64_t k;
	size_t slot;

	if (strlen(t) != 19 || t[4] != '-' || t[7] != '-' || t[10] != 'T' ||
	    t[13] != ':' || t[16] != ':' || _digits(t, 4, &y) ||
	    _digits(t + 5, 2, &mo) || _digits(t + 8, 2, &d) ||
	    _digits(t + 11, 2, &h) || _digits(t + 14, 2, &mi) ||
	    _digits(t + 17, 2, &sec) || mo < 1 || mo > 12 || d < 1 ||
	    d > 31 || h > 23 || mi > 59 || sec > 60 || y < 1970)
		return -1;
	k = (((int64_t)y * 100 + mo) * 100 + d) * 100 + h + 1;
	slot = (size_t)(((uint64_t)k * 0x9E3779B97F4A7C15ULL) >> 52) &
	       (HOURS - 1);
	if (hours[slot].key != k) {
		time_t start = _hour_start(y, mo, d, h);

		if (start == (time_t)-1)
			return -1;
		hours[slot].key = k;
		hours[slot].start = start;
	}
	*out = hours[slot].start + mi * 60 + sec;
	return 0;
}

int mf_parse_slurm_time(const char *text, time_t *out)
{
	char *nend;
	long long secs;

	/* scontrol's usual form first: none of the words below has a '-'
	 * at [4] and a 'T' at [10] */
	if (text[0] >= '0' && text[0] <= '9' && text[1] && text[2] &&
	    text[3] && text[4] == '-')
		return _parse_local(text, out);
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

/* The N bytes at S, all digits (at least one), as a number within MAX
 * into *OUT.  Returns 0 or -1. */
static int _parse_uint_n(const char *s, size_t n, uint64_t max,
			 uint64_t *out)
{
	uint64_t v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* A whole number (digits only) into *OUT within MAX.  Returns 0 or -1. */
static int _parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	return _parse_uint_n(s, strlen(s), max, out);
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
	const char *dash = strchr(s, '-');
	uint64_t a, b = 0;

	if (dash) {
		if (_parse_uint_n(s, (size_t)(dash - s), 0xffffffffU, &a) ||
		    _parse_uint(dash + 1, 0xffffffffU, &b))
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
 * (every release of release/releases.tsv; keys a release adds are merely
 * unknown to the others).
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


/* The fields a job line is read for: indexes into the values _fields()
 * finds (_field_keys names them). */
enum {
	F_JOBID, F_ARRAYJOBID, F_ARRAYTASKID, F_USERID, F_ACCOUNT, F_QOS,
	F_PRIORITY, F_NICE, F_SITEFACTOR, F_JOBSTATE, F_REASON,
	F_DEPENDENCY, F_TIMELIMIT, F_SUBMITTIME, F_ELIGIBLETIME,
	F_ACCRUETIME, F_PARTITION, F_NUMNODES, F_NUMCPUS, F_TRES, F_REQTRES,
	F_ALLOCTRES, F_N
};

static const char *const _field_keys[F_N] = {
	"JobId", "ArrayJobId", "ArrayTaskId", "UserId", "Account", "QOS",
	"Priority", "Nice", "SiteFactor", "JobState", "Reason", "Dependency",
	"TimeLimit", "SubmitTime", "EligibleTime", "AccrueTime", "Partition",
	"NumNodes", "NumCPUs", "TRES", "ReqTRES", "AllocTRES",
};

#define _N_LAYOUT ((int)G_N_ELEMENTS(_layout))
/* the keys of _layout by hash: 1 + index, 0 empty (open addressing) */
#define _KEY_SLOTS 512
static uint16_t _key_slot[_KEY_SLOTS];
static bool _layout_ready;
/* _field_at[i]: the F_* of _layout[i], or -1; _key_len[i]: its length */
static int _field_at[G_N_ELEMENTS(_layout)];
static size_t _key_len[G_N_ELEMENTS(_layout)];
/* _key_head[i], _key_next[i]: _layout[i]'s first 8 bytes and the 8 after
 * (_word8) */
static uint64_t _key_head[G_N_ELEMENTS(_layout)];
static uint64_t _key_next[G_N_ELEMENTS(_layout)];
/* _layout's index of AllocTRES, the last key read but SiteFactor */
static int _tres_pos;
/* _end_of[i]: the index of the next ALWAYS key after i (or the end) */
static int _end_of[G_N_ELEMENTS(_layout)];

/*
 * The first 8 bytes of S (LEN bytes; those past LEN as 0) in one word.
 * S may be read 8 bytes on past its end: the text a line is read from
 * has _SLACK bytes after it.
 */
#define _SLACK 16

/* _mask8[n]: the first N bytes of a word (set by _layout_init) */
static uint64_t _mask8[9];

static inline uint64_t _word8(const char *s, size_t len)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return w & _mask8[len < 8 ? len : 8];
}

static void _layout_init(void)
{
	int n = _N_LAYOUT, next = n;

	if (_layout_ready)
		return;
	_layout_ready = true;
	for (size_t k = 0; k <= 8; k++)
		memset(&_mask8[k], 0xff, k);
	for (int i = n; i-- > 0;) {
		size_t s;

		_end_of[i] = next;
		if (_layout[i].flags & _ALWAYS)
			next = i;
		_key_len[i] = strlen(_layout[i].key);
		{
			char key[32 + _SLACK] = { 0 };

			memcpy(key, _layout[i].key, _key_len[i]);
			_key_head[i] = _word8(key, _key_len[i]);
			_key_next[i] = _key_len[i] > 8 ?
				       _word8(key + 8, _key_len[i] - 8) : 0;
		}
		for (s = mf_jobs_hash(_layout[i].key, _key_len[i]) % _KEY_SLOTS;
		     _key_slot[s]; s = (s + 1) % _KEY_SLOTS)
			;
		_key_slot[s] = (uint16_t)(i + 1);
		if (!strcmp(_layout[i].key, "AllocTRES"))
			_tres_pos = i;
		_field_at[i] = -1;
		for (int f = 0; f < F_N; f++)
			if (!strcmp(_field_keys[f], _layout[i].key))
				_field_at[i] = f;
	}
}

/* Whether the key W (LEN bytes, its first 8 in HEAD) is _layout[I]. */
static inline bool _key_is(int i, const char *w, size_t len, uint64_t head)
{
	return _key_len[i] == len && _key_head[i] == head &&
	       (len <= 8 || (_key_next[i] == _word8(w + 8, len - 8) &&
			     (len <= 16 || !memcmp(w + 16, _layout[i].key + 16,
						   len - 16))));
}

/* The index of key W (LEN bytes) in _layout, or -1.  scontrol prints the
 * keys in order: the few after the last one (HINT) are tried first. */
static int _key_pos(const char *w, size_t len, int hint)
{
	uint64_t head = _word8(w, len);

	for (int i = hint; i < _N_LAYOUT && i < hint + 4; i++)
		if (_key_is(i, w, len, head))
			return i;
	for (size_t s = mf_jobs_hash(w, len) % _KEY_SLOTS; _key_slot[s];
	     s = (s + 1) % _KEY_SLOTS) {
		int i = _key_slot[s] - 1;

		if (_key_is(i, w, len, head))
			return i;
	}
	return -1;
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* P moved to the first ' ', '\t' or NUL, or '=' too if EQ, 16 bytes at a
 * time where the machine can (the text has _SLACK bytes after its NUL). */
static inline char *_skip_word(char *p, bool eq)
{
#if defined(__SSE2__)
	const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
	const __m128i nul = _mm_setzero_si128();
	const __m128i e = _mm_set1_epi8(eq ? '=' : ' ');

	for (;; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i m = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, sp),
				     _mm_cmpeq_epi8(v, tab)),
			_mm_or_si128(_mm_cmpeq_epi8(v, nul),
				     _mm_cmpeq_epi8(v, e)));
		unsigned bits = (unsigned)_mm_movemask_epi8(m);

		if (bits)
			return p + __builtin_ctz(bits);
	}
#else
	while (*p && *p != ' ' && *p != '\t' && (!eq || *p != '='))
		p++;
	return p;
#endif
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
 * a key wins) and LEN[F_*] (the length of each value found), skipping
 * free-text values as _layout says.
 */
static void _fields(char *text, char *val[F_N], uint32_t len[F_N])
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
		p = _skip_word(p, true);
		if (*p != '=' || p == w) {
			/* a word without a key: part of the value before */
			p = _skip_word(p, false);
			continue;
		}
		eq = p;
		end = _skip_word(eq + 1, false);
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
		if (f >= 0 && !val[f]) {
			val[f] = eq + 1;
			len[f] = (uint32_t)(end - (eq + 1));
		}
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
	if (paren && !_parse_uint_n(paren + 1, strcspn(paren + 1, ")"),
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
	if (_parse_uint(v, 0xffffffffU, &u))
		return -1;
	*(uint32_t *)to = (uint32_t)u;
	return 0;
}

/* A signed number; 0 when absent. */
static int _fp_i64(const char *v, void *to, const void *dflt)
{
	return v ? _parse_int(v, to) : 0;
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
	if (_parse_range(v, lo, &hi))
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
	if (_parse_uint(v, 0xffffffffU, &u) || !u)
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
static int _job_fill(mf_job_line_t *job, char *const *f, const char *file,
		     int line, mf_error_t *errp)
{
	job->file = _file_name(file);
	for (size_t i = 0; i < G_N_ELEMENTS(_fspec); i++) {
		const _fspec_t *s = &_fspec[i];

		if (s->parse(f[s->f], (char *)job + s->off, s->dflt))
			return mf_errprintf(errp, "%s:%d: job %s: %s=%s is not "
					    "%s", file, line, job->job_id_str,
					    _field_keys[s->f], f[s->f], s->why);
	}
	_job_tres(job, f);
	return 0;
}

/* The line TEXT split into F (the values' lengths in LEN), and a new
 * record with its JobId and name (the rest for _job_fill); NULL with errp
 * set. */
static mf_job_line_t *_job_line_split(char *text, const char *file,
				      int line, char **f, uint32_t *len,
				      mf_error_t *errp)
{
	mf_job_line_t *job = g_new0(mf_job_line_t, 1);

	_layout_init();
	_fields(text, f, len);
	job->line = line;
	if (_job_name(job, f, file, line, errp)) {
		mf_job_line_free(job);
		return NULL;
	}
	return job;
}

static mf_job_line_t *_job_line_parse(char *text, const char *file,
				      int line, mf_error_t *errp)
{
	char *f[F_N];
	uint32_t len[F_N];
	mf_job_line_t *job = _job_line_split(text, file, line, f, len, errp);

	if (job && _job_fill(job, f, file, line, errp)) {
		mf_job_line_free(job);
		return NULL;
	}
	return job;
}
mf_job_line_t *mf_job_line_parse(const char *text, const char *file,
				 int line, mf_error_t *errp)
{
	size_t len = strlen(text);
	char *copy = g_malloc0(len + 1 + _SLACK);
	mf_job_line_t *job;

	memcpy(copy, text, len);
	job = _job_line_parse(copy, file, line, errp);

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


/* A file read in large blocks, its lines handed out in place. */
typedef struct {
	int fd;
	char *buf;               /* CAP bytes, one for a NUL, _SLACK */
	size_t cap, at, end;     /* the unread bytes: [at, end) */
	bool eof;
} _reader_t;

#define _READ_BLOCK ((size_t)1 << 20)

/*
 * The next line at *LINE, *N bytes (NUL-ended in place of its '\n'),
 * *CUT if the
 * file ends without one.  Returns 1, 0 at the end of the file, -1 on a
 * read error (errno set).
 */
static int _next_line(_reader_t *r, char **line, size_t *n, bool *cut)
{
	for (;;) {
		char *s = r->buf + r->at;
		char *nl = r->end > r->at ? memchr(s, '\n', r->end - r->at)
					  : NULL;
		ssize_t got;

		if (nl) {
			*nl = '\0';
			*line = s;
			*n = (size_t)(nl - s);
			*cut = false;
			r->at = (size_t)(nl - r->buf) + 1;
			return 1;
		}
		if (r->eof) {
			if (r->at == r->end)
				return 0;
			r->buf[r->end] = '\0';
			*line = s;
			*n = r->end - r->at;
			*cut = true;
			r->at = r->end;
			return 1;
		}
		/* keep the part of a line read, and read on after it */
		if (r->at) {
			memmove(r->buf, s, r->end - r->at);
			r->end -= r->at;
			r->at = 0;
		}
		if (r->end == r->cap) {
			r->buf = g_realloc(r->buf, 2 * r->cap + 1 + _SLACK);
			memset(r->buf + r->cap + 1 + _SLACK, 0, r->cap);
			r->cap *= 2;
		}
		got = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (!got)
			r->eof = true;
		r->end += (size_t)got;
	}
}

/* Read PATH's lines; calls LINE_FN for each non-blank, non-comment line
 * (its text may be modified; CUT: the file ends in the middle of it) but a
 * first one that is the header of KIND.  LINE_FN returns 0, -1 with errp
 * set, or another value to stop (errp untouched).  A file with no such
 * line, or whose first is plainly of another kind, is refused.  One pass,
 * read in blocks of a megabyte, the lines taken where they were read. */
typedef int (*_line_fn)(char *text, const char *path, int lineno, bool cut,
			void *arg, mf_error_t *errp);

static int _each_line(const char *path, const mf_dump_kind_t *kind,
		      _line_fn fn, void *arg, mf_error_t *errp)
{
	_reader_t r = { .cap = _READ_BLOCK };
	bool first = true, cut;
	char *l;
	size_t n;
	int rc = 0, got = 0, lineno = 0, lines = 0;

	if ((r.fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return mf_errprintf(errp, "%s: %s", path, g_strerror(errno));
	r.buf = g_malloc0(r.cap + 1 + _SLACK);
	while (!rc && (got = _next_line(&r, &l, &n, &cut)) > 0) {
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
	if (!rc && got < 0)
		rc = mf_errprintf(errp, "%s: %s", path, g_strerror(errno));
	else if (!rc && !lines)
		rc = mf_errprintf(errp, "%s: %s", path, kind->empty);
	g_free(r.buf);
	close(r.fd);
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
 * other thread to read (_job_fill). */
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

/* _filled[F_*]: read by _job_fill() (F_JOBID and the array's fields
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
	if (cut && (missing = _missing_always(text)))
		return mf_errprintf(errp, "%s:%d: no %s= field, which scontrol "
				    "prints on every job line", path, lineno,
				    missing);
	if (ld->pipe) {
		char *f[F_N];
		uint32_t len[F_N];

		if (!(job = _job_line_split(text, path, lineno, f, len, errp)))
			return -1;
		/* the other thread reads the values, then looks for the job
		 * listed twice, as below */
		return _pipe_put(ld->pipe, job, f, len, cut);
	}
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

/* The reader thread: the file into batches, then the last batch. */
static gpointer _reader_main(gpointer arg)
{
	_load_t *ld = arg;

	ld->rc = _each_line(ld->path, &mf_dump_jobs, _job_fn, ld, &ld->err);
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
	if (_job_fill(job, f, ld->path, job->line, errp) ||
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
 * Returns _each_line()'s status as one thread gives it, or -2 for FN's
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

/* _each_line() over the jobs file on a reader thread (one thread when
 * none can be started). */
static int _each_job_line(const char *path, _load_t *ld, mf_error_t *errp)
{
	_pipe_t pp = {
		.full = g_async_queue_new(),
		.empty = g_async_queue_new_full(_batch_free),
	};
	GThread *th;
	int rc;

	_layout_init();
	for (size_t i = 0; i < G_N_ELEMENTS(_fspec); i++)
		_filled[_fspec[i].f] = true;
	_filled[F_TRES] = _filled[F_REQTRES] = _filled[F_ALLOCTRES] = true;
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
		rc = _each_line(path, &mf_dump_jobs, _job_fn, ld, errp);
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
