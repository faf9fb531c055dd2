/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_keys: where each key of a scontrol job line is (job_keys.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "job_keys.h"
#include "job_line.h"
#include "line_reader.h"

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


const char *const mf_jkeys_name[F_N] = {
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
 * has MF_LINES_SLACK bytes after it (line_reader.h).
 */

/* _mask8[n]: the first N bytes of a word (set by mf_jkeys_init) */
static uint64_t _mask8[9];

static inline uint64_t _word8(const char *s, size_t len)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return w & _mask8[len < 8 ? len : 8];
}

void mf_jkeys_init(void)
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
			char key[32 + MF_LINES_SLACK] = { 0 };

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
			if (!strcmp(mf_jkeys_name[f], _layout[i].key))
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
 * time where the machine can (the text has MF_LINES_SLACK bytes after its NUL). */
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
void mf_jkeys_fields(char *text, char *val[F_N], uint32_t len[F_N])
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

/* The first key scontrol prints on every job line (_ALWAYS) that TEXT
 * has no "KEY=" word of, or NULL. */
const char *mf_jkeys_missing_always(const char *text)
{
	mf_jkeys_init();
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
