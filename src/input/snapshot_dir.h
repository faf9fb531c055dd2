/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * snapshot_dir: the directory `mfprio snapshot DIR` writes, and where each
 * input of the other subcommands is in it.
 *
 *   slurm.conf      the cluster's slurm.conf, its Include lines pointing
 *                   at the copies below (line numbers kept)
 *   include-N-NAME  the N-th file Included (from slurm.conf or from
 *                   another included file), NAME its base name; its own
 *                   Include lines rewritten the same way
 *   slurm-version   scontrol --version
 *   time            when the snapshot was taken: seconds since the epoch,
 *                   on one line (taken before the first dump)
 *   config          scontrol show config
 *   jobs            scontrol -o show job
 *   qos             sacctmgr -P -n show qos format=Name,Priority
 *   assoc           sacctmgr -P -n show assoc where cluster=CLUSTER
 *                     format=Account,User,ParentName,Fairshare
 *   assoc-prio      sacctmgr -P -n show assoc where cluster=CLUSTER
 *                     format=Account,User,Priority
 *   usage           sshare -a -P -n -o Account,User,RawUsage
 *   assoc-mgr       scontrol show assoc_mgr flags=assoc,qos
 *                   (usage with two decimals: preferred over usage)
 *
 * A directory is a snapshot if it holds a `time` file; every other file
 * may be missing (a hand-made or older snapshot), and the reader then has
 * no such input.
 */
#ifndef MFPRIO_SNAPSHOT_DIR_H
#define MFPRIO_SNAPSHOT_DIR_H

#include <time.h>

#include "mf_error.h"

#define MF_SNAP_CONF       "slurm.conf"
#define MF_SNAP_INCLUDE    "include-"    /* prefix of included files */
#define MF_SNAP_VERSION    "slurm-version"
#define MF_SNAP_TIME       "time"
#define MF_SNAP_CONFIG     "config"
#define MF_SNAP_JOBS       "jobs"
#define MF_SNAP_QOS        "qos"
#define MF_SNAP_ASSOC      "assoc"
#define MF_SNAP_ASSOC_PRIO "assoc-prio"
#define MF_SNAP_USAGE      "usage"
#define MF_SNAP_ASSOC_MGR  "assoc-mgr"

/* The inputs found in a snapshot directory: each a new path string
 * (DIR/NAME), or NULL when the directory has no such file. */
typedef struct {
	char *dir;
	char *conf;
	char *jobs;
	char *qos;
	char *assoc;
	char *assoc_prio;
	char *usage;             /* sshare's whole numbers */
	char *assoc_mgr;         /* two decimals: use it before usage */
	time_t taken;            /* from the time file */
} mf_snapdir_t;

/*
 * Fill *SNAP from the snapshot directory DIR.  Returns 0, or -1 with errp
 * naming DIR (not a directory, no time file) or DIR/time and its line (not
 * a number of seconds since the epoch); *SNAP is then left cleared.
 * Free with mf_snapdir_clear().
 */
int mf_snapdir_open(const char *dir, mf_snapdir_t *snap, mf_error_t *errp);

/* Free what *SNAP holds and zero it; a zeroed one is accepted. */
void mf_snapdir_clear(mf_snapdir_t *snap);

#endif
