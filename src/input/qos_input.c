/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qos_input: sacctmgr's dumps of QOS and association priorities
 * (qos_input.h).
 */
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "job_values.h"
#include "line_reader.h"
#include "qos_input.h"

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
	else if (*f[1] && mf_jv_uint(f[1], 0xffffffffU, &prio))
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

	if (mf_lines_each(path, &mf_dump_qos, _qos_fn, qos, errp)) {
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
	else if (*f[2] && mf_jv_uint(f[2], 0xffffffffU, &prio))
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

	if (mf_lines_each(path, &mf_dump_assoc_prio, _assoc_prio_fn, t,
		       errp)) {
		g_hash_table_unref(t);
		return NULL;
	}
	return t;
}
