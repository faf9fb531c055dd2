/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio snapshot DIR: take, on any host with the Slurm client commands
 * (SLURM_CONF chooses the cluster as for them), every dump the other
 * subcommands read, into DIR; the files are listed in snapshot_dir.h and
 * mfprio(1).  The commands run from PATH, by argv (no shell).  The time
 * file is written last: a directory without it is no snapshot, so one
 * that failed half-way is not taken for one.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cmd.h"
#include "exit_status.h"
#include "input_opts.h"
#include "snapshot_dir.h"

#define MAX_INCLUDE_DEPTH 8

static const char _usage[] =
"Usage: mfprio snapshot DIR\n"
"\n"
"Dump what `mfprio fairshare` and `mfprio priority` read from the cluster\n"
"that SLURM_CONF (or the default slurm.conf) names, into DIR (created; it\n"
"must be empty if it exists): slurm.conf and the files it Includes, the\n"
"output of scontrol, sacctmgr and sshare, the Slurm version and the time.\n"
"Then: mfprio fairshare --snapshot DIR, mfprio priority --snapshot DIR.\n"
"\n"
"  -h, --help     this text\n"
"\n"
"Files written (see mfprio(1)):\n"
"  config       scontrol show config\n"
"  jobs         scontrol -o show job\n"
"  assoc-mgr    scontrol show assoc_mgr flags=assoc,qos\n"
"  usage        sshare -a -P -n -o Account,User,Partition,RawUsage\n"
"  assoc        sacctmgr -P -n show assoc where cluster=C\n"
"               format=Cluster,Account,User,Partition,ParentName,Fairshare\n"
"  assoc-prio   sacctmgr -P -n show assoc where cluster=C format=Account,User,Priority\n"
"  qos          sacctmgr -P -n show qos format=Name,Priority\n"
"  slurm-version  scontrol --version\n"
"  slurm.conf, include-N-NAME  the configuration, Include lines pointing\n"
"               at the copies\n"
"  time         seconds since the epoch, taken before the first dump\n";

/* Run ARGV (from PATH); its output in *OUT.  Returns 0, or -1 after
 * printing the command, how it ended and its stderr. */
static int _run(const char *const *argv, char **out)
{
	char *cmd = g_strjoinv(" ", (char **)argv);
	char *err = NULL;
	GError *gerr = NULL;
	int status = 0, rc = -1;

	*out = NULL;
	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH,
			  NULL, NULL, out, &err, &status, &gerr)) {
		mf_print_error("snapshot: cannot run `%s`: %s", cmd,
			     gerr->message);
		g_error_free(gerr);
		goto out;
	}
	g_strstrip(err);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		if (*err)
			fprintf(stderr, "mfprio: warning: snapshot: `%s`: "
				"%s\n", cmd, err);
		rc = 0;
	} else if (WIFEXITED(status)) {
		mf_print_error("snapshot: `%s` exited with status %d%s%s", cmd,
			     WEXITSTATUS(status), *err ? ": " : " (no error "
			     "message)", err);
	} else if (WIFSIGNALED(status)) {
		mf_print_error("snapshot: `%s` was killed by signal %d%s%s",
			     cmd, WTERMSIG(status), *err ? ": " : "", err);
	} else {
		mf_print_error("snapshot: `%s` ended with wait status %d", cmd,
			     status);
	}
out:
	if (rc) {
		g_free(*out);
		*out = NULL;
	}
	g_free(err);
	g_free(cmd);
	return rc;
}

static int _write(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);
	GError *gerr = NULL;
	int rc = 0;

	if (!g_file_set_contents(path, text, -1, &gerr)) {
		mf_print_error("snapshot: %s", gerr->message);
		g_error_free(gerr);
		rc = -1;
	}
	g_free(path);
	return rc;
}

/* Run ARGV and write its output to DIR/NAME.  Returns 0 or -1. */
static int _dump(const char *dir, const char *name, const char *const *argv)
{
	char *out;
	int rc;

	if (_run(argv, &out))
		return -1;
	rc = _write(dir, name, out);
	g_free(out);
	return rc;
}

