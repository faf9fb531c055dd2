/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input_opts: how every command reads its inputs (input_opts.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_status.h"
#include "input_opts.h"
#include "priority_flags.h"
#include "release_table.h"
#include "timestr.h"

/* One input option: its long option entry and its help. */
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

/* The long options table of the input options in MASK followed by OWN (a
 * command's own options, ending with a zeroed entry) and --help ('h'), in
 * a static buffer, valid until the next call. */
static const struct option *_longopts(unsigned mask,
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

/* The --help lines of the input options in MASK, in the table's order,
 * to OUT. */
static void _help(FILE *out, unsigned mask)
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

void mf_iopt_usage(FILE *out, const mf_iopt_cmd_t *cmd)
{
	fputs(cmd->head, out);
	if (!cmd->own)
		return;
	_help(out, cmd->mask);
	fputs(cmd->own, out);
	fputs("  -h, --help         this text\n", out);
	if (cmd->tail)
		fprintf(out, "\n%s", cmd->tail);
}

int mf_iopt_no_operand(int argc, char **argv, const mf_iopt_cmd_t *cmd)
{
	if (optind >= argc)
		return 0;
	mf_print_error("%s: unexpected argument '%s'", cmd->name, argv[optind]);
	return -1;
}

/* A what-if's value: --flags as PriorityFlags, --damp as
 * FairShareDampeningFactor, refused when bad.  Returns 0, or -1 after
 * printing the usage error. */
static int _whatif(mf_iopts_t *io, int ch, const char *arg)
{
	mf_error_t e;
	uint32_t flags;
	char *end;
	long v;

	if (!io->sets)
		io->sets = mf_conf_parse("", "--set", NULL);
	io->n_sets++;
	switch (ch) {
	case MF_IOPT_SET:
		if (mf_conf_set_arg(io->sets, arg, "--set", io->n_sets, &e)) {
			mf_print_error("%s", e.text);
			return -1;
		}
		break;
	case MF_IOPT_FLAGS:
		if (mf_priority_flags_parse(arg, &flags, &e)) {
			mf_print_error("--flags: %s", e.text);
			return -1;
		}
		mf_conf_set(io->sets, "PriorityFlags", arg, "--flags",
			    io->n_sets);
		break;
	default:
		if (!g_ascii_isdigit(*arg) ||
		    (v = strtol(arg, &end, 10), *end) || v < 1 || v > 65535) {
			mf_print_error("--damp '%s': not a whole number from 1 "
				     "to 65535", arg);
			return -1;
		}
		mf_conf_set(io->sets, "FairShareDampeningFactor", arg,
			    "--damp", io->n_sets);
	}
	io->o.sets = io->sets->globals;
	return 0;
}

/* Take input option CH with argument ARG.  Returns 0, or -1 after
 * printing a usage error. */
static int _take(mf_iopts_t *io, int ch, const char *arg)
{
	mf_prun_opts_t *o = &io->o;

	io->given |= 1u << (ch - MF_IOPT_BEFORE_FIRST - 1);
	switch (ch) {
	case MF_IOPT_CONF: o->conf = arg; return 0;
	case MF_IOPT_JOBS: o->jobs = arg; return 0;
	case MF_IOPT_QOS: o->qos = arg; return 0;
	case MF_IOPT_ASSOC: o->assoc = arg; return 0;
	case MF_IOPT_USAGE: o->usage = arg; return 0;
	case MF_IOPT_ASSOC_PRIO: o->assoc_prio = arg; return 0;
	case MF_IOPT_SNAPSHOT: o->snapshot = arg; return 0;
	case MF_IOPT_CLUSTER: o->cluster = arg; return 0;
	case MF_IOPT_LIVE: return 0;
	/* resolved by mf_iopt_finish: "now" is a snapshot's time */
	case MF_IOPT_NOW: io->now_arg = arg; return 0;
	/* a bad --release is a usage error at once */
	case MF_IOPT_RELEASE: return mf_release_pick_option(&io->rel, arg);
	default: return _whatif(io, ch, arg);
	}
}

int mf_iopt_parse(mf_iopts_t *io, int argc, char **argv,
		  const mf_iopt_cmd_t *cmd, void *arg0)
{
	const struct option *opts = _longopts(cmd->mask, cmd->longopts);
	char *shortopts = g_strconcat("h", cmd->shortopts, NULL);
	int ch, rc = MF_EXIT_OK;

	memset(io, 0, sizeof(*io));
	io->o.now = time(NULL);
	io->o.release = &io->rel;
	optind = 1;
	while (!rc && (ch = getopt_long(argc, argv, shortopts, opts, NULL))
	       != -1) {
		if (ch > MF_IOPT_BEFORE_FIRST && ch < MF_IOPT_END) {
			rc = _take(io, ch, optarg) ? MF_EXIT_USAGE : 0;
		} else if (ch == 'h') {
			mf_iopt_usage(stdout, cmd);
			rc = MF_IOPT_HELP;
		} else if (ch != '?' && cmd->take) {
			rc = cmd->take(arg0, ch, optarg) ? MF_EXIT_USAGE : 0;
		} else {
			/* the option parser said what was wrong */
			mf_iopt_usage(stderr, cmd);
			rc = MF_EXIT_USAGE;
		}
	}
	g_free(shortopts);
	return rc;
}

const struct option mf_iopt_json_opts[] = {
	{ "json", no_argument, NULL, 256 },
	{ NULL, 0, NULL, 0 },
};

int mf_iopt_take_json(void *arg0, int ch, const char *arg)
{
	(void) ch;
	(void) arg;
	*(bool *) arg0 = true;
	return 0;
}

/* The inputs CMD needs that IO lacks: the error (and the usage).
 * Returns an exit status. */
static int _need(const mf_iopts_t *io, const mf_iopt_cmd_t *cmd)
{
	const mf_prun_opts_t *o = &io->o;
	unsigned need = cmd->need;
	bool snap = o->snapshot != NULL;

	if (((need & MF_IOPT_BIT(CONF)) && !o->conf) ||
	    ((need & MF_IOPT_BIT(JOBS)) && !o->jobs) ||
	    ((need & MF_IOPT_BIT(ASSOC)) && !o->assoc)) {
		bool one = need == MF_IOPT_BIT(ASSOC);

		mf_print_error("%s: %s%s %s required%s", cmd->name,
			     need & MF_IOPT_BIT(CONF) ? "--conf FILE and " :
			     "", need & MF_IOPT_BIT(JOBS) ? "--jobs FILE" :
			     "--assoc FILE", one ? "is" : "are", snap && one ?
			     " (the snapshot has no assoc file)" : snap ?
			     " (the snapshot lacks one)" : " (or --snapshot DIR)");
		mf_iopt_usage(stderr, cmd);
		return MF_EXIT_USAGE;
	}
	if (o->usage && !o->assoc) {
		mf_print_error("%s: --usage needs --assoc", cmd->name);
		return MF_EXIT_USAGE;
	}
	return MF_EXIT_OK;
}

int mf_iopt_finish(mf_iopts_t *io, const mf_iopt_cmd_t *cmd)
{
	int rc;

	if (io->o.snapshot &&
	    (rc = mf_prun_from_snapshot(io->o.snapshot, &io->snap, &io->o,
					io->now_arg != NULL)))
		return rc;
	if (io->now_arg) {
		mf_error_t e;

		if (mf_time_point(io->now_arg, io->o.snapshot ?
				  io->snap.taken : time(NULL), &io->o.now,
				  &e)) {
			mf_print_error("--now %s", e.text);
			return MF_EXIT_USAGE;
		}
	}
	return _need(io, cmd);
}

int mf_iopt_run(mf_iopts_t *io, mf_prun_ctx_t *c)
{
	return mf_prun_run(c, &io->o);
}

int mf_iopt_settings(const mf_iopts_t *io, const char *near,
		     mf_settings_warn_t which, mf_settings_t *s)
{
	mf_settings_in_t in = { .conf = io->o.conf, .sets = io->o.sets,
				.release = &io->rel,
				.cluster = io->o.cluster, .near = near };
	mf_error_t e;

	if (mf_settings_read(s, &in, &e)) {
		mf_print_error("%s", e.text);
		return MF_EXIT_INPUT;
	}
	mf_settings_warn(s, which);
	return MF_EXIT_OK;
}

void mf_iopt_clear(mf_iopts_t *io)
{
	mf_snapdir_clear(&io->snap);
	mf_conf_free(io->sets);
	mf_release_pick_clear(&io->rel);
	io->sets = NULL;
	io->o.sets = NULL;
}

int mf_iopt_main(int argc, char **argv, const mf_iopt_cmd_t *cmd,
		 mf_iopt_run_fn run, void *arg0)
{
	mf_iopts_t io;
	int rc;

	rc = mf_iopt_parse(&io, argc, argv, cmd, arg0);
	if (!rc)
		rc = run(&io, argc - optind, argv + optind, arg0);
	mf_iopt_clear(&io);
	if (rc == MF_IOPT_HELP)
		return MF_EXIT_OK;
	/* the output is whole: it must reach stdout */
	if ((rc == MF_EXIT_OK || rc == MF_EXIT_FINDINGS) && fflush(stdout))
		rc = MF_EXIT_INPUT;
	return rc;
}
