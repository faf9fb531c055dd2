/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_release: the Slurm release a command imitates, from --release,
 * the snapshot's slurm.conf or its slurm-version file.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "exit_status.h"
#include "slurm_release.h"

int mf_release_pick_option(mf_release_pick_t *rel, const char *arg)
{
	mf_error_t e;

	if (mf_release_parse(arg, &rel->release, &e)) {
		mf_print_error("--release: %s", e.text);
		return -1;
	}
	g_free(rel->source);
	rel->source = g_strdup("from --release");
	return 0;
}

/* Take TEXT as the release if it is a known one, SOURCE saying where it
 * is; else warn, WHERE leading the message. */
static bool _release_from(mf_release_pick_t *rel, const char *text,
			  const char *where, const char *source)
{
	mf_error_t e;

	if (mf_release_parse(text, &rel->release, &e)) {
		fprintf(stderr, "mfprio: warning: %s: %s: ignored (--release "
			"sets the release)\n", where, e.text);
		return false;
	}
	rel->source = g_strdup(source);
	return true;
}

/*
 * The version in the text of a version file: the value of a SLURM_VERSION
 * line (`scontrol show config`), else the last word of the first line
 * (`scontrol --version`: "slurm 23.11.11").  A new string, its line in
 * *LINE; NULL if the file holds no line.
 */
static char *_version_in(const char *text, int *line)
{
	char **lines = g_strsplit(text, "\n", -1);
	char *first = NULL, *found = NULL;
	int first_line = 0;

	for (int i = 0; lines[i] && !found; i++) {
		char *l = g_strstrip(lines[i]);
		size_t klen = strlen("SLURM_VERSION");

		if (!*l || *l == '#')
			continue;
		if (!g_ascii_strncasecmp(l, "SLURM_VERSION", klen) &&
		    (l[klen] == '=' || l[klen] == ' ' || l[klen] == '\t')) {
			char *eq = strchr(l, '=');

			if (eq) {
				found = g_strdup(g_strstrip(eq + 1));
				*line = i + 1;
			}
		} else if (!first) {
			char *sp = strrchr(l, ' '), *tab = strrchr(l, '\t');

			if (tab > sp)
				sp = tab;
			first = g_strdup(sp ? sp + 1 : l);
			first_line = i + 1;
		}
	}
	g_strfreev(lines);
	if (found) {
		g_free(first);
		return found;
	}
	*line = first_line;
	return first;
}

void mf_release_pick_detect(mf_release_pick_t *rel, const mf_conf_t *conf,
			   const char *path)
{
	const mf_conf_pair_t *p;

	if (rel->source)
		return;
	if (conf && (p = mf_conf_get(conf, "SLURM_VERSION"))) {
		char *where = g_strdup_printf("%s:%d: %s=%s", p->file,
					      p->line, p->key, p->value);
		char *source = g_strdup_printf("from %s=%s at %s:%d", p->key,
					       p->value, p->file, p->line);
		bool ok = _release_from(rel, p->value, where, source);

		g_free(where);
		g_free(source);
		if (ok)
			return;
	}
	if (path) {
		char *dir = g_path_get_dirname(path);
		char *vpath = g_build_filename(dir, MF_RELEASE_VERSION_FILE, NULL);
		char *text = NULL;
		GError *gerr = NULL;

		g_free(dir);
		if (g_file_get_contents(vpath, &text, NULL, &gerr)) {
			int line = 0;
			char *v = _version_in(text, &line);

			if (!v) {
				fprintf(stderr, "mfprio: warning: %s: no "
					"version in it: ignored\n", vpath);
			} else {
				char *where = g_strdup_printf("%s:%d", vpath,
							      line);
				char *source = g_strdup_printf("from %s",
							       where);

				(void)_release_from(rel, v, where, source);
				g_free(where);
				g_free(source);
				g_free(v);
			}
			g_free(text);
		} else if (!g_error_matches(gerr, G_FILE_ERROR,
					    G_FILE_ERROR_NOENT)) {
			fprintf(stderr, "mfprio: warning: %s: %s: ignored\n",
				vpath, gerr->message);
		}
		if (gerr)
			g_error_free(gerr);
		g_free(vpath);
		if (rel->source)
			return;
	}
	rel->release = MF_RELEASE_DEFAULT;
	rel->source = g_strdup("the default: the input does not say which "
			       "release");
}

void mf_release_pick_clear(mf_release_pick_t *rel)
{
	g_free(rel->source);
	rel->source = NULL;
}
