/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio check: lint the priority settings against a snapshot.  Each
 * finding (check_findings.h) is printed with its numbers and a fix
 * (check_out.h); the exit status is 0 when nothing was found, 3 when
 * something was (1 and 2 as for every command).
 */
#include <stdio.h>

#include <glib.h>

#include "check_findings.h"
#include "check_out.h"
#include "cmd.h"
#include "exit_status.h"
#include "input_opts.h"
#include "priority_run.h"

static const char _usage_head[] =
"Usage: mfprio check --snapshot DIR | --conf FILE --jobs FILE [--qos FILE]\n"
"                    [--assoc FILE [--usage FILE]] [--json] ...\n"
"\n"
"Lint the priority settings against the snapshot's jobs and associations:\n"
"each finding with its numbers and the fix.  Exit status: 0 nothing found,\n"
"3 findings, 1 bad input, 2 usage error.\n"
"\n";

/* The command: its --help, its input options (input_opts.def), --json. */
static const mf_iopt_cmd_t _cmd = {
	.name = "check",
	.head = _usage_head,
	.mask = MF_IOPT_PRIORITY_INPUTS,
	.own = "  --json             the findings as one JSON object; see mfprio(1)\n",
	.need = MF_IOPT_BIT(CONF) | MF_IOPT_BIT(JOBS),
	.longopts = mf_iopt_json_opts,
	.take = mf_iopt_take_json,
};

static int _check(mf_iopts_t *io, bool json)
{
	mf_prun_ctx_t c = { 0 };
	GArray *found;
	int rc = mf_iopt_run(io, &c);

	if (rc) {
		mf_prun_clear(&c);
		return rc;
	}
	found = mf_check_findings(&c, &io->o);
	if (json)
		mf_check_print_json(stdout, &c, &io->o, found);
	else
		mf_check_print_text(stdout, &c, found);
	rc = found->len ? MF_EXIT_FINDINGS : MF_EXIT_OK;
	g_array_unref(found);
	mf_prun_clear(&c);
	return rc;
}

/* check's operands (none), then the check.  Returns an exit status. */
static int _check_run(mf_iopts_t *io, int n, char **ops, void *arg0)
{
	bool json = *(bool *) arg0;
	int rc;

	if (n) {
		mf_print_error("check: unexpected argument '%s'", ops[0]);
		return MF_EXIT_USAGE;
	}
	if ((rc = mf_iopt_finish(io, &_cmd)))
		return rc;
	return _check(io, json);
}

int cmd_check(int argc, char **argv)
{
	bool json = false;

	return mf_iopt_main(argc, argv, &_cmd, _check_run, &json);
}
