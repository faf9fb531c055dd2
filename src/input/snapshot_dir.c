/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "snapshot_dir.h"

static char *_file_in(const char *dir, const char *name);
static int _read_time(const char *path, time_t *out, mf_error_t *errp);

/* DIR/NAME if it is a regular file, else NULL. */
static char *_file_in(const char *dir, const char *name)
{
	char *path = g_build_filename(dir, name, NULL);

	if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
		return path;
	g_free(path);
	return NULL;
}

/* The time file: one whole number of seconds since the epoch (blank lines
 * and '#' comments around it allowed). */
static int _read_time(const char *path, time_t *out, mf_error_t *errp)
{
	char *text = NULL;
	char **lines;
	GError *gerr = NULL;
	int rc = -1, found = 0;

	if (!g_file_get_contents(path, &text, NULL, &gerr)) {
		mf_errprintf(errp, "%s: %s", path, gerr->message);
		g_error_free(gerr);
		return -1;
	}
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	for (int i = 0; lines[i]; i++) {
		char *l = g_strstrip(lines[i]), *end;
		long long v;

		if (!*l || *l == '#')
			continue;
		errno = 0;
		v = g_ascii_isdigit(*l) ? strtoll(l, &end, 10) : -1;
		if (v < 0 || errno || *end) {
			mf_errprintf(errp, "%s:%d: '%s' is not a number of "
				     "seconds since the epoch", path, i + 1,
				     l);
			goto out;
		}
		if (found) {
			mf_errprintf(errp, "%s:%d: a second time (the first "
				     "is on line %d)", path, i + 1, found);
			goto out;
		}
		found = i + 1;
		*out = (time_t)v;
	}
	if (!found)
		mf_errprintf(errp, "%s: no time in it", path);
	else
		rc = 0;
out:
	g_strfreev(lines);
	return rc;
}

int mf_snapdir_open(const char *dir, mf_snapdir_t *snap, mf_error_t *errp)
{
	char *time_path;

	memset(snap, 0, sizeof(*snap));
	if (!g_file_test(dir, G_FILE_TEST_IS_DIR))
		return mf_errprintf(errp, "%s: not a directory (a snapshot is "
				    "a directory `mfprio snapshot` wrote)",
				    dir);
	if (!(time_path = _file_in(dir, MF_SNAP_TIME)))
		return mf_errprintf(errp, "%s: no file '%s' in it: not a "
				    "snapshot directory", dir, MF_SNAP_TIME);
	if (_read_time(time_path, &snap->taken, errp)) {
		g_free(time_path);
		return -1;
	}
	g_free(time_path);
	snap->dir = g_strdup(dir);
	snap->conf = _file_in(dir, MF_SNAP_CONF);
	snap->jobs = _file_in(dir, MF_SNAP_JOBS);
	snap->qos = _file_in(dir, MF_SNAP_QOS);
	snap->assoc = _file_in(dir, MF_SNAP_ASSOC);
	snap->assoc_prio = _file_in(dir, MF_SNAP_ASSOC_PRIO);
	snap->usage = _file_in(dir, MF_SNAP_USAGE);
	snap->assoc_mgr = _file_in(dir, MF_SNAP_ASSOC_MGR);
	return 0;
}

void mf_snapdir_clear(mf_snapdir_t *snap)
{
	g_free(snap->dir);
	g_free(snap->conf);
	g_free(snap->jobs);
	g_free(snap->qos);
	g_free(snap->assoc);
	g_free(snap->assoc_prio);
	g_free(snap->usage);
	g_free(snap->assoc_mgr);
	memset(snap, 0, sizeof(*snap));
}