/* The value of KEY in `scontrol show config` TEXT ("KEY = VALUE" lines),
 * a new string, or NULL. */
static char *_config_value(const char *text, const char *key)
{
	char **lines = g_strsplit(text, "\n", -1);
	char *value = NULL;
	size_t klen = strlen(key);

	for (int i = 0; lines[i] && !value; i++) {
		char *l = g_strstrip(lines[i]);

		if (!strncmp(l, key, klen) &&
		    (l[klen] == ' ' || l[klen] == '=')) {
			char *eq = strchr(l + klen, '=');

			if (eq)
				value = g_strdup(g_strstrip(eq + 1));
		}
	}
	g_strfreev(lines);
	return value;
}

/* The argument of an `Include FILE` line, a new string, or NULL if LINE is
 * no such line (as slurm_conf.c reads it: comments dropped, the keyword
 * in any case). */
static char *_include_arg(const char *line)
{
	char *l = g_strdup(line), *hash = strchr(l, '#'), *arg = NULL;
	char *s;

	if (hash)
		*hash = '\0';
	s = g_strstrip(l);
	if (!g_ascii_strncasecmp(s, "include", 7) &&
	    (s[7] == ' ' || s[7] == '\t') && *g_strstrip(s + 8))
		arg = g_strdup(s + 8);
	g_free(l);
	return arg;
}

/*
 * Copy the configuration file SRC to DIR/NAME, each Include line pointing
 * instead at a copy DIR/include-N-BASE (N counting every included file,
 * *COUNT the last used), which is made the same way.  A relative Include
 * is read from the including file's directory, as mfprio reads one.  Line
 * numbers are kept; the original path follows as a comment.
 */
static int _copy_conf(const char *src, const char *dir, const char *name,
		      int *count, int depth)
{
	char *text = NULL, *copy;
	char **lines;
	GError *gerr = NULL;
	int rc = 0;

	if (!g_file_get_contents(src, &text, NULL, &gerr)) {
		mf_print_error("snapshot: %s", gerr->message);
		g_error_free(gerr);
		return -1;
	}
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	for (int i = 0; lines[i] && !rc; i++) {
		char *arg = _include_arg(lines[i]);
		char *path, *base, *to;

		if (!arg)
			continue;
		if (depth >= MAX_INCLUDE_DEPTH) {
			mf_print_error("snapshot: %s:%d: Include nested more "
				     "than %d deep", src, i + 1,
				     MAX_INCLUDE_DEPTH);
			g_free(arg);
			rc = -1;
			break;
		}
		if (g_path_is_absolute(arg)) {
			path = g_strdup(arg);
		} else {
			char *d = g_path_get_dirname(src);

			path = g_build_filename(d, arg, NULL);
			g_free(d);
		}
		base = g_path_get_basename(path);
		to = g_strdup_printf("%s%d-%s", MF_SNAP_INCLUDE, ++*count,
				     base);
		g_free(lines[i]);
		lines[i] = g_strdup_printf("Include %s # was Include %s", to,
					   arg);
		rc = _copy_conf(path, dir, to, count, depth + 1);
		g_free(to);
		g_free(base);
		g_free(path);
		g_free(arg);
	}
	copy = g_strjoinv("\n", lines);
	g_strfreev(lines);
	if (!rc)
		rc = _write(dir, name, copy);
	g_free(copy);
	return rc;
}

/* DIR exists empty, or is made.  Returns 0 or -1 (printed). */
static int _make_dir(const char *dir)
{
	GDir *d;
	GError *gerr = NULL;
	const char *first;

	if (g_mkdir_with_parents(dir, 0755)) {
		mf_print_error("snapshot: cannot make directory %s: %s", dir,
			     g_strerror(errno));
		return -1;
	}
	if (!(d = g_dir_open(dir, 0, &gerr))) {
		mf_print_error("snapshot: %s", gerr->message);
		g_error_free(gerr);
		return -1;
	}
	first = g_dir_read_name(d);
	if (first)
		mf_print_error("snapshot: %s is not empty (it holds %s): give a "
			     "new or empty directory", dir, first);
	g_dir_close(d);
	return first ? -1 : 0;
}

