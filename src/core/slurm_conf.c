/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "slurm_conf.h"

#define MF_CONF_MAX_INCLUDE_DEPTH 8

static const char *const _record_kinds[] = {
	"NodeName", "PartitionName", "NodeSet", "DownNodes", "FrontendName",
};

static void _pair_free(gpointer p);
static void _record_free(gpointer p);
static bool _is_record_kind(const char *key);
static int _split_pairs(const char *line, const char *file, int lineno,
			GPtrArray *out, mf_error_t *errp);
static int _parse_into(mf_conf_t *conf, const char *text, const char *name,
		       int depth, mf_error_t *errp);
static int _include(mf_conf_t *conf, const char *arg, const char *name,
		    int lineno, int depth, mf_error_t *errp);

static void _pair_free(gpointer p)
{
	mf_conf_pair_t *pair = p;

	g_free(pair->key);
	g_free(pair->value);
	g_free(pair->file);
	g_free(pair);
}

static void _record_free(gpointer p)
{
	mf_conf_record_t *rec = p;

	g_free(rec->kind);
	g_ptr_array_free(rec->pairs, TRUE);
	g_free(rec);
}

static bool _is_record_kind(const char *key)
{
	for (size_t i = 0; i < G_N_ELEMENTS(_record_kinds); i++)
		if (!g_ascii_strcasecmp(key, _record_kinds[i]))
			return true;
	return false;
}

/* Split one logical line into Key=Value pairs appended to OUT. */
static int _split_pairs(const char *line, const char *file, int lineno,
			GPtrArray *out, mf_error_t *errp)
{
	const char *p = line;

	while (*p) {
		const char *k0, *k1;
		GString *val;
		mf_conf_pair_t *pair;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		k0 = p;
		while (*p && *p != '=' && *p != ' ' && *p != '\t')
			p++;
		k1 = p;
		if (*p != '=')
			return mf_errprintf(errp, "%s:%d: '%.*s' is not of the "
					    "form Key=Value", file, lineno,
					    (int) (k1 - k0), k0);
		if (k1 == k0)
			return mf_errprintf(errp, "%s:%d: empty key before "
					    "'='", file, lineno);
		p++;
		val = g_string_new(NULL);
		while (*p && *p != ' ' && *p != '\t') {
			if (*p == '"') {
				const char *q = strchr(p + 1, '"');

				if (!q) {
					g_string_free(val, TRUE);
					return mf_errprintf(errp, "%s:%d: "
						"unterminated quote in value "
						"of '%.*s'", file, lineno,
						(int) (k1 - k0), k0);
				}
				g_string_append_len(val, p + 1, q - p - 1);
				p = q + 1;
			} else {
				g_string_append_c(val, *p++);
			}
		}
		pair = g_new0(mf_conf_pair_t, 1);
		pair->key = g_strndup(k0, k1 - k0);
		pair->value = g_string_free(val, FALSE);
		pair->file = g_strdup(file);
		pair->line = lineno;
		g_ptr_array_add(out, pair);
	}
	return 0;
}

static int _include(mf_conf_t *conf, const char *arg, const char *name,
		    int lineno, int depth, mf_error_t *errp)
{
	char *path, *text = NULL;
	GError *gerr = NULL;
	int rc;

	if (depth >= MF_CONF_MAX_INCLUDE_DEPTH)
		return mf_errprintf(errp, "%s:%d: Include nested more than %d "
				    "deep", name, lineno,
				    MF_CONF_MAX_INCLUDE_DEPTH);
	if (g_path_is_absolute(arg)) {
		path = g_strdup(arg);
	} else {
		char *dir = g_path_get_dirname(name);

		path = g_build_filename(dir, arg, NULL);
		g_free(dir);
	}
	if (!g_file_get_contents(path, &text, NULL, &gerr)) {
		rc = mf_errprintf(errp, "%s:%d: cannot read included file: %s",
				  name, lineno, gerr->message);
		g_error_free(gerr);
		g_free(path);
		return rc;
	}
	rc = _parse_into(conf, text, path, depth + 1, errp);
	g_free(text);
	g_free(path);
	return rc;
}

