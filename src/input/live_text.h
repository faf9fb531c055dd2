/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live_text: what `mfprio metrics --live` reads of the cluster's own
 * commands, as their text: sshare's association rows, squeue's and
 * sprio's pending rows, and the PriorityFlags of `scontrol show config`.
 * Pure: the commands are run by the caller (src/cmd/metrics_cmd.c); no
 * I/O, no logging.  Any text is read without harm (tests/fuzz/fuzz_live.c).
 */
#ifndef MFPRIO_LIVE_TEXT_H
#define MFPRIO_LIVE_TEXT_H

#include <stdint.h>
#include <time.h>

#include <glib.h>

#include "mf_error.h"

/* The fair-share algorithm TEXT's PriorityFlags line names (`scontrol
 * show config`): "depth_oblivious", "classic" (NO_FAIR_TREE), else
 * "fair_tree" (a static string). */
const char *mf_live_algorithm(const char *text);

/*
 * Append to ASSOCS (of mf_metrics_assoc_t, src/core/metrics.h) a row per
 * non-empty line of TEXT, the output of `sshare -a -P -n -o Cluster,
 * Account,User,Partition,RawShares,NormShares,RawUsage,EffectvUsage,
 * FairShare,LevelFS`: depth from the account's indent, parent from the
 * rows above, empty numbers as NAN; the rows' strings are kept in NAMES.
 * *CLUSTER, when NULL, is set (g_malloc'd) from the first non-empty
 * Cluster field.  Returns 0, or -1 with ERR naming the first line of
 * fewer than 10 fields (the rows before it are appended).
 */
int mf_live_sshare(const char *text, GStringChunk *names, GArray *assocs,
		   char **cluster, mf_error_t *err);

/* One pending job of a partition: its account (NULL: not in squeue's
 * text), user, partition, priority, id and submission time (0: not
 * known). */
typedef void (*mf_live_pending_fn)(const char *acct, const char *user,
				   const char *part, double prio,
				   uint32_t job_id, time_t submit, void *arg);

/*
 * Call FN (with ARG) for each line of SPRIO, the output of `sprio -h -o
 * %i|%r|%u|%Y`, with the account and submission time SQUEUE (`squeue -h
 * -t PD -o %A|%a|%V`, times read as of NOW) gives its job.  Lines of
 * fewer fields are skipped.  Returns nothing.
 */
void mf_live_pending(const char *squeue, const char *sprio, time_t now,
		     mf_live_pending_fn fn, void *arg);

#endif
