/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio: offline what-if tool over the mfprio core.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cmd.h"
#include "exit_status.h"

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} _subcommand_t;

static const _subcommand_t _subcommands[] = {
	{ "why", cmd_why,
	  "why one pending job runs before another, and what would change it" },
	{ "check", cmd_check,
	  "lint the priority settings against a snapshot (exit 3: findings)" },
	{ "tree", cmd_tree,
	  "the association tree: shares against usage; --svg FILE" },
	{ "fairshare", cmd_fairshare,
	  "fair-share of a cluster snapshot, as sshare -a -l -P prints it" },
	{ "priority", cmd_priority,
	  "pending jobs' priorities, as sprio -l prints them; --explain JOBID" },
	{ "compare", cmd_compare,
	  "the same inputs under two settings: which jobs and users moved" },
	{ "replay", cmd_replay,
	  "replay a sacct dump's period tick by tick under two settings" },
	{ "report", cmd_report,
	  "one HTML page: the tree to zoom and search, the queue, the settings" },
	{ "metrics", cmd_metrics,
	  "fair-share for Prometheus (text format), live or from a snapshot" },
	{ "snapshot", cmd_snapshot,
	  "dump a live cluster's inputs into a directory (--snapshot DIR)" },
};

static void _usage(FILE *out)
{
	fprintf(out, "Usage: mfprio COMMAND [OPTIONS]\n\nCommands:\n");
	for (size_t i = 0; i < sizeof(_subcommands) / sizeof(*_subcommands);
	     i++)
		fprintf(out, "  %-10s %s\n", _subcommands[i].name,
			_subcommands[i].summary);
	fprintf(out, "\n`mfprio COMMAND --help` describes each; "
		"see mfprio(1).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		_usage(stderr);
		return MF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		_usage(stdout);
		return MF_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("mfprio %s\n", PACKAGE_VERSION);
		return MF_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(_subcommands) / sizeof(*_subcommands);
	     i++)
		if (!strcmp(argv[1], _subcommands[i].name))
			return _subcommands[i].run(argc - 1, argv + 1);
	mf_print_error("unknown command '%s'", argv[1]);
	_usage(stderr);
	return MF_EXIT_USAGE;
}