int cmd_snapshot_take(const char *dir)
{
	const char *const config_argv[] = { "scontrol", "show", "config",
					    NULL };
	const char *const version_argv[] = { "scontrol", "--version", NULL };
	const char *const jobs_argv[] = { "scontrol", "-o", "show", "job",
					  NULL };
	const char *const amgr_argv[] = { "scontrol", "show", "assoc_mgr",
					  "flags=assoc,qos", NULL };
	const char *const usage_argv[] = { "sshare", "-a", "-P", "-n", "-o",
					   "Account,User,Partition,RawUsage",
					   NULL };
	const char *const qos_argv[] = { "sacctmgr", "-P", "-n", "show", "qos",
					 "format=Name,Priority", NULL };
	char *config = NULL, *conf = NULL, *cluster = NULL, *where = NULL;
	char *taken = NULL;
	int count = 0, rc = -1;

	taken = g_strdup_printf("%lld\n", (long long)time(NULL));
	if (_make_dir(dir) || _run(config_argv, &config) ||
	    _write(dir, MF_SNAP_CONFIG, config))
		goto out;
	conf = _config_value(config, "SLURM_CONF");
	cluster = _config_value(config, "ClusterName");
	if (!conf || !*conf || !cluster || !*cluster) {
		mf_print_error("snapshot: `scontrol show config` names no %s",
			     !conf || !*conf ? "SLURM_CONF" : "ClusterName");
		goto out;
	}
	where = g_strdup_printf("cluster=%s", cluster);
	{
		const char *const assoc_argv[] = {
			"sacctmgr", "-P", "-n", "show", "assoc", "where", where,
			"format=Cluster,Account,User,Partition,ParentName,"
			"Fairshare", NULL };
		const char *const prio_argv[] = {
			"sacctmgr", "-P", "-n", "show", "assoc", "where", where,
			"format=Account,User,Priority", NULL };

		/* the ones that change with time first, close together */
		if (_dump(dir, MF_SNAP_JOBS, jobs_argv) ||
		    _dump(dir, MF_SNAP_ASSOC_MGR, amgr_argv) ||
		    _dump(dir, MF_SNAP_USAGE, usage_argv) ||
		    _dump(dir, MF_SNAP_ASSOC, assoc_argv) ||
		    _dump(dir, MF_SNAP_ASSOC_PRIO, prio_argv) ||
		    _dump(dir, MF_SNAP_QOS, qos_argv) ||
		    _dump(dir, MF_SNAP_VERSION, version_argv))
			goto out;
	}
	if (_copy_conf(conf, dir, MF_SNAP_CONF, &count, 0) ||
	    _write(dir, MF_SNAP_TIME, taken))
		goto out;
	rc = 0;
out:
	g_free(taken);
	g_free(where);
	g_free(cluster);
	g_free(conf);
	g_free(config);
	return rc;
}

/* The command: its whole --help, no input option, no own one. */
static const mf_iopt_cmd_t _cmd = {
	.name = "snapshot",
	.head = _usage,
};

int cmd_snapshot(int argc, char **argv)
{
	mf_iopts_t io;
	int rc = mf_iopt_parse(&io, argc, argv, &_cmd, NULL);

	mf_iopt_clear(&io);
	if (rc)
		return rc == MF_IOPT_HELP ? MF_EXIT_OK : rc;
	if (optind != argc - 1) {
		mf_print_error("snapshot: %s", optind < argc ?
			     "one directory, no more" : "DIR is required");
		fputs(_usage, stderr);
		return MF_EXIT_USAGE;
	}
	return cmd_snapshot_take(argv[optind]) ? MF_EXIT_INPUT : MF_EXIT_OK;
}
