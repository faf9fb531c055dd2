/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sacct_input: the reader of sacct_input.h.  The file is read a line at a
 * time (a year of a big site is gigabytes: it is never held whole), each
 * line split in place.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dump_header.h"
#include "sacct_input.h"

#define NFIELDS 12
enum { F_ID, F_USER, F_ACCT, F_PART, F_QOS, F_SUBMIT, F_ELIG, F_START,
       F_END, F_STATE, F_ALLOC, F_REQ };

static const char *const _titles[] = {
	"JobIDRaw", "User", "Account", "Partition", "QOS", "Submit",
	"Eligible", "Start", "End", "State", "AllocTRES", "ReqTRES", NULL };

static const mf_dump_kind_t _kind = {
	"the sacct dump", MF_SACCT_CMD, _titles,
	"no job record: the period holds no job, or sacct failed" };

/* A few hours' local midnight-free offsets, so that a time costs a
 * mktime() only when its hour was not seen lately. */
typedef struct {
	int key;                 /* ((y * 13 + mon) * 32 + d) * 24 + h */
	time_t t;                /* that hour's start */
} _hour_t;

#define HOURS 16
static _hour_t _hours[HOURS];

static time_t _hour_start(int y, int mon, int d, int h)
{
	int key = ((y * 13 + mon) * 32 + d) * 24 + h;
	_hour_t *slot = &_hours[(unsigned)key % HOURS];
	struct tm tm = { .tm_year = y - 1900, .tm_mon = mon - 1,
			 .tm_mday = d, .tm_hour = h, .tm_isdst = -1 };

	if (slot->key == key && slot->key)
		return slot->t;
	slot->key = key;
	slot->t = mktime(&tm);
	return slot->t;
}

/* Digits at S, exactly N of them, into *V. */
static bool _digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* A time field: 0 for unset.  Returns 0 or -1. */
static int _time(const char *s, int64_t *out)
{
	int y, mon, d, h, mi, sec;

	*out = 0;
	if (!*s || !strcmp(s, "Unknown") || !strcmp(s, "None"))
		return 0;
	if (strlen(s) == 19 && s[4] == '-' && s[7] == '-' && s[10] == 'T' &&
	    s[13] == ':' && s[16] == ':' && _digits(s, 4, &y) &&
	    _digits(s + 5, 2, &mon) && _digits(s + 8, 2, &d) &&
	    _digits(s + 11, 2, &h) && _digits(s + 14, 2, &mi) &&
	    _digits(s + 17, 2, &sec) && mon >= 1 && mon <= 12 && d >= 1 &&
	    d <= 31 && h < 24 && mi < 60 && sec < 61 && y >= 1970) {
		time_t t = _hour_start(y, mon, d, h);

		if (t == (time_t)-1)
			return -1;
		*out = (int64_t)t + mi * 60 + sec;
		return 0;
	}
	{
		char *end;
		long long v;

		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v = strtoll(s, &end, 10);
		if (*end || errno || v <= 0)
			return -1;
		*out = v;
		return 0;
	}
}

/* A count with sacct's unit suffixes (K, M, G, T, P: x1024). */
static int _count(const char *s, size_t len, double *out)
{
	char buf[64], *end;
	double v, mul = 1;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return -1;
	v = strtod(buf, &end);
	if (*end) {
		const char *u = strchr("KMGTP", *end);

		if (!u || end[1])
			return -1;
		for (long k = 0; k <= u - "KMGTP"; k++)
			mul *= 1024;
	}
	*out = v * mul;
	return 0;
}

/* In a TRES string, the counts of billing, cpu and node (-1: absent).
 * Returns 0, or -1 with *BAD at the entry that is not TYPE=COUNT. */
static int _tres(const char *s, double *billing, double *cpu, double *node,
		 const char **bad)
{
	*billing = *cpu = *node = -1;
	while (*s) {
		const char *comma = strchr(s, ',');
		const char *eq = strchr(s, '=');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		double v;

		if (!eq || eq >= s + len || eq == s ||
		    _count(eq + 1, len - (size_t)(eq + 1 - s), &v)) {
			*bad = s;
			return -1;
		}
		if (eq - s == 7 && !strncmp(s, "billing", 7))
			*billing = v;
		else if (eq - s == 3 && !strncmp(s, "cpu", 3))
			*cpu = v;
		else if (eq - s == 4 && !strncmp(s, "node", 4))
			*node = v;
		s += len;
		if (*s == ',')
			s++;
	}
	return 0;
}

