/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio report --html FILE: the page of report_html.h from the inputs
 * every command takes, or from the cluster itself (--live: a snapshot
 * taken into a temporary directory, read, then removed).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "check_findings.h"
#include "check_out.h"
#include "cmd.h"
#include "exit_status.h"
#include "fairshare_json.h"
#include "fs_history.h"
#include "history_json.h"
#include "input_opts.h"
#include "priority_json.h"
#include "priority_run.h"
#include "queue_top.h"
#include "queue_wait.h"
#include "release.h"
#include "replay_json.h"
#include "report_html.h"

static const char _usage_head[] =
"Usage: mfprio report --html FILE --snapshot DIR [--top N]\n"
"                     [--history HDIR|FILE] [any input option]\n"
"       mfprio report --html FILE --live [--top N] [--history HDIR|FILE]\n"
"       mfprio report --html FILE --user NAME (--snapshot DIR | --live)\n"
"\n"
"Write one self-contained HTML page (no network: inline CSS and\n"
"JavaScript) with the association tree to zoom and search, the pending\n"
"jobs by partition with their weighted factors, the settings and the\n"
"findings of `mfprio check`.  Its figures are those of `mfprio fairshare\n"
"--json`, `mfprio priority --json` and `mfprio check --json` on the same\n"
"inputs.  With --live, `mfprio snapshot` is taken into a temporary\n"
"directory first.\n"
"\n"
"With --history HDIR, a History section too: each account's effective\n"
"usage against its normalized shares, and its LevelFS (Fair Tree) or\n"
"fair-share factor (classic), over the snapshots in HDIR's\n"
"subdirectories (each one `mfprio snapshot` wrote, e.g. from cron:\n"
"mfprio snapshot HDIR/$(date +%Y%m%dT%H%M)), in time order, each\n"
"computed as `mfprio fairshare --snapshot SUB` with the same --set,\n"
"--flags, --damp, --release and --cluster; the accounts of largest gap\n"
"on the page's own snapshot as small charts, the others listed.  A\n"
"subdirectory that cannot be read (no time file: being taken, or\n"
"failed; a bad dump; no usage dump) is skipped with a warning and named\n"
"on the page; none readable, or HDIR not a directory, is an error (exit\n"
"1).  Of more than 200 snapshots, 200 spread evenly are read.  Only\n"
"time, slurm.conf and its includes, assoc and usage or assoc-mgr are\n"
"read: the other dumps of a kept snapshot may be deleted.\n"
"\n"
"With --history FILE (a file `mfprio replay --json` wrote), each user's\n"
"fair-share factor over the replayed period instead, before and after\n"
"the replay's what-if, the users in the file's order (as replay --top N\n"
"or --show chose them).\n"
"\n"
"With --user NAME, a page for one user instead: each of NAME's pending\n"
"jobs with its rank in each of its partitions and what holds it, the\n"
"words of `mfprio why JOBID` for each, and NAME's accounts with their\n"
"shares, usage, LevelFS, gap and rank among their siblings.  It reads\n"
"the dumps `mfprio why JOBID --snapshot DIR` reads (DIR's jobs, config,\n"
"sprio, sshare, time, ...), or with --live takes them by the caller's\n"
"own commands: what PrivateData hides from the caller is absent, and\n"
"the page says so; a page taken by root or SlurmUser (or whose dumps\n"
"hold what PrivateData hides) says on its first line that it shows\n"
"every user's usage.\n"
"\n";

static const char _usage_own[] =
"  --html FILE        the page to write ('-': stdout); written to\n"
"                     FILE.tmp, then renamed over FILE\n"
"  --top N            the first N jobs of each partition's queue on the\n"
"                     page (default 200; 0: every job); the others are\n"
"                     counted per account\n"
"  --history HDIR     the History section from the snapshots in HDIR's\n"
"                     subdirectories, or from a file of mfprio replay\n"
"                     --json (see above)\n"
"  --user NAME        the page of user NAME (see above); an unknown\n"
"                     NAME is a usage error\n";

