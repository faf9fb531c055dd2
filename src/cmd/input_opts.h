/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input_opts: how every mfprio command reads its inputs, one module for
 * all: the input options' table (input_opts.def: a new option is one entry
 * there), their getopt_long entries and --help lines built from it, the
 * one option loop of every command (a command's own options are handed to
 * it), and what is made of them: one mf_iopts_t, the paths (with the
 * snapshot's where no option names one), --now, --cluster, the what-ifs
 * (--set, --flags, --damp, in order) and --release, that a command's run
 * takes whole; its settings read from it in one place (settings.h).
 *
 * Use: a command describes itself in an mf_iopt_cmd_t (its --help, the
 * input options it takes, the inputs it needs, its own options and the
 * function that takes them); mf_iopt_parse(), then mf_iopt_finish(), then
 * mf_iopt_run() or mf_iopt_settings(); mf_iopt_clear() in every case.  Or
 * all of it through mf_iopt_main().
 */
#ifndef MFPRIO_INPUT_OPTS_H
#define MFPRIO_INPUT_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "priority_run.h"
#include "settings.h"
#include "slurm_conf.h"
#include "slurm_release.h"
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

/* The what-ifs: settings as if written after the conf's last line. */
#define MF_IOPT_WHATIFS \
	(MF_IOPT_BIT(SET) | MF_IOPT_BIT(FLAGS) | MF_IOPT_BIT(DAMP))

/* The inputs of a priority computation (priority, why, check, compare,
 * metrics and report from files). */
#define MF_IOPT_PRIORITY_INPUTS \
	(MF_IOPT_BIT(SNAPSHOT) | MF_IOPT_BIT(CONF) | MF_IOPT_BIT(JOBS) | \
	 MF_IOPT_BIT(QOS) | MF_IOPT_BIT(ASSOC) | MF_IOPT_BIT(USAGE) | \
	 MF_IOPT_BIT(ASSOC_PRIO) | MF_IOPT_BIT(NOW) | MF_IOPT_BIT(RELEASE) | \
	 MF_IOPT_WHATIFS | MF_IOPT_BIT(CLUSTER))

/* The inputs of a fair-share computation (fairshare, tree). */
#define MF_IOPT_FAIRSHARE_INPUTS \
	(MF_IOPT_BIT(SNAPSHOT) | MF_IOPT_BIT(CONF) | MF_IOPT_BIT(ASSOC) | \
	 MF_IOPT_BIT(USAGE) | MF_IOPT_BIT(RELEASE) | MF_IOPT_WHATIFS | \
	 MF_IOPT_BIT(CLUSTER))

/* The options of the tables sprio and sshare print, which `mfprio
 * priority` and `mfprio fairshare` take as they do: -l (taken), -P, -n;
 * for a command's own getopt_long table. */
#define MF_IOPT_TABLE_OPTS \
	{ "long", no_argument, NULL, 'l' }, \
	{ "parsable", no_argument, NULL, 'P' }, \
	{ "noheader", no_argument, NULL, 'n' }

/* The own options of a command that has no other than --json: their
 * table, and the function that takes --json into the bool ARG0. */
extern const struct option mf_iopt_json_opts[];
int mf_iopt_take_json(void *arg0, int ch, const char *arg);

/* mf_iopt_parse()'s status after -h printed the help (the command then
 * exits MF_EXIT_OK). */
#define MF_IOPT_HELP (-1)

/* A command's own option CH with its argument ARG (NULL: none) into the
 * command's ARG0.  Returns 0, or -1 after printing a usage error. */
typedef int (*mf_iopt_own_fn)(void *arg0, int ch, const char *arg);

/* A command, as the input options see it. */
typedef struct {
	const char *name;            /* "priority", for messages */
	/* its --help: HEAD, the lines of the input options in MASK, OWN (its
	 * other options), -h's line, then TAIL (a paragraph, may be NULL);
	 * OWN NULL: HEAD is the whole text */
	const char *head;
	unsigned mask;               /* the input options it takes */
	const char *own;
	const char *tail;
	unsigned need;               /* the inputs it needs (MF_IOPT_BIT of
				      * CONF, JOBS, ASSOC) */
	const struct option *longopts;   /* its own, ending with a zeroed
					  * entry; NULL: none */
	const char *shortopts;       /* its own short ones ("h" is added) */
	mf_iopt_own_fn take;         /* takes each of its own */
} mf_iopt_cmd_t;

/* What a command's inputs are, read from its options. */
typedef struct {
	mf_prun_opts_t o;            /* the paths, --now, --cluster, the
				      * what-ifs (o.sets) and --release
				      * (o.release), as priority_run.h reads
				      * them */
	unsigned given;              /* MF_IOPT_BIT of each option given */
	mf_release_pick_t rel;        /* --release (rel.source NULL: not
				      * given; settings.h decides) */
	const char *now_arg;         /* --now as given (mf_time_point's
				      * forms), or NULL */
	mf_snapdir_t snap;
	mf_conf_t *sets;             /* --set, --flags and --damp, in order */
	int n_sets;
} mf_iopts_t;

/* Print CMD's --help to OUT.  Returns nothing. */
void mf_iopt_usage(FILE *out, const mf_iopt_cmd_t *cmd);

/*
 * The one option loop: every option of ARGV, the input options of
 * CMD->mask into IO (zeroed here: no input, the current time), CMD's own
 * handed to CMD->take with ARG0, -h.  Returns MF_EXIT_OK with optind at
 * the first operand, MF_EXIT_USAGE after printing why, or MF_IOPT_HELP
 * after -h printed the help.  mf_iopt_clear() IO either way.
 */
int mf_iopt_parse(mf_iopts_t *io, int argc, char **argv,
		  const mf_iopt_cmd_t *cmd, void *arg0);

/* After the options of CMD, which takes no operand: 0, or -1 after saying
 * that ARGV[optind] is unexpected. */
int mf_iopt_no_operand(int argc, char **argv, const mf_iopt_cmd_t *cmd);

/*
 * After the options: fill the paths that no option names from --snapshot,
 * resolve --now (its "now" being the snapshot's time with --snapshot) and
 * check that the inputs CMD needs are there (else the error and the
 * usage).  Returns an exit status (errors printed).
 */
int mf_iopt_finish(mf_iopts_t *io, const mf_iopt_cmd_t *cmd);

/* Read and compute into C (zeroed) as `priority` does.  Returns an exit
 * status; clear C with mf_prun_clear() either way. */
int mf_iopt_run(mf_iopts_t *io, mf_prun_ctx_t *c);

/*
 * Read the settings of IO (its conf, what-ifs, --release and --cluster;
 * NEAR: where a version file may be without a conf) into S (zeroed), the
 * warnings of WHICH printed.  Returns an exit status (errors printed);
 * clear S with mf_settings_clear() either way.
 */
int mf_iopt_settings(const mf_iopts_t *io, const char *near,
		     mf_settings_warn_t which, mf_settings_t *s);

/*
 * The main of a command over these inputs: its options read
 * (mf_iopt_parse(); -h: MF_EXIT_OK), then RUN handed IO, the N operands
 * OPS and ARG0 (CMD's own options' target); RUN checks them, calls
 * mf_iopt_finish() and computes.  What was written to stdout is flushed.
 * Returns RUN's exit status (MF_EXIT_INPUT if the flush of a whole output
 * fails), or a usage error's.
 */
typedef int (*mf_iopt_run_fn)(mf_iopts_t *io, int n, char **ops,
			      void *arg0);
int mf_iopt_main(int argc, char **argv, const mf_iopt_cmd_t *cmd,
		 mf_iopt_run_fn run, void *arg0);

void mf_iopt_clear(mf_iopts_t *io);

#endif