static uint32_t _intern(mf_sacct_t *h, GHashTable *idx, GPtrArray *names,
			const char *s)
{
	gpointer v;
	char *copy;

	if (g_hash_table_lookup_extended(idx, s, NULL, &v))
		return GPOINTER_TO_UINT(v);
	copy = g_string_chunk_insert_const(h->names, s);
	g_ptr_array_add(names, copy);
	g_hash_table_insert(idx, copy, GUINT_TO_POINTER(names->len - 1));
	return names->len - 1;
}

static uint32_t _intern_assoc(mf_sacct_t *h, const char *acct,
			      const char *user, const char *part)
{
	char *key = g_strconcat(acct, "\n", user, "\n", part, NULL);
	gpointer v;
	uint32_t i;

	if (g_hash_table_lookup_extended(h->assoc_idx, key, NULL, &v)) {
		g_free(key);
		return GPOINTER_TO_UINT(v);
	}
	i = h->acct->len;
	g_ptr_array_add(h->acct, g_string_chunk_insert_const(h->names, acct));
	g_ptr_array_add(h->user, g_string_chunk_insert_const(h->names, user));
	g_ptr_array_add(h->assoc_part,
			g_string_chunk_insert_const(h->names, part));
	g_hash_table_insert(h->assoc_idx,
			    g_string_chunk_insert(h->names, key),
			    GUINT_TO_POINTER(i));
	g_free(key);
	return i;
}

/* The lines of FP (read to its end, then rewound): the jobs array is
 * made that long at once, not doubled as it grows (at ten million records
 * the doubling alone would cost a gigabyte). */
static guint _count_lines(FILE *fp)
{
	char buf[1 << 16];
	size_t n;
	guint lines = 1;

	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		for (char *p = buf; (p = memchr(p, '\n', n - (size_t)(p - buf)));
		     p++)
			lines++;
	rewind(fp);
	return lines;
}

static mf_sacct_t *_new(const char *path, guint lines)
{
	mf_sacct_t *h = g_new0(mf_sacct_t, 1);

	h->path = g_strdup(path);
	h->jobs = g_array_sized_new(FALSE, FALSE, sizeof(mf_replay_job_t),
				    lines);
	h->acct = g_ptr_array_new();
	h->user = g_ptr_array_new();
	h->assoc_part = g_ptr_array_new();
	h->part = g_ptr_array_new();
	h->qos = g_ptr_array_new();
	h->names = g_string_chunk_new(1 << 16);
	h->assoc_idx = g_hash_table_new(g_str_hash, g_str_equal);
	h->part_idx = g_hash_table_new(g_str_hash, g_str_equal);
	h->qos_idx = g_hash_table_new(g_str_hash, g_str_equal);
	return h;
}

void mf_sacct_free(mf_sacct_t *h)
{
	if (!h)
		return;
	g_free(h->path);
	g_array_free(h->jobs, TRUE);
	g_ptr_array_unref(h->acct);
	g_ptr_array_unref(h->user);
	g_ptr_array_unref(h->assoc_part);
	g_ptr_array_unref(h->part);
	g_ptr_array_unref(h->qos);
	g_string_chunk_free(h->names);
	g_hash_table_destroy(h->assoc_idx);
	g_hash_table_destroy(h->part_idx);
	g_hash_table_destroy(h->qos_idx);
	g_free(h);
}

/* Read one record from the fields F of line LINE into J.  Returns 0, or
 * -1 with errp set (without the file and line: the caller adds them). */