enum { OPT_HTML = 256, OPT_TOP, OPT_USER, OPT_HISTORY };

typedef struct {
	const char *html;
	const char *user;            /* --user NAME */
	const char *history;         /* --history HDIR */
	guint top;
	char *tmpdir;                /* --live's snapshot */
} _rep_opts_t;

/* report's own option CH with ARG into ARG0 (a _rep_opts_t).  Returns 0,
 * or -1 (reported). */
static int _rep_own(void *arg0, int ch, const char *arg)
{
	_rep_opts_t *r = arg0;
	char *end;
	long v;

	if (ch == OPT_HTML) {
		r->html = arg;
		return 0;
	}
	if (ch == OPT_USER) {
		r->user = arg;
		return 0;
	}
	if (ch == OPT_HISTORY) {
		r->history = arg;
		return 0;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v < 0 || v > 10000000) {
		mf_print_error("--top '%s': not a whole number from 0 to "
			     "10000000", arg);
		return -1;
	}
	r->top = (guint)v;
	return 0;
}

static const struct option _own_opts[] = {
	{ "html", required_argument, NULL, OPT_HTML },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "user", required_argument, NULL, OPT_USER },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ NULL, 0, NULL, 0 },
};

/* The command: its --help, its input options (input_opts.def), its own. */
static const mf_iopt_cmd_t _cmd = {
	.name = "report",
	.head = _usage_head,
	.mask = MF_IOPT_PRIORITY_INPUTS | MF_IOPT_BIT(LIVE),
	.own = _usage_own,
	.need = MF_IOPT_BIT(CONF) | MF_IOPT_BIT(JOBS),
	.longopts = _own_opts,
	.take = _rep_own,
};

/* The options of ARGV.  Returns 0, MF_IOPT_HELP, or MF_EXIT_USAGE
 * (reported). */
static int _parse(int argc, char **argv, mf_iopts_t *io, _rep_opts_t *r)
{
	int rc = mf_iopt_parse(io, argc, argv, &_cmd, r);

	if (rc)
		return rc;
	if (mf_iopt_no_operand(argc, argv, &_cmd))
		return MF_EXIT_USAGE;
	if (!r->html) {
		mf_print_error("report: --html FILE is required");
		return MF_EXIT_USAGE;
	}
	if ((io->given & MF_IOPT_BIT(LIVE)) && io->o.snapshot) {
		mf_print_error("report: --live or --snapshot DIR, not both");
		return MF_EXIT_USAGE;
	}
	if (r->user && (io->o.conf || io->o.jobs || io->o.qos ||
			io->o.assoc || io->o.usage ||
			(!io->o.snapshot && !(io->given & MF_IOPT_BIT(LIVE))))) {
		mf_print_error("report: --user takes --snapshot DIR (the dumps "
			     "of mfprio why) or --live, and no other input");
		return MF_EXIT_USAGE;
	}
	if (r->user && r->history) {
		mf_print_error("report: --history is for the cluster's page, not "
			     "--user's");
		return MF_EXIT_USAGE;
	}
	return 0;
}

/* A memory stream's text. */
typedef struct {
	char *text;
	size_t len;
	FILE *fp;
} _buf_t;

static FILE *_buf_open(_buf_t *b)
{
	return b->fp = open_memstream(&b->text, &b->len);
}

static void _buf_close(_buf_t *b)
{
	if (b->fp)
		fclose(b->fp);
	b->fp = NULL;
}

/* The page of C's figures and the history HIST (JSON text, or NULL:
 * none), to PATH.  Returns an exit status. */
