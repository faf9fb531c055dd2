/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "live_text.h"
#include "fairshare.h"
#include "metrics.h"
#include "priority_conf.h"
#include "priority_flags.h"
#include "timestr.h"

const char *mf_live_algorithm(const char *text)
{
	mf_prio_conf_t *pc = mf_prio_conf_defaults();
	char **lines = g_strsplit(text, "\n", -1);
	const char *algo;

	/* "PriorityFlags = A,B" through the one reader of the Priority*
	 * settings (priority_conf.h), its defaults kept for a bad value */
	for (int n = 0; lines[n]; n++) {
		char *eq = strstr(lines[n], " = ");
		mf_conf_pair_t p;

		if (!eq || !g_str_has_prefix(lines[n], "PriorityFlags"))
			continue;
		*eq = '\0';
		p = (mf_conf_pair_t) { .key = g_strstrip(lines[n]),
				       .value = g_strstrip(eq + 3),
				       .file = (char *) "scontrol show config",
				       .line = n + 1 };
		if (!strcmp(p.key, "PriorityFlags") &&
		    strcmp(p.value, "(null)"))
			(void) mf_prio_conf_take(pc, &p);
	}
	g_strfreev(lines);
	algo = mf_fs_algo_name(mf_priority_flags_algo(pc->flags));
	mf_prio_conf_free(pc);
	return algo;
}

/* S kept in NAMES, or NULL when empty. */
static const char *_keep(GStringChunk *names, const char *s)
{
	return (s && *s) ? g_string_chunk_insert_const(names, s) : NULL;
}

/* A number field of sshare: "" unset (NAN), "inf", or a number. */
static double _sshare_num(const char *s)
{
	char *end;
	double v;

	if (!*s)
		return NAN;
	v = g_ascii_strtod(s, &end);
	return *end ? NAN : v;
}

/* FLD, a row of 10 fields, into M; STACK holds the account at each depth
 * of the rows read. */
static void _sshare_row(char **fld, GStringChunk *names, GPtrArray *stack,
			mf_metrics_assoc_t *m)
{
	const char *acct;
	int depth = 0;

	for (acct = fld[1]; *acct == ' '; acct++)
		depth++;
	m->account = *acct ? _keep(names, acct) : "";
	m->user = _keep(names, fld[2]);
	m->partition = _keep(names, fld[3]);
	m->depth = depth;
	if (m->user) {
		m->parent = m->account;
	} else {
		g_ptr_array_set_size(stack, depth + 1);
		stack->pdata[depth] = (gpointer) m->account;
		m->parent = depth > 0 ? stack->pdata[depth - 1] : NULL;
	}
	m->shares_raw = (!*fld[4] || !strcmp(fld[4], "parent") || !depth) ?
		MF_METRICS_NO_SHARES : (uint32_t) strtoul(fld[4], NULL, 10);
	m->shares_norm = _sshare_num(fld[5]);
	m->usage_raw = _sshare_num(fld[6]);
	m->usage_efctv = _sshare_num(fld[7]);
	m->fs_factor = _sshare_num(fld[8]);
	m->level_fs = _sshare_num(fld[9]);
}

int mf_live_sshare(const char *text, GStringChunk *names, GArray *assocs,
		   char **cluster, mf_error_t *err)
{
	GPtrArray *stack = g_ptr_array_new();   /* account at each depth */
	char **lines = g_strsplit(text, "\n", -1);
	int rc = 0;

	for (int n = 0; lines[n] && !rc; n++) {
		char **fld;
		mf_metrics_assoc_t m = { 0 };

		if (!*lines[n])
			continue;
		fld = g_strsplit(lines[n], "|", -1);
		if (g_strv_length(fld) < 10) {
			rc = mf_errprintf(err, "sshare line %d: %u fields, not "
					  "10: %s", n + 1, g_strv_length(fld),
					  lines[n]);
		} else {
			if (!*cluster && *fld[0])
				*cluster = g_strdup(fld[0]);
			_sshare_row(fld, names, stack, &m);
			g_array_append_val(assocs, m);
		}
		g_strfreev(fld);
	}
	g_strfreev(lines);
	g_ptr_array_free(stack, TRUE);
	return rc;
}

/* Hand each line of TEXT with at least N '|'-separated fields, stripped,
 * to ROW. */
static void _rows(const char *text, guint n,
		  void (*row)(char **fld, void *arg), void *arg)
{
	char **lines = g_strsplit(text, "\n", -1);

	for (int l = 0; lines[l]; l++) {
		char **fld = g_strsplit(lines[l], "|", -1);

		if (g_strv_length(fld) >= n) {
			for (guint i = 0; i < n; i++)
				g_strstrip(fld[i]);
			row(fld, arg);
		}
		g_strfreev(fld);
	}
	g_strfreev(lines);
}

/* The pending jobs being read: squeue's accounts and submit times by job
 * id, then sprio's rows. */
typedef struct {
	GHashTable *acct;            /* job id -> account */
	GHashTable *submit;          /* job id -> submit time */
	time_t now;
	mf_live_pending_fn fn;
	void *arg;
} pending_t;

static void _squeue_row(char **fld, void *arg)
{
	pending_t *p = arg;
	time_t t = 0;

	if (mf_time_point(fld[2], p->now, &t, NULL) < 0)
		t = 0;
	g_hash_table_replace(p->acct, g_strdup(fld[0]), g_strdup(fld[1]));
	g_hash_table_replace(p->submit, g_strdup(fld[0]),
			     GSIZE_TO_POINTER((gsize) t));
}

static void _sprio_row(char **fld, void *arg)
{
	pending_t *p = arg;

	p->fn(g_hash_table_lookup(p->acct, fld[0]), fld[2], fld[1],
	      g_ascii_strtod(fld[3], NULL),
	      (uint32_t) strtoul(fld[0], NULL, 10),
	      (time_t) GPOINTER_TO_SIZE(g_hash_table_lookup(p->submit,
							    fld[0])),
	      p->arg);
}

void mf_live_pending(const char *squeue, const char *sprio, time_t now,
		     mf_live_pending_fn fn, void *arg)
{
	pending_t p = {
		.now = now, .fn = fn, .arg = arg,
		.acct = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      g_free),
		.submit = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, NULL),
	};

	_rows(squeue, 3, _squeue_row, &p);
	_rows(sprio, 4, _sprio_row, &p);
	g_hash_table_destroy(p.acct);
	g_hash_table_destroy(p.submit);
}