static int _record(mf_sacct_t *h, char **f, uint32_t line,
		   mf_replay_job_t *j, mf_error_t *errp)
{
	static const char *const tnames[] = { "Submit", "Eligible", "Start",
					      "End" };
	int64_t *times[] = { &j->submit, &j->eligible, &j->start, &j->end };
	double billing, cpu, node, rb, rc, rn;
	const char *bad = NULL;
	char *end;
	unsigned long id;

	memset(j, 0, sizeof(*j));
	j->line = line;
	errno = 0;
	id = strtoul(f[F_ID], &end, 10);
	if (*f[F_ID] < '0' || *f[F_ID] > '9' || *end || errno ||
	    id == 0 || id > UINT32_MAX)
		return mf_errprintf(errp, "JobIDRaw '%s': not a job id",
				    f[F_ID]);
	j->job_id = (uint32_t)id;
	if (!*f[F_ACCT])
		return mf_errprintf(errp, "job %s: no Account", f[F_ID]);
	if (!*f[F_USER])
		return mf_errprintf(errp, "job %s: no User", f[F_ID]);
	if (!*f[F_STATE])
		return mf_errprintf(errp, "job %s: no State", f[F_ID]);
	for (int k = 0; k < 4; k++)
		if (_time(f[F_SUBMIT + k], times[k]))
			return mf_errprintf(errp, "job %s: %s '%s': not a "
					    "time (YYYY-MM-DDTHH:MM:SS, or "
					    "seconds since the epoch)",
					    f[F_ID], tnames[k],
					    f[F_SUBMIT + k]);
	if (j->start && j->submit && j->start < j->submit)
		return mf_errprintf(errp, "job %s: Start %s before Submit %s",
				    f[F_ID], f[F_START], f[F_SUBMIT]);
	if (j->end && j->start && j->end < j->start)
		return mf_errprintf(errp, "job %s: End %s before Start %s",
				    f[F_ID], f[F_END], f[F_START]);
	if (_tres(f[F_ALLOC], &billing, &cpu, &node, &bad))
		return mf_errprintf(errp, "job %s: AllocTRES entry '%.*s': not "
				    "TYPE=COUNT", f[F_ID],
				    (int)strcspn(bad, ","), bad);
	if (_tres(f[F_REQ], &rb, &rc, &rn, &bad))
		return mf_errprintf(errp, "job %s: ReqTRES entry '%.*s': not "
				    "TYPE=COUNT", f[F_ID],
				    (int)strcspn(bad, ","), bad);
	j->billing = billing >= 0 ? billing : cpu >= 0 ? cpu : 0;
	if (j->start && billing < 0 && cpu < 0) {
		if (!h->no_tres++)
			h->first_no_tres = line;
	}
	if (cpu < 0)
		cpu = rc;
	if (node < 0)
		node = rn;
	j->cpus = cpu > 0 ? (uint32_t)cpu : 1;
	j->nodes = node > 0 ? (uint32_t)node : 1;
	j->assoc = _intern_assoc(h, f[F_ACCT], f[F_USER], f[F_PART]);
	j->part = _intern(h, h->part_idx, h->part, f[F_PART]);
	j->qos = _intern(h, h->qos_idx, h->qos, f[F_QOS]);
	return 0;
}

mf_sacct_t *mf_sacct_load(const char *path, mf_error_t *errp)
{
	FILE *fp = fopen(path, "r");
	mf_sacct_t *h;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	uint32_t line = 0;
	bool first = true;
	mf_error_t e;

	if (!fp) {
		mf_errprintf(errp, "%s: %s", path, g_strerror(errno));
		return NULL;
	}
	h = _new(path, _count_lines(fp));
	while ((len = getline(&buf, &cap, fp)) >= 0) {
		bool cut = len == 0 || buf[len - 1] != '\n';
		char *f[NFIELDS], *p;
		bool trailing;
		int n = 0;
		mf_replay_job_t j;

		line++;
		if ((size_t)len != strlen(buf)) {
			mf_errprintf(errp, "%s:%u: a NUL byte: not a text "
				     "file (expected `%s`)", path, line,
				     MF_SACCT_CMD);
			goto fail;
		}
		if (!cut)
			buf[--len] = '\0';
		if (len && buf[len - 1] == '\r')
			buf[--len] = '\0';
		if (!*buf)
			continue;
		if (first) {
			first = false;
			if (mf_dump_check_kind(buf, &_kind, path, (int)line,
					       errp))
				goto fail;
			if (mf_dump_is_header(buf, _titles))
				continue;
		}
		trailing = buf[len - 1] == '|';
		for (p = buf;; p++) {
			if (n < NFIELDS)
				f[n] = p;
			n++;
			if (!(p = strchr(p, '|')))
				break;
			*p = '\0';
		}
		/* sacct -P may end a line with '|' */
		if (n == NFIELDS + 1 && trailing)
			n = NFIELDS;
		if (n != NFIELDS) {
			mf_errprintf(errp, "%s:%u: %d fields, expected %d "
				     "(`%s`)%s", path, line, n, NFIELDS,
				     MF_SACCT_CMD, cut ? "; the file ends "
				     "without a newline in the middle of "
				     "this line: the dump was cut short" :
				     "");
			goto fail;
		}
		if (_record(h, f, line, &j, &e)) {
			mf_errprintf(errp, "%s:%u: %s%s", path, line, e.text,
				     cut ? "; the file ends without a newline "
				     "in the middle of this line: the dump "
				     "was cut short" : "");
			goto fail;
		}
		g_array_append_val(h->jobs, j);
	}
	if (ferror(fp)) {
		mf_errprintf(errp, "%s: %s", path, g_strerror(errno));
		goto fail;
	}
	if (!h->jobs->len) {
		if (line)
			mf_errprintf(errp, "%s:%u: %s (expected `%s`)", path,
				     line, _kind.empty, MF_SACCT_CMD);
		else
			mf_errprintf(errp, "%s: empty file: %s (expected "
				     "`%s`)", path, _kind.empty, MF_SACCT_CMD);
		goto fail;
	}
	free(buf);
	fclose(fp);
	return h;
fail:
	free(buf);
	fclose(fp);
	mf_sacct_free(h);
	return NULL;
}
