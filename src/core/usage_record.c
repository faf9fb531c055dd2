/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "usage_record.h"

#define MAGIC "mfprio-usage-record 1"
#define MAX_TRES 4096

void mf_usage_record_init(mf_usage_record_t *r, const char *cluster,
			  time_t t, uint32_t tres_cnt)
{
	memset(r, 0, sizeof(*r));
	r->cluster = g_strdup(cluster ? cluster : "");
	r->time = t;
	r->tres_cnt = tres_cnt;
	r->assocs = g_array_new(FALSE, FALSE, sizeof(mf_rec_entry_t));
	r->qos = g_array_new(FALSE, FALSE, sizeof(mf_rec_entry_t));
}

long double *mf_usage_record_add(mf_usage_record_t *r, int is_qos,
				 uint32_t id, long double raw, double wall)
{
	mf_rec_entry_t e = { .id = id, .raw = raw, .wall = wall };

	e.tres = g_new0(long double, MAX(r->tres_cnt, 1));
	g_array_append_val(is_qos ? r->qos : r->assocs, e);
	return e.tres;
}

static void _free_entries(GArray *a)
{
	if (!a)
		return;
	for (guint i = 0; i < a->len; i++)
		g_free(g_array_index(a, mf_rec_entry_t, i).tres);
	g_array_free(a, TRUE);
}

void mf_usage_record_clear(mf_usage_record_t *r)
{
	g_free(r->cluster);
	_free_entries(r->assocs);
	_free_entries(r->qos);
	memset(r, 0, sizeof(*r));
}

uint64_t mf_usage_ids_hash(const uint32_t *ids, size_t n)
{
	uint64_t h = 0;

	/* a sum of each id's mixed bits: independent of the order */
	for (size_t i = 0; i < n; i++) {
		uint64_t x = ids[i] + 0x9e3779b97f4a7c15ULL;

		x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
		x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
		h += x ^ (x >> 31);
	}
	return h;
}

static void _entries(GString *s, char kind, const GArray *a, uint32_t cnt)
{
	for (guint i = 0; i < a->len; i++) {
		const mf_rec_entry_t *e = &g_array_index(a, mf_rec_entry_t, i);

		g_string_append_printf(s, "%c %u %La %a", kind, e->id, e->raw,
				       e->wall);
		for (uint32_t k = 0; k < cnt; k++)
			if (e->tres[k] != 0.0L)
				g_string_append_printf(s, " %u:%La", k,
						       e->tres[k]);
		g_string_append_c(s, '\n');
	}
}

char *mf_usage_record_format(const mf_usage_record_t *r, size_t *len)
{
	GString *s = g_string_sized_new(256 + 64 * (r->assocs->len +
						    r->qos->len));
	char *sum;

	g_string_append_printf(s, MAGIC "\ncluster %s\ntime %lld\ntres %u\n"
			       "assocs %u %016" G_GINT64_MODIFIER "x\n",
			       r->cluster, (long long) r->time, r->tres_cnt,
			       r->assoc_total, (guint64) r->assoc_hash);
	_entries(s, 'a', r->assocs, r->tres_cnt);
	_entries(s, 'q', r->qos, r->tres_cnt);
	sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
					  (const guchar *) s->str, s->len);
	g_string_append_printf(s, "sum %s\n", sum);
	g_free(sum);
	if (len)
		*len = s->len;
	return g_string_free(s, FALSE);
}

/* --- reading --- */

typedef struct {
	const char *text;
	size_t len, pos;
	unsigned line;
	char buf[65536];
	mf_error_t *err;
} reader_t;

/* The next line into R->buf, without its newline; -1 at the end or on a
 * line too long or holding a NUL. */
static int _next(reader_t *r)
{
	const char *nl;
	size_t n;

	if (r->pos >= r->len)
		return -1;
	nl = memchr(r->text + r->pos, '\n', r->len - r->pos);
	n = (nl ? (size_t) (nl - r->text) : r->len) - r->pos;
	r->line++;
	if (!nl || n >= sizeof(r->buf) || memchr(r->text + r->pos, '\0', n))
		return mf_errprintf(r->err, "line %u: %s", r->line,
				    !nl ? "cut short (no newline)" :
				    n >= sizeof(r->buf) ? "too long" :
				    "holds a NUL byte");
	memcpy(r->buf, r->text + r->pos, n);
	r->buf[n] = '\0';
	r->pos += n + 1;
	return 0;
}

static int _bad(reader_t *r, const char *what)
{
	return mf_errprintf(r->err, "line %u: %s", r->line, what);
}

/* A finite, non-negative number (hex or decimal) ending at a space, ':'
 * or the end; *END after it. */
static int _number(const char *p, long double *v, char **end)
{
	/* digits first: no sign, no "inf" or "nan" */
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	*v = strtold(p, end);
	if (*end == p || errno || !isfinite(*v) || *v < 0.0L)
		return -1;
	return 0;
}

static int _u32(const char *p, uint32_t *v, char **end)
{
	unsigned long long x;

	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	x = strtoull(p, end, 10);
	if (errno || x > UINT32_MAX)
		return -1;
	*v = (uint32_t) x;
	return 0;
}

