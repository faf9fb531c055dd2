/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input_opts: the input options of every command (input_opts.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_error.h"
#include "input_opts.h"
#include "release_table.h"
#include "timestr.h"

/* One input option: its getopt_long entry and its help. */
typedef struct {
	const char *name;
	const char *arg;             /* NULL: it takes none */
	const char *help;
} _iopt_t;

static const _iopt_t _iopts[] = {
#define MF_IOPT(id, name, arg, help) { name, arg, help },
#include "input_opts.def"
#undef MF_IOPT
};

#define _IOPT_CNT (sizeof(_iopts) / sizeof(*_iopts))
/* the longest table a command builds: every input option and as many of
 * its own */
#define _LONGOPTS_MAX 64

const struct option *mf_iopt_longopts(unsigned mask,
				      const struct option *own)
{
	static struct option table[_LONGOPTS_MAX];
	size_t n = 0;

	for (size_t i = 0; i < _IOPT_CNT; i++)
		if (mask & (1u << i))
			table[n++] = (struct option) {
				_iopts[i].name, _iopts[i].arg ?
				required_argument : no_argument, NULL,
				MF_IOPT_BEFORE_FIRST + 1 + (int) i };
	while (own && own->name && n < _LONGOPTS_MAX - 2)
		table[n++] = *own++;
	table[n++] = (struct option) { "help", no_argument, NULL, 'h' };
	table[n] = (struct option) { NULL, 0, NULL, 0 };
	return table;
}

void mf_iopt_help(FILE *out, unsigned mask)
{
	for (size_t i = 0; i < _IOPT_CNT; i++) {
		const char *p = _iopts[i].help;
		int w;

		if (!(mask & (1u << i)))
			continue;
		w = fprintf(out, "  --%s%s%s", _iopts[i].name,
			    _iopts[i].arg ? " " : "",
			    _iopts[i].arg ? _iopts[i].arg : "");
		/* the text at column 21, on a line of its own after a long
		 * option */
		if (w > 20)
			fprintf(out, "\n%21s", "");
		else
			fprintf(out, "%*s", 21 - w, "");
		for (;;) {
			const char *nl = strchr(p, '\n');

			if (!nl) {
				fprintf(out, "%s\n", p);
				break;
			}
			fprintf(out, "%.*s\n%21s", (int) (nl - p), p, "");
			p = nl + 1;
		}
	}
}

void mf_iopt_usage(FILE *out, const mf_iopt_help_t *h)
{
	fputs(h->head, out);
	mf_iopt_help(out, h->mask);
	fputs(h->own, out);
	fputs("  -h, --help         this text\n", out);
	if (h->tail)
		fprintf(out, "\n%s", h->tail);
}

int mf_iopt_other(int ch, const mf_iopt_help_t *help)
{
	if (ch == 'h') {
		mf_iopt_usage(stdout, help);
		return 1;
	}
	mf_iopt_usage(stderr, help);
	return -1;
}

int mf_iopt_no_operand(int argc, char **argv, const char *cmd)
{
	if (optind >= argc)
		return 0;
	mf_cmd_error("%s: unexpected argument '%s'", cmd, argv[optind]);
	return -1;
}

void mf_iopt_init(mf_iopts_t *io)
{
	memset(io, 0, sizeof(*io));
	io->o.now = time(NULL);
}

int mf_iopt_take(mf_iopts_t *io, int ch, const char *arg)
{
	switch (ch) {
	case MF_IOPT_CONF: io->o.conf = arg; return 1;
	case MF_IOPT_JOBS: io->o.jobs = arg; return 1;
	case MF_IOPT_QOS: io->o.qos = arg; return 1;
	case MF_IOPT_ASSOC: io->o.assoc = arg; return 1;
	case MF_IOPT_USAGE: io->o.usage = arg; return 1;
	case MF_IOPT_ASSOC_PRIO: io->o.assoc_prio = arg; return 1;
	case MF_IOPT_RELEASE: io->release = arg; return 1;
	case MF_IOPT_SNAPSHOT: io->o.snapshot = arg; return 1;
	case MF_IOPT_CLUSTER: io->o.cluster = arg; return 1;
	case MF_IOPT_LIVE: io->live = true; return 1;
	case MF_IOPT_SET:
	case MF_IOPT_FLAGS: {
		mf_error_t e;

		if (!io->sets)
			io->sets = mf_conf_parse("", "--set", NULL);
		if (ch == MF_IOPT_FLAGS) {
			mf_conf_set(io->sets, "PriorityFlags", arg, "--flags",
				    1);
		} else if (mf_conf_set_arg(io->sets, arg, "--set", 1, &e)) {
			mf_cmd_error("%s", e.text);
			return -1;
		}
		io->o.sets = io->sets->globals;
		return 1;
	}
	case MF_IOPT_NOW:
		/* resolved by mf_iopt_finish: "now" is a snapshot's time */
		io->now_arg = arg;
		io->now_set = true;
		return 1;
	default:
		return 0;
	}
}

int mf_iopt_finish(mf_iopts_t *io, const char *cmd)
{
	int rc;

	if (io->o.snapshot &&
	    (rc = mf_prun_from_snapshot(io->o.snapshot, &io->snap, &io->o,
					io->now_set)))
		return rc;
	if (io->now_arg) {
		mf_error_t e;

		if (mf_time_point(io->now_arg, io->o.snapshot ?
				  io->snap.taken : time(NULL), &io->o.now,
				  &e)) {
			mf_cmd_error("--now %s", e.text);
			return MF_EXIT_USAGE;
		}
	}
	if (!io->o.conf || !io->o.jobs) {
		mf_cmd_error("%s: --conf FILE and --jobs FILE are required%s",
			     cmd, io->o.snapshot ? " (the snapshot lacks one)"
			     : " (or --snapshot DIR)");
		return MF_EXIT_USAGE;
	}
	if (io->o.usage && !io->o.assoc) {
		mf_cmd_error("%s: --usage needs --assoc", cmd);
		return MF_EXIT_USAGE;
	}
	return MF_EXIT_OK;
}

int mf_iopt_run(mf_iopts_t *io, mf_prun_ctx_t *c)
{
	if (io->release && mf_cmd_release_option(&c->rel, io->release))
		return MF_EXIT_USAGE;
	return mf_prun_run(c, &io->o);
}

void mf_iopt_clear(mf_iopts_t *io)
{
	mf_snapdir_clear(&io->snap);
	mf_conf_free(io->sets);
	io->sets = NULL;
}

int mf_iopt_parse(mf_iopts_t *io, int argc, char **argv,
		  const mf_iopt_help_t *help, bool *json)
{
	enum { OPT_JSON = 1 };
	static const struct option own[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ NULL, 0, NULL, 0 },
	};
	const struct option *opts = mf_iopt_longopts(help->mask, own);
	int ch, t;

	*json = false;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if ((t = mf_iopt_take(io, ch, optarg))) {
			if (t < 0)
				return MF_EXIT_USAGE;
		} else if (ch == OPT_JSON) {
			*json = true;
		} else {
			return mf_iopt_other(ch, help) > 0 ? -1 :
			       MF_EXIT_USAGE;
		}
	}
	return MF_EXIT_OK;
}

int mf_iopt_main(int argc, char **argv, const mf_iopt_help_t *help,
		 mf_iopt_run_fn run)
{
	mf_iopts_t io;
	bool json = false;
	int rc;

	mf_iopt_init(&io);
	rc = mf_iopt_parse(&io, argc, argv, help, &json);
	if (!rc)
		rc = run(&io, argc - optind, argv + optind, json);
	mf_iopt_clear(&io);
	if (rc < 0)
		return MF_EXIT_OK;
	/* 0, or check's 3 (findings): the output is whole */
	if ((rc == MF_EXIT_OK || rc == 3) && fflush(stdout))
		rc = MF_EXIT_INPUT;
	return rc;
}
