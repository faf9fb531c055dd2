/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sacct_input: the reader of sacct_input.h.  The file is read a line at a
 * time (a year of a big site is gigabytes: it is never held whole), each
 * line split in place.
 */
#include <errno.h>
#include <math.h>
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
	if (!*s)
		return 0;
	if (*s > '9' && (!strcmp(s, "Unknown") || !strcmp(s, "None")))
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
	uint64_t n = 0;
	size_t i = 0;

	if (!len || len >= sizeof(buf))
		return -1;
	/* whole numbers (all sacct prints but fractions of a unit), without
	 * a copy and strtod: exactly the double strtod gives below 2^53 */
	for (; i < len && i < 15 && s[i] >= '0' && s[i] <= '9'; i++)
		n = n * 10 + (uint64_t)(s[i] - '0');
	if (i && (i == len || (i == len - 1 && strchr("KMGTP", s[i]) &&
			       s[i]))) {
		if (i == len - 1)
			for (const char *u = "KMGTP"; *u; u++) {
				mul *= 1024;
				if (*u == s[i])
					break;
			}
		*out = (double)n * mul;
		return 0;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return -1;
	v = strtod(buf, &end);
	if (!isfinite(v))
		return -1;
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

/* The interning tables: open addressing, each slot an index into the
 * names (+ 1, 0: empty) and its hash, so that a lookup hashes the fields
 * where they lie in the line (no key put together, nothing allocated)
 * and compares names only on equal hashes: three lookups a record, ten
 * million records in a year. */
struct mf_sacct_itab {
	uint32_t *slot;
	uint32_t *hash;
	uint32_t mask;           /* slots - 1, a power of two less one */
	uint32_t used;
};

static mf_sacct_itab_t *_itab_new(void)
{
	mf_sacct_itab_t *t = g_new0(mf_sacct_itab_t, 1);

	t->mask = 63;
	t->slot = g_new0(uint32_t, 64);
	t->hash = g_new(uint32_t, 64);
	return t;
}

static void _itab_free(mf_sacct_itab_t *t)
{
	if (!t)
		return;
	g_free(t->slot);
	g_free(t->hash);
	g_free(t);
}

/* FNV-1a of S, on from H. */
static uint32_t _hash(const char *s, uint32_t h)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

/* Add index I of hash H (not there yet); the table doubles at half
 * full. */
static void _itab_add(mf_sacct_itab_t *t, uint32_t h, uint32_t i)
{
	uint32_t k;

	if (2 * (t->used + 1) > t->mask + 1) {
		uint32_t *os = t->slot, *oh = t->hash, on = t->mask + 1;

		t->mask = 2 * on - 1;
		t->slot = g_new0(uint32_t, 2 * on);
		t->hash = g_new(uint32_t, 2 * on);
		t->used = 0;
		for (uint32_t j = 0; j < on; j++)
			if (os[j])
				_itab_add(t, oh[j], os[j] - 1);
		g_free(os);
		g_free(oh);
	}
	for (k = h & t->mask; t->slot[k]; k = (k + 1) & t->mask)
		;
	t->slot[k] = i + 1;
	t->hash[k] = h;
	t->used++;
}

static uint32_t _intern(mf_sacct_t *h, mf_sacct_itab_t *idx,
			GPtrArray *names, const char *s)
{
	uint32_t hv = _hash(s, 2166136261u);

	for (uint32_t k = hv & idx->mask; idx->slot[k];
	     k = (k + 1) & idx->mask) {
		uint32_t i = idx->slot[k] - 1;

		if (idx->hash[k] == hv && !strcmp(names->pdata[i], s))
			return i;
	}
	g_ptr_array_add(names, g_string_chunk_insert_const(h->names, s));
	_itab_add(idx, hv, names->len - 1);
	return names->len - 1;
}

static uint32_t _intern_assoc(mf_sacct_t *h, const char *acct,
			      const char *user, const char *part)
{
	mf_sacct_itab_t *idx = h->assoc_idx;
	uint32_t hv = _hash(part, _hash(user, _hash(acct, 2166136261u) *
					16777619u) * 16777619u);
	uint32_t i;

	for (uint32_t k = hv & idx->mask; idx->slot[k];
	     k = (k + 1) & idx->mask) {
		i = idx->slot[k] - 1;
		if (idx->hash[k] == hv && !strcmp(h->acct->pdata[i], acct) &&
		    !strcmp(h->user->pdata[i], user) &&
		    !strcmp(h->assoc_part->pdata[i], part))
			return i;
	}
	i = h->acct->len;
	g_ptr_array_add(h->acct, g_string_chunk_insert_const(h->names, acct));
	g_ptr_array_add(h->user, g_string_chunk_insert_const(h->names, user));
	g_ptr_array_add(h->assoc_part,
			g_string_chunk_insert_const(h->names, part));
	_itab_add(idx, hv, i);
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
	h->assoc_idx = _itab_new();
	h->part_idx = _itab_new();
	h->qos_idx = _itab_new();
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
	_itab_free(h->assoc_idx);
	_itab_free(h->part_idx);
	_itab_free(h->qos_idx);
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
	/* a count with a unit (cpu=4T) or past 32 bits means nothing */
	if (cpu > UINT32_MAX || node > UINT32_MAX)
		return mf_errprintf(errp, "job %s: %s=%.0f in its TRES: more "
				    "than a job can have", f[F_ID],
				    cpu > UINT32_MAX ? "cpu" : "node",
				    cpu > UINT32_MAX ? cpu : node);
	j->cpus = cpu > 0 ? (uint32_t)cpu : 1;
	j->nodes = node > 0 ? (uint32_t)node : 1;
	j->assoc = _intern_assoc(h, f[F_ACCT], f[F_USER], f[F_PART]);
	j->part = _intern(h, h->part_idx, h->part, f[F_PART]);
	j->qos = _intern(h, h->qos_idx, h->qos, f[F_QOS]);
	return 0;
}

/* Split the record BUF (LEN bytes) at its '|' into F (NFIELDS at most
 * kept), a trailing '|' of sacct -P forgiven.  Returns the number of
 * fields. */
static int _split_fields(char *buf, ssize_t len, char *f[NFIELDS])
{
	bool trailing = buf[len - 1] == '|';
	int n = 0;

	for (char *p = buf;; p++) {
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
	return n;
}

/* Read line LINE of PATH, BUF (LEN bytes, as getline() read it), into H:
 * a header (*FIRST: the first line not yet seen) or a job.  Returns 0, or
 * -1 with ERRP set. */
static int _load_line(mf_sacct_t *h, const char *path, char *buf,
		      ssize_t len, uint32_t line, bool *first,
		      mf_error_t *errp)
{
	bool cut = len == 0 || buf[len - 1] != '\n';
	char *f[NFIELDS];
	int n;
	mf_replay_job_t j;
	mf_error_t e;

	if ((size_t)len != strlen(buf))
		return mf_errprintf(errp, "%s:%u: a NUL byte: not a text "
				    "file (expected `%s`)", path, line,
				    MF_SACCT_CMD);
	if (!cut)
		buf[--len] = '\0';
	if (len && buf[len - 1] == '\r')
		buf[--len] = '\0';
	if (!*buf)
		return 0;
	if (*first) {
		*first = false;
		if (mf_dump_check_kind(buf, &_kind, path, (int)line, errp))
			return -1;
		if (mf_dump_is_header(buf, _titles))
			return 0;
	}
	n = _split_fields(buf, len, f);
	if (n != NFIELDS)
		return mf_errprintf(errp, "%s:%u: %d fields, expected %d "
				    "(`%s`)%s", path, line, n, NFIELDS,
				    MF_SACCT_CMD, cut ? "; the file ends "
				    "without a newline in the middle of "
				    "this line: the dump was cut short" :
				    "");
	if (_record(h, f, line, &j, &e))
		return mf_errprintf(errp, "%s:%u: %s%s", path, line, e.text,
				    cut ? "; the file ends without a newline "
				    "in the middle of this line: the dump "
				    "was cut short" : "");
	g_array_append_val(h->jobs, j);
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

	if (!fp) {
		mf_errprintf(errp, "%s: %s", path, g_strerror(errno));
		return NULL;
	}
	h = _new(path, _count_lines(fp));
	while ((len = getline(&buf, &cap, fp)) >= 0)
		if (_load_line(h, path, buf, len, ++line, &first, errp))
			goto fail;
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