static int _entry(reader_t *r, mf_usage_record_t *out, GHashTable **seen)
{
	char *p = r->buf + 2, *end;
	uint32_t id;
	long double raw, wall, *tres;
	int is_qos = r->buf[0] == 'q';

	if (_u32(p, &id, &end) || *end != ' ')
		return _bad(r, "an id is expected after the kind");
	if (_number(end + 1, &raw, &end) || *end != ' ')
		return _bad(r, "the raw usage is not a non-negative number");
	if (_number(end + 1, &wall, &end) || (*end && *end != ' ') ||
	    !isfinite((double) wall))
		return _bad(r, "the wall time is not a non-negative number "
			    "(of a double's range)");
	if (!g_hash_table_add(seen[is_qos], GUINT_TO_POINTER(id)))
		return _bad(r, "the id appears twice");
	tres = mf_usage_record_add(out, is_qos, id, raw, (double) wall);
	while (*end == ' ') {
		uint32_t k;
		long double v;

		if (_u32(end + 1, &k, &end) || *end != ':' ||
		    k >= out->tres_cnt)
			return _bad(r, "a TRES index beyond the record's TRES "
				    "count, or no I:V pair");
		if (_number(end + 1, &v, &end) || (*end && *end != ' '))
			return _bad(r, "a TRES usage is not a non-negative "
				    "number");
		tres[k] = v;
	}
	if (*end)
		return _bad(r, "unexpected text after the entry");
	return 0;
}

static int _header(reader_t *r, mf_usage_record_t *out)
{
	char *end;
	long long t;
	uint32_t cnt, total;
	unsigned long long hash;

	if (_next(r) || strcmp(r->buf, MAGIC))
		return r->err->text[0] ? -1 :
			_bad(r, "not an mfprio usage record (no '" MAGIC "')");
	if (_next(r) || strncmp(r->buf, "cluster ", 8) || !r->buf[8] ||
	    strchr(r->buf + 8, ' '))
		return r->err->text[0] ? -1 : _bad(r, "'cluster NAME' expected");
	out->cluster = g_strdup(r->buf + 8);
	if (_next(r) || strncmp(r->buf, "time ", 5))
		return r->err->text[0] ? -1 : _bad(r, "'time T' expected");
	errno = 0;
	t = strtoll(r->buf + 5, &end, 10);
	if (errno || *end || end == r->buf + 5 || t <= 0)
		return _bad(r, "the time is not a positive number of seconds");
	out->time = (time_t) t;
	if (_next(r) || strncmp(r->buf, "tres ", 5))
		return r->err->text[0] ? -1 : _bad(r, "'tres N' expected");
	if (_u32(r->buf + 5, &cnt, &end) || *end || cnt > MAX_TRES)
		return _bad(r, "the TRES count is not a number up to 4096");
	out->tres_cnt = cnt;
	if (_next(r) || strncmp(r->buf, "assocs ", 7))
		return r->err->text[0] ? -1 :
			_bad(r, "'assocs COUNT HASH' expected");
	if (_u32(r->buf + 7, &total, &end) || *end != ' ')
		return _bad(r, "the association count is not a number");
	errno = 0;
	hash = strtoull(end + 1, &end, 16);
	if (errno || *end || strlen(r->buf) < 8)
		return _bad(r, "the association hash is not hexadecimal");
	out->assoc_total = total;
	out->assoc_hash = hash;
	return 0;
}

int mf_usage_record_parse(const char *text, size_t len,
			  mf_usage_record_t *out, mf_error_t *err)
{
	reader_t *r = g_new0(reader_t, 1);
	GHashTable *seen[2] = {
		g_hash_table_new(g_direct_hash, g_direct_equal),
		g_hash_table_new(g_direct_hash, g_direct_equal) };
	int rc = -1;

	r->text = text;
	r->len = len;
	r->err = err;
	err->text[0] = '\0';
	mf_usage_record_init(out, NULL, 0, 0);
	g_free(out->cluster);
	out->cluster = NULL;
	if (!len) {
		mf_errprintf(err, "empty");
		goto done;
	}
	if (_header(r, out))
		goto done;
	for (;;) {
		size_t at = r->pos;

		if (_next(r)) {
			if (!err->text[0])
				mf_errprintf(err, "line %u: cut short (no "
					     "'sum' line)", r->line + 1);
			goto done;
		}
		if (!strncmp(r->buf, "sum ", 4)) {
			char *sum = g_compute_checksum_for_data(
				G_CHECKSUM_SHA256, (const guchar *) text, at);
			bool same = !strcmp(sum, r->buf + 4);

			g_free(sum);
			if (!same) {
				_bad(r, "the sum does not match: the record "
				     "was changed or torn");
				goto done;
			}
			if (r->pos != len) {
				mf_errprintf(err, "line %u: text after the "
					     "sum", r->line + 1);
				goto done;
			}
			break;
		}
		if ((r->buf[0] != 'a' && r->buf[0] != 'q') ||
		    r->buf[1] != ' ') {
			_bad(r, "an entry ('a' or 'q') or the sum expected");
			goto done;
		}
		if (_entry(r, out, seen))
			goto done;
	}
	rc = 0;
done:
	if (rc)
		mf_usage_record_clear(out);
	g_hash_table_destroy(seen[0]);
	g_hash_table_destroy(seen[1]);
	g_free(r);
	return rc;
}
