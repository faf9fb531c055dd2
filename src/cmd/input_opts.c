/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input_opts.h"
#include "timestr.h"

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

int mf_iopt_parse(mf_iopts_t *io, int argc, char **argv, const char *usage,
		  bool *json)
{
	enum { OPT_JSON = 1 };
	static const struct option opts[] = {
		MF_IOPT_LONGOPTS,
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, t;

	*json = false;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if ((t = mf_iopt_take(io, ch, optarg))) {
			if (t < 0)
				return MF_EXIT_USAGE;
		} else if (ch == OPT_JSON) {
			*json = true;
		} else if (ch == 'h') {
			fputs(usage, stdout);
			return -1;
		} else {
			fputs(usage, stderr);
			return MF_EXIT_USAGE;
		}
	}
	return MF_EXIT_OK;
}