static int _write(const mf_prun_ctx_t *c, const mf_iopts_t *io,
		  const _rep_opts_t *r, const char *hist)
{
	_buf_t fs = { 0 }, pr = { 0 }, ck = { 0 }, qu = { 0 }, wt = { 0 };
	GArray *waits = mf_qwait_build(c, io->o.now);
	mf_prun_ctx_t heads = *c;
	mf_qtop_t q;
	GArray *found;
	char rel[8];
	char *src, *tmp = NULL;
	FILE *out;
	int rc = MF_EXIT_OK;
	mf_fs_json_settings_t s = {
		.snapshot = io->o.snapshot, .assoc = io->o.assoc,
		.usage = io->o.usage, .conf = io->o.conf,
		.flags = c->cfg.flags, .fs = c->fs_cfg,
		.release = mf_release_name(c->cfg.release, rel),
		.release_source = c->rel.source,
	};

	mf_qtop_build(c, r->top, &q);
	/* the priority rows of the heads only: the same writer over the
	 * context with its rows narrowed (borrowed, job id order) */
	heads.rows = q.shown;
	if (!_buf_open(&fs) || !_buf_open(&pr) || !_buf_open(&ck) ||
	    !_buf_open(&qu) || !_buf_open(&wt)) {
		mf_print_error("report: out of memory");
		rc = MF_EXIT_INPUT;
		goto out;
	}
	if (c->tree)
		mf_fairshare_json(fs.fp, c->tree, &s);
	mf_prun_print_json(&heads, &io->o, pr.fp);
	found = mf_check_findings(c, &io->o);
	mf_check_print_json(ck.fp, c, &io->o, found);
	g_array_unref(found);
	mf_qtop_json(qu.fp, &q);
	/* the summary's list: the first 20 (the page shows 10) */
	mf_qwait_json(wt.fp, waits, 20);
	_buf_close(&wt);
	_buf_close(&fs);
	_buf_close(&pr);
	_buf_close(&ck);
	_buf_close(&qu);
	src = (io->given & MF_IOPT_BIT(LIVE)) ?
		g_strdup("the live cluster (mfprio report --live)") :
		       io->o.snapshot ?
		       g_strdup_printf("snapshot %s", io->o.snapshot) :
		       g_strdup_printf("the files of --conf %s", io->o.conf);
	{
		mf_report_t rep = {
			.cluster = c->cluster, .source = src,
			.taken = io->o.now,
			.fairshare_json = c->tree ? fs.text : NULL,
			.priority_json = pr.text, .check_json = ck.text,
			.queue_json = qu.text, .waits_json = wt.text,
			.history_json = hist, .history_dir = r->history,
		};

		if (!strcmp(r->html, "-")) {
			out = stdout;
		} else {
			tmp = g_strdup_printf("%s.tmp", r->html);
			out = fopen(tmp, "w");
		}
		if (!out) {
			mf_print_error("report: %s: %s", tmp ? tmp : "stdout",
				     g_strerror(errno));
			rc = MF_EXIT_INPUT;
		} else if (mf_report_html(out, &rep) ||
			   (out != stdout && fclose(out)) ||
			   (tmp && rename(tmp, r->html))) {
			mf_print_error("report: %s: %s", tmp ? tmp : "stdout",
				     g_strerror(errno));
			rc = MF_EXIT_INPUT;
		}
	}
	g_free(src);
out:
	if (tmp && rc)
		g_unlink(tmp);
	g_free(tmp);
	_buf_close(&fs);
	_buf_close(&pr);
	_buf_close(&ck);
	_buf_close(&qu);
	_buf_close(&wt);
	free(fs.text);
	free(pr.text);
	free(ck.text);
	free(qu.text);
	free(wt.text);
	mf_qwait_free(waits);
	mf_qtop_clear(&q);
	return rc;
}

/* --history FILE, a file of `mfprio replay --json`, as JSON text in
 * *JSON (g_free() it).  Returns an exit status (errors reported). */
static int _history_replay(const char *path, char **json)
{
	mf_rjson_t rj;
	mf_error_t e;
	_buf_t b = { 0 };
	int rc = MF_EXIT_OK;

	if (mf_rjson_load(&rj, path, &e)) {
		mf_print_error("%s", e.text);
		rc = MF_EXIT_INPUT;
	} else if (!_buf_open(&b)) {
		mf_print_error("report: out of memory");
		rc = MF_EXIT_INPUT;
	} else {
		mf_history_replay_json(b.fp, &rj, path);
		_buf_close(&b);
		*json = g_strdup(b.text);
		free(b.text);
	}
	mf_rjson_clear(&rj);
	return rc;
}

