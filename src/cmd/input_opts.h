/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input_opts: the input options that `mfprio priority`, `why`, `check`
 * and `compare` take (--conf, --jobs, --qos, --assoc, --usage,
 * --assoc-prio, --now, --release, --snapshot, the what-ifs --set and
 * --flags, and --cluster), filled into
 * the options of the shared loader (priority_run.h), so that all read
 * their inputs alike.
 *
 * Use: MF_IOPT_LONGOPTS in the getopt_long table; each option character
 * offered to mf_iopt_take(); after the loop mf_iopt_finish(), then
 * mf_iopt_run(); mf_iopt_clear() in every case.
 */
#ifndef MFPRIO_INPUT_OPTS_H
#define MFPRIO_INPUT_OPTS_H

#include <getopt.h>
#include <stdbool.h>

#include "priority_run.h"
#include "slurm_conf.h"
#include "snapshot_dir.h"

enum {
	MF_IOPT_CONF = 400, MF_IOPT_JOBS, MF_IOPT_QOS, MF_IOPT_ASSOC,
	MF_IOPT_USAGE, MF_IOPT_ASSOC_PRIO, MF_IOPT_NOW, MF_IOPT_RELEASE,
	MF_IOPT_SNAPSHOT, MF_IOPT_SET, MF_IOPT_FLAGS, MF_IOPT_CLUSTER,
};

#define MF_IOPT_LONGOPTS \
	{ "conf", required_argument, NULL, MF_IOPT_CONF }, \
	{ "jobs", required_argument, NULL, MF_IOPT_JOBS }, \
	{ "qos", required_argument, NULL, MF_IOPT_QOS }, \
	{ "assoc", required_argument, NULL, MF_IOPT_ASSOC }, \
	{ "usage", required_argument, NULL, MF_IOPT_USAGE }, \
	{ "assoc-prio", required_argument, NULL, MF_IOPT_ASSOC_PRIO }, \
	{ "now", required_argument, NULL, MF_IOPT_NOW }, \
	{ "release", required_argument, NULL, MF_IOPT_RELEASE }, \
	{ "snapshot", required_argument, NULL, MF_IOPT_SNAPSHOT }, \
	{ "set", required_argument, NULL, MF_IOPT_SET }, \
	{ "flags", required_argument, NULL, MF_IOPT_FLAGS }, \
	{ "cluster", required_argument, NULL, MF_IOPT_CLUSTER }

/* The lines of the --help text that describe them. */
#define MF_IOPT_HELP \
"  --snapshot DIR the files of `mfprio snapshot DIR`; a file option given\n" \
"                 overrides its file\n" \
"  --conf FILE    slurm.conf (required without --snapshot)\n" \
"  --jobs FILE    scontrol -o show job, or squeue --json (required\n" \
"                 without --snapshot)\n" \
"  --qos FILE     sacctmgr -P -n show qos format=Name,Priority\n" \
"  --assoc FILE   sacctmgr -P -n show assoc format=Account,User,ParentName,Fairshare\n" \
"  --usage FILE   sshare -a -P -n -o Account,User,RawUsage\n" \
"  --assoc-prio FILE  sacctmgr -P -n show assoc format=Account,User,Priority\n" \
"  --now TIME     the time to compute at, as scontrol prints it or sbatch\n" \
"                 --begin takes it (default: the snapshot's, else now)\n" \
"  --release VER  the Slurm release to imitate (as `mfprio priority`)\n" \
"  --set KEY=VALUE  a slurm.conf Priority* key or FairShareDampeningFactor,\n" \
"                 as if written last in the conf (what-if; repeatable)\n" \
"  --flags FLAGS  PriorityFlags to use instead of the conf's (what-if)\n" \
"  --cluster NAME the cluster of a several-cluster assoc dump (default:\n" \
"                 the conf's ClusterName)\n"

typedef struct {
	mf_prun_opts_t o;
	const char *release;
	bool now_set;
	const char *now_arg;     /* --now as given (mf_time_point's forms) */
	mf_snapdir_t snap;
	mf_conf_t *sets;             /* --set and --flags, in order */
} mf_iopts_t;

/* Start with no input and the current time. */
void mf_iopt_init(mf_iopts_t *io);

/*
 * Take option CH with argument ARG if it is one of ours.  Returns 1 if
 * taken, 0 if not ours, -1 after printing a usage error.
 */
int mf_iopt_take(mf_iopts_t *io, int ch, const char *arg);

/*
 * The whole option loop of a command that takes these inputs, --json and
 * -h (USAGE printed): returns MF_EXIT_OK with optind at the first operand
 * and *JSON set, MF_EXIT_USAGE after printing why, or -1 when -h printed
 * the usage (the command then exits 0).
 */
int mf_iopt_parse(mf_iopts_t *io, int argc, char **argv, const char *usage,
		  bool *json);

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
