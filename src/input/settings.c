/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * settings: the settings every command runs with (settings.h).
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "settings.h"

/* Whether CONF holds nothing at all: no setting, no record, and nothing
 * said about it (no warning, no Include left unread). */
static bool _conf_empty(const mf_conf_t *conf)
{
	return !conf->globals->len && !conf->records->len &&
	       !conf->warnings->len && !conf->missing->len;
}

int mf_settings_read(mf_settings_t *s, const mf_settings_in_t *in,
		     mf_error_t *errp)
{
	const mf_conf_pair_t *cn;

	s->conf = in->conf ? mf_conf_load(in->conf, errp) :
		  mf_conf_parse("", "--set", errp);
	if (!s->conf)
		return -1;
	s->conf_empty = in->conf && _conf_empty(s->conf);
	cn = mf_conf_get(s->conf, "ClusterName");
	s->cluster = g_strdup(in->cluster ? in->cluster : cn ? cn->value :
			      NULL);
	for (guint i = 0; in->sets && i < in->sets->len; i++) {
		const mf_conf_pair_t *p = in->sets->pdata[i];

		mf_conf_set(s->conf, p->key, p->value, p->file, p->line);
	}
	if (!(s->pc = mf_prio_conf_read(s->conf, errp)))
		return -1;
	if (in->release && in->release->source) {
		s->rel.release = in->release->release;
		s->rel.source = g_strdup(in->release->source);
	} else {
		mf_release_pick_detect(&s->rel, in->conf ? s->conf : NULL,
				      in->conf ? in->conf : in->near);
	}
	return 0;
}

/* Whether KEY is one of the fair-share settings. */
static bool _fs_key(const char *key)
{
	return !g_ascii_strcasecmp(key, "PriorityFlags") ||
	       !g_ascii_strcasecmp(key, "FairShareDampeningFactor");
}

void mf_settings_warn(const mf_settings_t *s, mf_settings_warn_t which)
{
	const GPtrArray *w = s->pc->warnings;

	for (guint i = 0; i < w->len; i++) {
		const char *text = w->pdata[i];
		const char *key = s->pc->warned->pdata[i];

		if ((which == MF_SETTINGS_WARN_SETS &&
		     !g_str_has_prefix(text, "--set")) ||
		    (which == MF_SETTINGS_WARN_FS && *key && !_fs_key(key)) ||
		    (which == MF_SETTINGS_WARN_FS && !*key &&
		     i >= s->conf->warnings->len))
			continue;
		fprintf(stderr, "mfprio: warning: %s\n", text);
	}
}

void mf_settings_clear(mf_settings_t *s)
{
	mf_conf_free(s->conf);
	mf_prio_conf_free(s->pc);
	mf_release_pick_clear(&s->rel);
	g_free(s->cluster);
	memset(s, 0, sizeof(*s));
}
