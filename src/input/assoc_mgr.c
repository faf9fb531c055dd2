/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_mgr.h"
#include "dump_header.h"

/* The record being read: an association or a QOS (one of them set), and
 * which keys it has had already. */
typedef struct {
	mf_amgr_assoc_t *assoc;
	mf_amgr_qos_t *qos;
	GHashTable *seen;
} _rec_t;

static void _assoc_free(gpointer p);
static void _qos_free(gpointer p);
static char *_name_of(const char *value);
static int _parse_u32(const char *s, uint32_t *out);
static char *_first_figure(const char *value);
static char *_tres_pick(const char *value, bool used);
static int _assoc_word(mf_amgr_assoc_t *a, const char *key, const char *val,
		       const char *file, int line, mf_error_t *errp);
static int _qos_word(mf_amgr_qos_t *q, const char *key, const char *val,
		     const char *file, int line, mf_error_t *errp);
static int _words(_rec_t *r, const char *text, const char *file, int line,
		  mf_error_t *errp);
static int _end_record(_rec_t *r, const char *file, mf_error_t *errp);

static void _assoc_free(gpointer p)
{
	mf_amgr_assoc_t *a = p;

	g_free(a->account);
	g_free(a->user);
	g_free(a->partition);
	g_free(a->parent);
	g_free(a->grp_tres_mins);
	g_free(a->tres_run_mins);
	g_free(a);
}

static void _qos_free(gpointer p)
{
	mf_amgr_qos_t *q = p;

	g_free(q->name);
	g_free(q);
}

void mf_amgr_free(mf_amgr_t *m)
{
	if (!m)
		return;
	g_ptr_array_unref(m->assocs);
	g_ptr_array_unref(m->qos);
	g_free(m->file);
	g_free(m);
}

/* "NAME(ID)" -> "NAME"; a value without '(' as it is. */
static char *_name_of(const char *value)
{
	const char *paren = strchr(value, '(');

	return paren ? g_strndup(value, (gsize)(paren - value))
		     : g_strdup(value);
}

