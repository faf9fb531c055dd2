/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio: offline what-if tool over the mfprio core.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cmd.h"

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} _subcommand_t;

static const _subcommand_t _subcommands[] = {
	{ "fairshare", cmd_fairshare,
	  "fair-share of a cluster snapshot, as sshare -a -l -P prints it" },
	{ "priority", cmd_priority,
	  "pending jobs' priorities, as sprio -l prints them; --explain JOBID" },
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

void mf_cmd_error(const char *fmt, ...)
{
	va_list ap;

	fputs("mfprio: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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
	mf_cmd_error("unknown command '%s'", argv[1]);
	_usage(stderr);
	return MF_EXIT_USAGE;
}
