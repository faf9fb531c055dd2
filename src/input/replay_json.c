/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_json: `mfprio replay --json`'s output read back (replay_json.h).
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "replay_json.h"

static void _series_free(gpointer p)
{
	mf_rjson_series_t *s = p;

	g_free(s->acct);
	g_free(s->user);
	g_free(s->time);
	g_free(s->before);
	g_free(s->after);
	g_free(s);
}

/* Member KEY of O as a node of type TYPE, or NULL. */
static JsonNode *_member(JsonObject *o, const char *key, JsonNodeType type)
{
	JsonNode *n = o ? json_object_get_member(o, key) : NULL;

	return n && JSON_NODE_TYPE(n) == type ? n : NULL;
}

/* Member KEY of O as a string (NULL: missing, null or not a string). */
static const char *_string(JsonObject *o, const char *key)
{
	JsonNode *n = _member(o, key, JSON_NODE_VALUE);

	return n && json_node_get_value_type(n) == G_TYPE_STRING ?
	       json_node_get_string(n) : NULL;
}

/* Whether N is a number (an integer or a double). */
static bool _is_number(JsonNode *n)
{
	GType t;

	if (JSON_NODE_TYPE(n) != JSON_NODE_VALUE)
		return false;
	t = json_node_get_value_type(n);
	return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

/* The array A of numbers (null: NAN when NULLS) into a new *V of *N
 * doubles.  Returns 0, or -1 for an element of another type. */
static int _numbers(JsonArray *a, bool nulls, double **v, guint *n)
{
	*n = json_array_get_length(a);
	*v = g_new(double, *n ? *n : 1);
	for (guint i = 0; i < *n; i++) {
		JsonNode *e = json_array_get_element(a, i);

		if (nulls && JSON_NODE_HOLDS_NULL(e))
			(*v)[i] = NAN;
		else if (_is_number(e))
			(*v)[i] = json_node_get_double(e);
		else
			return -1;
	}
	return 0;
}

/* Series I, the object O, into a new *S.  Returns 0, or -1 with ERRP
 * naming PATH and the series. */
static int _series(JsonObject *o, guint i, const char *path,
		   mf_rjson_series_t **s, mf_error_t *errp)
{
	static const char *const keys[] = { "time", "fs_before", "fs_after" };
	mf_rjson_series_t *r = g_new0(mf_rjson_series_t, 1);
	double *v[3] = { NULL, NULL, NULL };
	guint n[3] = { 0, 0, 0 };
	int rc = -1;

	*s = r;
	r->acct = g_strdup(_string(o, "account"));
	r->user = g_strdup(_string(o, "user"));
	if (!r->acct || !r->user) {
		mf_errprintf(errp, "%s: series %u: no account and user "
			     "strings: not the output of mfprio replay --json",
			     path, i + 1);
		goto out;
	}
	for (int k = 0; k < 3; k++) {
		JsonNode *a = _member(o, keys[k], JSON_NODE_ARRAY);

		if (!a || _numbers(json_node_get_array(a), k > 0, &v[k],
				   &n[k])) {
			mf_errprintf(errp, "%s: series %u (%s/%s): \"%s\" is "
				     "not an array of numbers", path, i + 1,
				     r->acct, r->user, keys[k]);
			goto out;
		}
	}
	if (n[0] != n[1] || n[0] != n[2]) {
		mf_errprintf(errp, "%s: series %u (%s/%s): %u times but %u "
			     "and %u factors", path, i + 1, r->acct, r->user,
			     n[0], n[1], n[2]);
		goto out;
	}
	r->n = n[0];
	r->time = g_new(int64_t, r->n ? r->n : 1);
	for (guint k = 0; k < r->n; k++)
		r->time[k] = (int64_t) v[0][k];
	r->before = g_steal_pointer(&v[1]);
	r->after = g_steal_pointer(&v[2]);
	rc = 0;
out:
	for (int k = 0; k < 3; k++)
		g_free(v[k]);
	return rc;
}

int mf_rjson_load(mf_rjson_t *r, const char *path, mf_error_t *errp)
{
	JsonParser *p = json_parser_new();
	GError *ge = NULL;
	JsonNode *root, *series, *from, *to;
	JsonObject *o;
	JsonArray *a;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->series = g_ptr_array_new_with_free_func(_series_free);
	if (!json_parser_load_from_mapped_file(p, path, &ge)) {
		/* json-glib's message names the file and line of a parse
		 * error; one of reading does not always */
		mf_errprintf(errp, "%s%s%s (not the JSON of mfprio replay "
			     "--json)", g_str_has_prefix(ge->message, path) ?
			     "" : path, g_str_has_prefix(ge->message, path) ?
			     "" : ": ", ge->message);
		g_error_free(ge);
		goto out;
	}
	root = json_parser_get_root(p);
	o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) :
	    NULL;
	series = _member(o, "series", JSON_NODE_ARRAY);
	from = _member(o, "from", JSON_NODE_VALUE);
	to = _member(o, "to", JSON_NODE_VALUE);
	if (!series || !from || !to || !_is_number(from) || !_is_number(to) ||
	    !_member(o, "before", JSON_NODE_OBJECT) ||
	    !_member(o, "after", JSON_NODE_OBJECT)) {
		mf_errprintf(errp, "%s: not the output of mfprio replay --json "
			     "(an object with from, to, before, after and "
			     "series)", path);
		goto out;
	}
	r->from = json_node_get_int(from);
	r->to = json_node_get_int(to);
	r->history = g_strdup(_string(o, "history"));
	r->algo_before = g_strdup(_string(json_object_get_object_member(
		o, "before"), "fairshare"));
	r->algo_after = g_strdup(_string(json_object_get_object_member(
		o, "after"), "fairshare"));
	a = json_node_get_array(series);
	for (guint i = 0; i < json_array_get_length(a); i++) {
		JsonNode *e = json_array_get_element(a, i);
		mf_rjson_series_t *s;
		int bad = _series(JSON_NODE_HOLDS_OBJECT(e) ?
				  json_node_get_object(e) : NULL, i, path, &s,
				  errp);

		g_ptr_array_add(r->series, s);
		if (bad)
			goto out;
	}
	rc = 0;
out:
	g_object_unref(p);
	return rc;
}

void mf_rjson_clear(mf_rjson_t *r)
{
	if (r->series)
		g_ptr_array_free(r->series, TRUE);
	g_free(r->history);
	g_free(r->algo_before);
	g_free(r->algo_after);
	memset(r, 0, sizeof(*r));
}