static int _parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (!g_ascii_isdigit(*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > 0xffffffffULL)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int mf_amgr_parse_usage(const char *s, long double *out)
{
	char *end;
	long double v;

	if (!g_ascii_isdigit(*s) && *s != '.')
		return -1;
	errno = 0;
	v = strtold(s, &end);
	if (errno || *end || !isfinite(v) || v < 0.0L)
		return -1;
	*out = v;
	return 0;
}

/* "A/B/C" -> "A" (new string). */
static char *_first_figure(const char *value)
{
	const char *slash = strchr(value, '/');

	return slash ? g_strndup(value, (gsize)(slash - value))
		     : g_strdup(value);
}

/* From "NAME=LIMIT(USED),...", "NAME=USED,..." of every TRES if USED,
 * else "NAME=LIMIT,..." of those whose LIMIT is not "N" (new string); an
 * item without '=' or '(' is left out. */
static char *_tres_pick(const char *value, bool used)
{
	char **items = g_strsplit(value, ",", -1);
	GString *out = g_string_new(NULL);

	for (int i = 0; items[i]; i++) {
		char *eq = strchr(items[i], '='), *open, *close;

		if (!eq || !(open = strrchr(eq, '(')) ||
		    !(close = strchr(open, ')')))
			continue;
		*eq = *open = *close = '\0';
		if (!used && !strcmp(eq + 1, "N"))
			continue;
		g_string_append_printf(out, "%s%s=%s", out->len ? "," : "",
				       items[i], used ? open + 1 : eq + 1);
	}
	g_strfreev(items);
	return g_string_free(out, FALSE);
}

static int _assoc_word(mf_amgr_assoc_t *a, const char *key, const char *val,
		       const char *file, int line, mf_error_t *errp)
{
	if (!strcmp(key, "Account")) {
		a->account = g_strdup(val);
	} else if (!strcmp(key, "UserName")) {
		a->user = _name_of(val);
	} else if (!strcmp(key, "Partition")) {
		a->partition = g_strdup(val);
	} else if (!strcmp(key, "ParentAccount")) {
		a->parent = _name_of(val);
	} else if (!strcmp(key, "ID")) {
		if (_parse_u32(val, &a->id))
			return mf_errprintf(errp, "%s:%d: ID '%s' is not a "
					    "whole number", file, line, val);
	} else if (!strcmp(key, "Priority")) {
		/* an unset priority may be printed empty */
		if (*val && _parse_u32(val, &a->priority))
			return mf_errprintf(errp, "%s:%d: Priority '%s' is "
					    "not a whole number", file, line,
					    val);
	} else if (!strcmp(key, "SharesRaw/Norm/Level/Factor")) {
		char *f = _first_figure(val);
		int rc = _parse_u32(f, &a->shares_raw);

		g_free(f);
		if (rc)
			return mf_errprintf(errp, "%s:%d: SharesRaw in '%s' is "
					    "not a whole number", file, line,
					    val);
	} else if (!strcmp(key, "GrpTRESMins")) {
		a->grp_tres_mins = _tres_pick(val, false);
	} else if (!strcmp(key, "GrpTRESRunMins")) {
		a->tres_run_mins = _tres_pick(val, true);
	} else if (!strcmp(key, "UsageRaw/Norm/Efctv")) {
		char *f = _first_figure(val);
		int rc = mf_amgr_parse_usage(f, &a->usage_raw);

		g_free(f);
		if (rc)
			return mf_errprintf(errp, "%s:%d: UsageRaw in '%s' is "
					    "not a number >= 0", file, line,
					    val);
		a->has_usage = true;
	}
	return 0;
}

static int _qos_word(mf_amgr_qos_t *q, const char *key, const char *val,
		     const char *file, int line, mf_error_t *errp)
{
	if (!strcmp(key, "QOS")) {
		q->name = _name_of(val);
	} else if (!strcmp(key, "Priority")) {
		if (_parse_u32(val, &q->priority))
			return mf_errprintf(errp, "%s:%d: Priority '%s' is "
					    "not a whole number", file, line,
					    val);
	} else if (!strcmp(key, "UsageRaw")) {
		if (mf_amgr_parse_usage(val, &q->usage_raw))
			return mf_errprintf(errp, "%s:%d: UsageRaw '%s' is not "
					    "a number >= 0", file, line, val);
		q->has_usage = true;
	}
	return 0;
}

/* The Key=Value words of one line of record R. */
static int _words(_rec_t *r, const char *text, const char *file, int line,
		  mf_error_t *errp)
{
	char **words = g_strsplit_set(text, " \t", -1);
	int rc = 0;

	for (int i = 0; words[i] && !rc; i++) {
		char *w = words[i], *eq = strchr(w, '=');

		if (!eq || eq == w)
			continue;
		*eq = '\0';
		if (g_hash_table_contains(r->seen, w))
			continue;
		g_hash_table_add(r->seen, g_strdup(w));
		if (r->assoc)
			rc = _assoc_word(r->assoc, w, eq + 1, file, line, errp);
		else
			rc = _qos_word(r->qos, w, eq + 1, file, line, errp);
	}
	g_strfreev(words);
	return rc;
}

/* Check the record R and leave it; it has been added to its array. */
static int _end_record(_rec_t *r, const char *file, mf_error_t *errp)
{
	int rc = 0;

	if (r->assoc) {
		mf_amgr_assoc_t *a = r->assoc;

		if (!a->account || !*a->account)
			rc = mf_errprintf(errp, "%s:%d: association record "
					  "without Account", file, a->line);
		if (!a->user)
			a->user = g_strdup("");
		if (!a->partition)
			a->partition = g_strdup("");
		if (!a->parent)
			a->parent = g_strdup("");
	} else if (r->qos && (!r->qos->name || !*r->qos->name)) {
		rc = mf_errprintf(errp, "%s:%d: QOS record without a name",
				  file, r->qos->line);
	}
	r->assoc = NULL;
	r->qos = NULL;
	g_hash_table_remove_all(r->seen);
	return rc;
}

/* Line L (number LINE) of M's text NAME into the record R (ended and a
 * new one started at an unindented line).  Returns 0, -1 (an error in
 * the line), or -2 (in the record the line ends). */
static int _line(_rec_t *r, mf_amgr_t *m, char *l, const char *name,
		 int line, mf_error_t *errp)
{
	size_t len = strlen(l);
	bool indented = (*l == ' ' || *l == '\t');

	if (len && l[len - 1] == '\r')
		l[--len] = '\0';
	if (!g_utf8_validate(l, -1, NULL))
		return mf_errprintf(errp, "%s:%d: not text", name, line);
	g_strstrip(l);
	if (!*l)
		return 0;
	if (indented)
		return r->assoc || r->qos ? _words(r, l, name, line, errp) : 0;
	if ((r->assoc || r->qos) && _end_record(r, name, errp))
		return -2;
	if (g_str_has_prefix(l, "ClusterName=")) {
		r->assoc = g_new0(mf_amgr_assoc_t, 1);
		r->assoc->line = line;
		g_ptr_array_add(m->assocs, r->assoc);
	} else if (g_str_has_prefix(l, "QOS=")) {
		r->qos = g_new0(mf_amgr_qos_t, 1);
		r->qos->line = line;
		g_ptr_array_add(m->qos, r->qos);
	} else {
		return 0;        /* a title, a user record */
	}
	return _words(r, l, name, line, errp);
}

mf_amgr_t *mf_amgr_parse(const char *text, const char *name,
			 mf_error_t *errp)
{
	mf_amgr_t *m = g_new0(mf_amgr_t, 1);
	char **lines = g_strsplit(text, "\n", -1);
	_rec_t r = { 0 };
	int rc = 0;

	m->file = g_strdup(name);
	m->assocs = g_ptr_array_new_with_free_func(_assoc_free);
	m->qos = g_ptr_array_new_with_free_func(_qos_free);
	if (mf_dump_ends_cut(text, strlen(text)))
		m->cut_line = (int)g_strv_length(lines);
	r.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (int i = 0; lines[i] && !rc; i++)
		if ((rc = _line(&r, m, lines[i], name, i + 1, errp)) == -1 &&
		    i + 1 == m->cut_line)
			mf_dump_note_cut(errp, "this line");
	/* the last record ends with the text */
	if (!rc && (r.assoc || r.qos) &&
	    (rc = _end_record(&r, name, errp)) && m->cut_line)
		mf_dump_note_cut(errp, "this record");
	g_hash_table_destroy(r.seen);
	g_strfreev(lines);
	if (rc) {
		mf_amgr_free(m);
		return NULL;
	}
	return m;
}

bool mf_amgr_record_cut(const mf_amgr_t *m, int line)
{
	if (!m->cut_line)
		return false;
	for (guint i = 0; i < m->assocs->len; i++)
		if (((const mf_amgr_assoc_t *)m->assocs->pdata[i])->line > line)
			return false;
	for (guint i = 0; i < m->qos->len; i++)
		if (((const mf_amgr_qos_t *)m->qos->pdata[i])->line > line)
			return false;
	return true;
}

mf_amgr_t *mf_amgr_load(const char *path, mf_error_t *errp)
{
	char *text = NULL;
	gsize size = 0;
	mf_amgr_t *m;

	if (!(text = mf_dump_read(path, &size, errp)))
		return NULL;
	m = mf_amgr_parse(text, path, errp);
	g_free(text);
	return m;
}