/* --history HDIR of R, read with IO's settings and ranked by C's tree,
 * as JSON text in *JSON (NULL without --history; g_free() it); a snapshot
 * skipped is warned about.  Returns an exit status (errors reported). */
static int _history(const mf_iopts_t *io, const mf_prun_ctx_t *c,
		    const _rep_opts_t *r, char **json)
{
	mf_fshist_in_t in = { .sets = io->o.sets, .release = &io->rel,
			      .cluster = io->o.cluster, .now = c->tree };
	mf_fshist_t h;
	mf_error_t e;
	_buf_t b = { 0 };
	int rc = MF_EXIT_OK;

	*json = NULL;
	if (!r->history)
		return MF_EXIT_OK;
	if (g_file_test(r->history, G_FILE_TEST_IS_REGULAR))
		return _history_replay(r->history, json);
	if (mf_fshist_load(&h, r->history, &in, &e)) {
		mf_print_error("%s", e.text);
		rc = MF_EXIT_INPUT;
		goto out;
	}
	for (guint i = 0; i < h.skipped->len; i++) {
		const mf_fshist_skip_t *s =
			&g_array_index(h.skipped, mf_fshist_skip_t, i);

		fprintf(stderr, "mfprio: warning: %s (left out of the "
			"history)\n", s->why);
	}
	if (!_buf_open(&b)) {
		mf_print_error("report: out of memory");
		rc = MF_EXIT_INPUT;
		goto out;
	}
	mf_history_json(b.fp, &h);
	_buf_close(&b);
	*json = g_strdup(b.text);
	free(b.text);
out:
	mf_fshist_clear(&h);
	return rc;
}

/* --live: the snapshot into a new temporary directory.  Returns an exit
 * status. */
static int _live(mf_iopts_t *io, _rep_opts_t *r)
{
	char *base = g_build_filename(g_get_tmp_dir(), "mfprio-report-XXXXXX",
				      NULL);

	if (!g_mkdtemp(base)) {
		mf_print_error("report: cannot make a directory %s: %s", base,
			     g_strerror(errno));
		g_free(base);
		return MF_EXIT_INPUT;
	}
	r->tmpdir = base;
	if (r->user ? cmd_report_user_dump(base) : cmd_snapshot_take(base))
		return MF_EXIT_INPUT;
	io->o.snapshot = base;
	return MF_EXIT_OK;
}

/* Remove --live's directory and its files. */
static void _live_clear(_rep_opts_t *r)
{
	GDir *d;
	const char *name;

	if (!r->tmpdir)
		return;
	if ((d = g_dir_open(r->tmpdir, 0, NULL))) {
		while ((name = g_dir_read_name(d))) {
			char *p = g_build_filename(r->tmpdir, name, NULL);

			g_unlink(p);
			g_free(p);
		}
		g_dir_close(d);
	}
	g_rmdir(r->tmpdir);
	g_clear_pointer(&r->tmpdir, g_free);
}

int cmd_report(int argc, char **argv)
{
	mf_iopts_t io;
	mf_prun_ctx_t c = { 0 };
	_rep_opts_t r = { .top = 200 };
	char *hist = NULL;
	int rc;

	rc = _parse(argc, argv, &io, &r);
	if (rc) {
		rc = rc == MF_IOPT_HELP ? MF_EXIT_OK : rc;
		goto out;
	}
	if ((io.given & MF_IOPT_BIT(LIVE)) && (rc = _live(&io, &r)))
		goto out;
	if (r.user) {
		rc = cmd_report_user(io.o.snapshot, r.tmpdir != NULL, r.user,
				     r.html);
		goto out;
	}
	if (!(rc = mf_iopt_finish(&io, &_cmd)) &&
	    !(rc = mf_iopt_run(&io, &c)) &&
	    !(rc = _history(&io, &c, &r, &hist)))
		rc = _write(&c, &io, &r, hist);
out:
	g_free(hist);
	mf_prun_clear(&c);
	mf_iopt_clear(&io);
	_live_clear(&r);
	return rc;
}
