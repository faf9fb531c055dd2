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
#include "cmd_error.h"
#include "fairshare_json.h"
#include "input_opts.h"
#include "priority_json.h"
#include "priority_run.h"
#include "queue_top.h"
#include "release.h"
#include "report_html.h"

static const char _usage_head[] =
"Usage: mfprio report --html FILE --snapshot DIR [--top N] [any input option]\n"
"       mfprio report --html FILE --live [--top N]\n"
"\n"
"Write one self-contained HTML page (no network: inline CSS and\n"
"JavaScript) with the association tree to zoom and search, the pending\n"
"jobs by partition with their weighted factors, the settings and the\n"
"findings of `mfprio check`.  Its figures are those of `mfprio fairshare\n"
"--json`, `mfprio priority --json` and `mfprio check --json` on the same\n"
"inputs.  With --live, `mfprio snapshot` is taken into a temporary\n"
"directory first.\n"
"\n";

static const char _usage_own[] =
"  --html FILE        the page to write ('-': stdout); written to\n"
"                     FILE.tmp, then renamed over FILE\n"
"  --top N            the first N jobs of each partition's queue on the\n"
"                     page (default 200; 0: every job); the others are\n"
"                     counted per account\n";

static const mf_iopt_help_t _help = {
	_usage_head, MF_IOPT_PRIORITY_INPUTS | MF_IOPT_BIT(LIVE), _usage_own,
	NULL
};

enum { OPT_HTML = 256, OPT_TOP };

typedef struct {
	const char *html;
	guint top;
	char *tmpdir;                /* --live's snapshot */
} _rep_opts_t;

/* The options of ARGV.  Returns 0, 1 after --help, -1 (reported). */
static int _parse(int argc, char **argv, mf_iopts_t *io, _rep_opts_t *r)
{
	static const struct option own[] = {
		{ "html", required_argument, NULL, OPT_HTML },
		{ "top", required_argument, NULL, OPT_TOP },
		{ NULL, 0, NULL, 0 },
	};
	const struct option *opts = mf_iopt_longopts(_help.mask, own);
	char *end;
	long v;
	int ch, t;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if ((t = mf_iopt_take(io, ch, optarg))) {
			if (t < 0)
				return -1;
		} else if (ch == OPT_HTML) {
			r->html = optarg;
		} else if (ch == OPT_TOP) {
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 0 ||
			    v > 10000000) {
				mf_cmd_error("--top '%s': not a whole number "
					     "from 0 to 10000000", optarg);
				return -1;
			}
			r->top = (guint)v;
		} else {
			return mf_iopt_other(ch, &_help);
		}
	}
	if (mf_iopt_no_operand(argc, argv, "report"))
		return -1;
	if (!r->html) {
		mf_cmd_error("report: --html FILE is required");
		return -1;
	}
	if (io->live && io->o.snapshot) {
		mf_cmd_error("report: --live or --snapshot DIR, not both");
		return -1;
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

/* The page of C's figures, to PATH.  Returns an exit status. */
static int _write(const mf_prun_ctx_t *c, const mf_iopts_t *io,
		  const _rep_opts_t *r)
{
	_buf_t fs = { 0 }, pr = { 0 }, ck = { 0 }, qu = { 0 };
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
	    !_buf_open(&qu)) {
		mf_cmd_error("report: out of memory");
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
	_buf_close(&fs);
	_buf_close(&pr);
	_buf_close(&ck);
	_buf_close(&qu);
	src = io->live ? g_strdup("the live cluster (mfprio report --live)")
		       : io->o.snapshot ?
		       g_strdup_printf("snapshot %s", io->o.snapshot) :
		       g_strdup_printf("the files of --conf %s", io->o.conf);
	{
		mf_report_t rep = {
			.cluster = c->cluster, .source = src,
			.taken = io->o.now,
			.fairshare_json = c->tree ? fs.text : NULL,
			.priority_json = pr.text, .check_json = ck.text,
			.queue_json = qu.text,
		};

		if (!strcmp(r->html, "-")) {
			out = stdout;
		} else {
			tmp = g_strdup_printf("%s.tmp", r->html);
			out = fopen(tmp, "w");
		}
		if (!out) {
			mf_cmd_error("report: %s: %s", tmp ? tmp : "stdout",
				     g_strerror(errno));
			rc = MF_EXIT_INPUT;
		} else if (mf_report_html(out, &rep) ||
			   (out != stdout && fclose(out)) ||
			   (tmp && rename(tmp, r->html))) {
			mf_cmd_error("report: %s: %s", tmp ? tmp : "stdout",
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
	free(fs.text);
	free(pr.text);
	free(ck.text);
	free(qu.text);
	mf_qtop_clear(&q);
	return rc;
}

/* --live: the snapshot into a new temporary directory.  Returns an exit
 * status. */
static int _live(mf_iopts_t *io, _rep_opts_t *r)
{
	char *base = g_build_filename(g_get_tmp_dir(), "mfprio-report-XXXXXX",
				      NULL);

	if (!g_mkdtemp(base)) {
		mf_cmd_error("report: cannot make a directory %s: %s", base,
			     g_strerror(errno));
		g_free(base);
		return MF_EXIT_INPUT;
	}
	r->tmpdir = base;
	if (cmd_snapshot_take(base))
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
	int rc;

	mf_iopt_init(&io);
	rc = _parse(argc, argv, &io, &r);
	if (rc) {
		rc = rc > 0 ? MF_EXIT_OK : MF_EXIT_USAGE;
		goto out;
	}
	if (io.live && (rc = _live(&io, &r)))
		goto out;
	if (!(rc = mf_iopt_finish(&io, "report")) &&
	    !(rc = mf_iopt_run(&io, &c)))
		rc = _write(&c, &io, &r);
out:
	mf_prun_clear(&c);
	mf_iopt_clear(&io);
	_live_clear(&r);
	return rc;
}