static int _parse_into(mf_conf_t *conf, const char *text, const char *name,
		       int depth, mf_error_t *errp)
{
	char **lines = g_strsplit(text, "\n", -1);
	GString *logical = g_string_new(NULL);
	int rc = 0, start = 0;

	for (int i = 0; lines[i] && !rc; i++) {
		char *line = lines[i];
		char *hash = strchr(line, '#');
		size_t len;
		GPtrArray *pairs;

		if (hash)
			*hash = '\0';
		g_strchomp(line);
		if (!logical->len)
			start = i + 1;
		len = strlen(line);
		if (len && line[len - 1] == '\\') {
			line[len - 1] = ' ';
			g_string_append(logical, line);
			continue;
		}
		g_string_append(logical, line);
		g_strstrip(logical->str);
		logical->len = strlen(logical->str);
		if (!logical->len)
			continue;

		if (!g_ascii_strncasecmp(logical->str, "include", 7) &&
		    (logical->str[7] == ' ' || logical->str[7] == '\t')) {
			char *arg = g_strstrip(g_strdup(logical->str + 8));

			rc = _include(conf, arg, name, start, depth, errp);
			g_free(arg);
			g_string_truncate(logical, 0);
			continue;
		}

		pairs = g_ptr_array_new_with_free_func(_pair_free);
		rc = _split_pairs(logical->str, name, start, pairs, errp);
		g_string_truncate(logical, 0);
		if (rc) {
			g_ptr_array_free(pairs, TRUE);
			break;
		}
		if (pairs->len &&
		    _is_record_kind(((mf_conf_pair_t *)
				     g_ptr_array_index(pairs, 0))->key)) {
			mf_conf_record_t *rec = g_new0(mf_conf_record_t, 1);

			rec->kind = g_strdup(((mf_conf_pair_t *)
				g_ptr_array_index(pairs, 0))->key);
			rec->pairs = pairs;
			g_ptr_array_add(conf->records, rec);
		} else {
			/* hand each pair over to the globals array */
			g_ptr_array_set_free_func(pairs, NULL);
			for (guint j = 0; j < pairs->len; j++)
				g_ptr_array_add(conf->globals,
						g_ptr_array_index(pairs, j));
			g_ptr_array_free(pairs, TRUE);
		}
	}
	g_string_free(logical, TRUE);
	g_strfreev(lines);
	return rc;
}

mf_conf_t *mf_conf_parse(const char *text, const char *name,
			 mf_error_t *errp)
{
	mf_conf_t *conf = g_new0(mf_conf_t, 1);

	conf->globals = g_ptr_array_new_with_free_func(_pair_free);
	conf->records = g_ptr_array_new_with_free_func(_record_free);
	if (_parse_into(conf, text, name, 0, errp)) {
		mf_conf_free(conf);
		return NULL;
	}
	return conf;
}

mf_conf_t *mf_conf_load(const char *path, mf_error_t *errp)
{
	char *text = NULL;
	GError *gerr = NULL;
	mf_conf_t *conf;

	if (!g_file_get_contents(path, &text, NULL, &gerr)) {
		mf_errprintf(errp, "%s: %s", path, gerr->message);
		g_error_free(gerr);
		return NULL;
	}
	conf = mf_conf_parse(text, path, errp);
	g_free(text);
	return conf;
}

void mf_conf_free(mf_conf_t *conf)
{
	if (!conf)
		return;
	g_ptr_array_free(conf->globals, TRUE);
	g_ptr_array_free(conf->records, TRUE);
	g_free(conf);
}

const mf_conf_pair_t *mf_conf_get(const mf_conf_t *conf, const char *key)
{
	for (guint i = conf->globals->len; i-- > 0;) {
		const mf_conf_pair_t *p = g_ptr_array_index(conf->globals, i);

		if (!g_ascii_strcasecmp(p->key, key))
			return p;
	}
	return NULL;
}

void mf_conf_set(mf_conf_t *conf, const char *key, const char *value,
		 const char *file, int line)
{
	mf_conf_pair_t *p = g_new0(mf_conf_pair_t, 1);

	p->key = g_strdup(key);
	p->value = g_strdup(value);
	p->file = g_strdup(file);
	p->line = line;
	g_ptr_array_add(conf->globals, p);
}

const mf_conf_pair_t *mf_conf_record_get(const mf_conf_record_t *rec,
					 const char *key)
{
	for (guint i = 0; i < rec->pairs->len; i++) {
		const mf_conf_pair_t *p = g_ptr_array_index(rec->pairs, i);

		if (!g_ascii_strcasecmp(p->key, key))
			return p;
	}
	return NULL;
}
