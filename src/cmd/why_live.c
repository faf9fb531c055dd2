/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * why_live: `mfprio why JOBID`'s dumps from the live cluster
 * (why_live.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <glib.h>

#include "exit_status.h"
#include "snapshot_dir.h"
#include "wait_dump.h"
#include "why_live.h"

/* TEXT into DIR/NAME.  Returns 0, or -1 after saying why not. */
static int _write(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);
	GError *gerr = NULL;
	int rc = 0;

	if (!g_file_set_contents(path, text, -1, &gerr)) {
		mf_print_error("why: cannot write %s: %s", path, gerr->message);
		g_error_free(gerr);
		rc = -1;
	}
	g_free(path);
	return rc;
}

/* Run ARGV into DIR/NAME.  EMPTY_OK: a failure that printed nothing on
 * stdout (sprio when nothing is pending) gives an empty file.  Returns
 * 0, or -1 after saying what failed. */
static int _dump(const char *dir, const char *name, const char *const *argv,
		 bool empty_ok)
{
	char *out = NULL, *err = NULL;
	char *cmd = g_strjoinv(" ", (char **) argv);
	GError *gerr = NULL;
	int status = 0, rc = 0;
	bool ran = g_spawn_sync(NULL, (char **) argv, NULL,
				G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
				&status, &gerr);

	if (!ran) {
		mf_print_error("why: cannot run `%s`: %s", cmd, gerr->message);
		g_error_free(gerr);
		rc = -1;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		g_strstrip(err);
		if (empty_ok && !*out)
			;
		else if (strstr(err, "Invalid job id") ||
			 strstr(err, "denied"))
			mf_print_error("why: job %s: no such job (or not yours "
				     "where PrivateData=jobs hides it): `%s` "
				     "says: %s", argv[4], cmd, err);
		else
			mf_print_error("why: `%s` failed%s%s", cmd,
				     *err ? ": " : "", err);
		rc = empty_ok && !*out ? 0 : -1;
	}
	if (!rc)
		rc = _write(dir, name, out);
	g_free(out);
	g_free(err);
	g_free(cmd);
	return rc;
}

/* Run ARGV into DIR/NAME if it succeeds; a failure (sacctmgr without
 * slurmdbd, or refused) leaves no file: not known.  Returns 0, or -1
 * if the file cannot be written. */
static int _maybe(const char *dir, const char *name, const char *const *argv)
{
	char *out = NULL;
	int status = 0, rc = 0;

	if (g_spawn_sync(NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH |
			 G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
			 &status, NULL) && WIFEXITED(status) &&
	    !WEXITSTATUS(status))
		rc = _write(dir, name, out);
	g_free(out);
	return rc;
}

int mf_why_live_dump(const char *dir, const char *job_id)
{
	const char *const job[] = { "scontrol", "-o", "show", "job", job_id,
				    NULL };
	static const char *const config[] = { "scontrol", "show", "config",
					      NULL };
	static const char *const sprio[] = { "sprio", "-h", "-o",
					     MF_WAIT_SPRIO_FORMAT, NULL };
	static const char *const sshare[] = { "sshare", "-P", "-n", "-o",
					      MF_WAIT_SSHARE_FIELDS, NULL };
	char *who = g_strdup_printf("user=%s", g_get_user_name());
	const char *const assoc[] = { "sacctmgr", "-n", "-P", "show", "assoc",
				      who, "format=" MF_WAIT_ASSOC_FIELDS,
				      NULL };
	static const char *const qos[] = { "sacctmgr", "-n", "-P", "show",
					   "qos", "format=Name,Priority",
					   NULL };
	const char *const running[] = { "squeue", "-h", "-t", "RUNNING",
					"-u", g_get_user_name(), "-o",
					MF_WAIT_RUNNING_FORMAT, NULL };
	static const char *const parts[] = { "scontrol", "-o", "show",
					     "partition", NULL };
	static const char *const groups[] = { "id", "-Gn", NULL };
	char *now = g_strdup_printf("%lld\n", (long long) time(NULL));
	int rc = _dump(dir, MF_SNAP_JOBS, job, false) ||
		 _dump(dir, MF_SNAP_CONFIG, config, false) ||
		 _dump(dir, MF_SNAP_SPRIO, sprio, true) ||
		 _dump(dir, MF_SNAP_SSHARE, sshare, false) ||
		 _maybe(dir, MF_SNAP_WHY_ASSOC, assoc) ||
		 _maybe(dir, MF_SNAP_WHY_QOS, qos) ||
		 _maybe(dir, MF_SNAP_WHY_RUNNING, running) ||
		 _maybe(dir, MF_SNAP_WHY_PARTS, parts) ||
		 _maybe(dir, MF_SNAP_WHY_GROUPS, groups) ||
		 _write(dir, MF_SNAP_TIME, now);

	g_free(now);
	g_free(who);
	return rc ? MF_EXIT_INPUT : MF_EXIT_OK;
}
