/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input_opts: the input options of every mfprio command, one module for
 * all: their table (input_opts.def: a new option is one entry there),
 * their getopt_long entries and --help lines built from it, and what is
 * read from them (the options of the shared loader, priority_run.h), so
 * that all commands spell, document, check and read their inputs alike.
 *
 * Use: mf_iopt_longopts() with the command's set of options (MF_IOPT_BIT
 * of each) and its own entries as the getopt_long table; each option
 * character offered to mf_iopt_take(); after the loop mf_iopt_finish(),
 * then mf_iopt_run(); mf_iopt_clear() in every case.  mf_iopt_help()
 * prints the --help lines of the set.
 */
#ifndef MFPRIO_INPUT_OPTS_H
#define MFPRIO_INPUT_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "priority_run.h"
#include "slurm_conf.h"
#include "snapshot_dir.h"

/* The option codes, from 400 up: MF_IOPT_SNAPSHOT, MF_IOPT_CONF, ... */
enum {
	MF_IOPT_BEFORE_FIRST = 399,
#define MF_IOPT(id, name, arg, help) MF_IOPT_##id,
#include "input_opts.def"
#undef MF_IOPT
	MF_IOPT_END
};

#define MF_IOPT_BIT(id) (1u << (MF_IOPT_##id - MF_IOPT_BEFORE_FIRST - 1))

/* The inputs of a priority computation (priority, why, check, compare,
 * metrics from files). */
#define MF_IOPT_PRIORITY_INPUTS \
	(MF_IOPT_BIT(SNAPSHOT) | MF_IOPT_BIT(CONF) | MF_IOPT_BIT(JOBS) | \
	 MF_IOPT_BIT(QOS) | MF_IOPT_BIT(ASSOC) | MF_IOPT_BIT(USAGE) | \
	 MF_IOPT_BIT(ASSOC_PRIO) | MF_IOPT_BIT(NOW) | MF_IOPT_BIT(RELEASE) | \
	 MF_IOPT_BIT(SET) | MF_IOPT_BIT(FLAGS) | MF_IOPT_BIT(CLUSTER))

/* The options of the tables sprio and sshare print, which `mfprio
 * priority` and `mfprio fairshare` take as they do: -l (taken), -P, -n;
 * for a command's own getopt_long table. */
#define MF_IOPT_TABLE_OPTS \
	{ "long", no_argument, NULL, 'l' }, \
	{ "parsable", no_argument, NULL, 'P' }, \
	{ "noheader", no_argument, NULL, 'n' }

/*
 * The getopt_long table of the input options in MASK followed by OWN (a
 * command's other options, ending with a zeroed entry) and --help ('h').
 * Returns a table in a static buffer, valid until the next call.
 */
const struct option *mf_iopt_longopts(unsigned mask,
				      const struct option *own);

/* Print to OUT the --help lines of the input options in MASK, in the
 * table's order.  Returns nothing. */
void mf_iopt_help(FILE *out, unsigned mask);

/* A command's --help: HEAD, the lines of the input options in MASK (the
 * options it takes), OWN (its other options), -h's line, then TAIL (a
 * paragraph, may be NULL). */
typedef struct {
	const char *head;
	unsigned mask;
	const char *own;
	const char *tail;
} mf_iopt_help_t;

/* Print H to OUT.  Returns nothing. */
void mf_iopt_usage(FILE *out, const mf_iopt_help_t *h);

/* An option character CH that a command's loop does not know: -h prints
 * HELP to stdout and returns 1; any other prints it to stderr and returns
 * -1 (getopt_long said what was wrong). */
int mf_iopt_other(int ch, const mf_iopt_help_t *help);

/* After the options of command CMD, which takes no operand: 0, or -1 after
 * saying that ARGV[optind] is unexpected. */
int mf_iopt_no_operand(int argc, char **argv, const char *cmd);

typedef struct {
	mf_prun_opts_t o;
	const char *release;
	bool now_set;
	const char *now_arg;     /* --now as given (mf_time_point's forms) */
	mf_snapdir_t snap;
	mf_conf_t *sets;             /* --set and --flags, in order */
	bool live;                   /* --live */
} mf_iopts_t;

/* Start with no input and the current time. */
void mf_iopt_init(mf_iopts_t *io);

/*
 * Take option CH with argument ARG if it is one of ours.  Returns 1 if
 * taken, 0 if not ours, -1 after printing a usage error.
 */
int mf_iopt_take(mf_iopts_t *io, int ch, const char *arg);

/*
 * The whole option loop of a command that takes the inputs of HELP's
 * mask, --json and -h (HELP printed): returns MF_EXIT_OK with optind at
 * the first operand and *JSON set, MF_EXIT_USAGE after printing why, or
 * -1 when -h printed the usage (the command then exits 0).
 */
int mf_iopt_parse(mf_iopts_t *io, int argc, char **argv,
		  const mf_iopt_help_t *help, bool *json);

/*
 * The main of a command over these inputs: its options read
 * (mf_iopt_parse(); -h: exit status 0), then RUN handed the N operands
 * OPS and --json; RUN checks them, calls mf_iopt_finish() and computes.
 * What was written to stdout is flushed.  Returns RUN's exit status
 * (MF_EXIT_INPUT if the flush fails after a status below 4), or a usage
 * error's.
 */
typedef int (*mf_iopt_run_fn)(mf_iopts_t *io, int n, char **ops, bool json);
int mf_iopt_main(int argc, char **argv, const mf_iopt_help_t *help,
		 mf_iopt_run_fn run);

/*
 * After the options: fill what is missing from --snapshot, resolve --now
 * (its "now" being the snapshot's time with --snapshot) and check that
 * the inputs CMD needs are there.  Returns an exit status (errors
 * printed).
 */
int mf_iopt_finish(mf_iopts_t *io, const char *cmd);

/* Read and compute into C (zeroed) as `priority` does.  Returns an exit
 * status; clear C with mf_prun_clear() either way. */
int mf_iopt_run(mf_iopts_t *io, mf_prun_ctx_t *c);

void mf_iopt_clear(mf_iopts_t *io);

#endif
