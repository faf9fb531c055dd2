/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_dump: what a user's `mfprio why JOBID` reads, from a snapshot
 * directory (snapshot_dir.h) that holds, besides `time`:
 *
 *   jobs     scontrol -o show job [JOBID]   (the job's line is found)
 *   config   scontrol show config           ("Key = Value" lines)
 *   sprio    sprio -h -o MF_WAIT_SPRIO_FORMAT   (every row it shows)
 *   sshare   sshare -P -n -o MF_WAIT_SSHARE_FIELDS   (the user's own
 *            associations and their accounts, as sshare shows a user)
 *   why-assoc  sacctmgr -n -P show assoc user=USER format=
 *            MF_WAIT_ASSOC_FIELDS   (the user's own associations and the
 *            QOS each allows; optional: absent or empty, not known)
 *   why-qos  sacctmgr -n -P show qos format=Name,Priority   (optional)
 *   why-running  squeue -h -t RUNNING -u USER -o MF_WAIT_RUNNING_FORMAT
 *            (the user's running jobs; optional)
 *   why-partitions  scontrol -o show partition   (optional)
 *   why-groups  id -Gn   (the user's groups; optional)
 *
 * What the user may not see is simply absent from these dumps (other
 * users' rows under PrivateData); the reader keeps what is there.
 *
 * Ownership: an mf_wait_dump_t owns everything in it
 * (mf_wait_dump_clear()); the job record's strings are interned
 * (job_line.h).
 */
#ifndef MFPRIO_WAIT_DUMP_H
#define MFPRIO_WAIT_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <glib.h>

#include "job_line.h"
#include "mf_error.h"

#define MF_SNAP_SPRIO  "sprio"
#define MF_SNAP_SSHARE "sshare"
#define MF_SNAP_WHY_ASSOC "why-assoc"
#define MF_SNAP_WHY_QOS   "why-qos"
#define MF_SNAP_WHY_RUNNING "why-running"
#define MF_SNAP_WHY_PARTS "why-partitions"
#define MF_SNAP_WHY_GROUPS "why-groups"
#define MF_WAIT_ASSOC_FIELDS "Account,User,Partition,QOS,GrpTRESRunMins"
/* squeue -h -t RUNNING -u USER -o: job, account, CPUs, time left */
#define MF_WAIT_RUNNING_FORMAT "%i|%a|%C|%L"

/* sprio's columns: job, partition, user, priority, the age factor, then
 * the weighted terms in mf_wait_term_t's order. */
#define MF_WAIT_SPRIO_FORMAT "%i|%r|%u|%Y|%a|%A|%B|%F|%J|%P|%Q|%N|%S"
#define MF_WAIT_SSHARE_FIELDS \
	"Account,User,NormShares,RawUsage,EffectvUsage,FairShare,LevelFS," \
	"GrpTRESMins,GrpTRESRaw,TRESRunMins"

/* The weighted terms of a sprio row, in its columns' order. */
typedef enum {
	MF_WT_AGE, MF_WT_ASSOC, MF_WT_FS, MF_WT_JOBSIZE, MF_WT_PARTITION,
	MF_WT_QOS, MF_WT_NICE, MF_WT_SITE, MF_WT_N
} mf_wait_term_t;

/* The terms' names, as the text and JSON print them. */
extern const char *const mf_wait_term_name[MF_WT_N];

/* One row of sprio: a pending job in one partition. */
typedef struct {
	uint32_t job_id;
	const char *partition;   /* interned (job_line.h) */
	const char *user;        /* interned */
	double priority;
	double age;              /* the age factor, 0 to 1 */
	double w[MF_WT_N];       /* weighted terms (nice as sprio shows it:
				  * added to the priority with its sign
				  * turned) */
} mf_wait_sprio_t;

/* One of the user's associations (sacctmgr): the QOS it allows. */
typedef struct {
	char **fields;           /* the row's, owned */
	const char *account, *user, *partition;  /* partition "": any */
	char **qos;              /* the QOS it allows, owned */
	const char *grp_tres_run_mins;   /* "cpu=N,...", "" none */
} mf_wait_assoc_t;

/* One of the user's running jobs (squeue). */
typedef struct {
	uint32_t job_id;
	const char *account;     /* in the dump's strings */
	double cpus;
	double left;             /* minutes of its time limit left; -1
				  * UNLIMITED */
} mf_wait_running_t;

/* A QOS and its Priority (sacctmgr show qos). */
typedef struct {
	const char *name;        /* in the dump's strings */
	double priority;
} mf_wait_qos_t;

/* A partition as `scontrol -o show partition` shows it (the strings in
 * the dump's; NULL: not shown). */
typedef struct {
	const char *name, *state, *allow_groups, *allow_accounts,
		*deny_accounts, *allow_qos, *deny_qos;
	double job_factor;       /* PriorityJobFactor */
} mf_wait_part_t;

/* One row of sshare: an account (user NULL) or a user's association. */
typedef struct {
	char **fields;           /* the row's, owned; the strings below
				  * point into them */
	const char *account, *user;  /* user NULL: an account's row */
	int depth;               /* the account name's indent */
	double norm_shares, raw_usage, eff_usage, fairshare, level_fs;
	const char *grp_tres_mins, *grp_tres_raw, *tres_run_mins;
				 /* "cpu=N,..." */
} mf_wait_sshare_t;

typedef struct {
	time_t now;              /* the time file */
	mf_job_line_t *job;
	GStringChunk *strings;   /* owns the strings below */
	const char *dependency;  /* Dependency=, or NULL ("(null)") */
	const char *reservation; /* Reservation=, or NULL */
	time_t start_time;       /* StartTime= (0: Unknown): for a pending
				  * job the scheduler's estimate, never
				  * before the dump's time, or its begin
				  * time */
	time_t last_eval;        /* LastSchedEval= (0: Unknown) */
	const char *sched_by;    /* Scheduler= ("Main", "Backfill"), or
				  * NULL */
	const char *sched_type;  /* SchedulerType, or NULL: not shown */
	uint32_t bf_interval;    /* SchedulerParameters bf_interval=, s */
	uint32_t bf_window;      /* SchedulerParameters bf_window=, min */
	/* scontrol show config */
	uint32_t half_life;      /* PriorityDecayHalfLife, seconds */
	uint32_t max_age;        /* PriorityMaxAge, seconds */
	uint32_t calc_period;    /* PriorityCalcPeriod, seconds */
	double weight_age, weight_fs, weight_qos;
	uint16_t damp;           /* FairShareDampeningFactor */
	const char *private_data;    /* PrivateData, e.g. "jobs,usage" */
	const char *priority_flags;
	const char *slurm_user;  /* SlurmUser, e.g. "slurm(64030)" */
	bool safe_limits;        /* AccountingStorageEnforce has "safe" */
	GArray *sprio;           /* mf_wait_sprio_t, in sprio's order */
	GPtrArray *sshare;       /* mf_wait_sshare_t*, in sshare's order */
	GPtrArray *assocs;       /* mf_wait_assoc_t*; NULL: no why-assoc */
	GArray *qos;             /* mf_wait_qos_t; NULL: no why-qos */
	GArray *running;         /* mf_wait_running_t; NULL: none read */
	GArray *parts;           /* mf_wait_part_t; NULL: none read */
	char **groups;           /* the user's groups; NULL: not read */
	double weight_part;      /* PriorityWeightPartition */
} mf_wait_dump_t;

/*
 * Read the dumps of directory DIR for job JOB_ID (a number) into D
 * (zeroed).  Returns 0; 1 when the jobs dump has no such job (errp
 * saying so: not in the cluster, or hidden from the user); or -1 with
 * errp naming the file, its line and what is wrong there (a missing
 * file, a sprio row of the wrong number of columns, a number that is
 * not one, a duration scontrol would not print).  Clear D either way.
 */
int mf_wait_dump_load(const char *dir, const char *job_id,
		      mf_wait_dump_t *d, mf_error_t *errp);

/* Free what D holds; a zeroed one is accepted.  Returns nothing. */
void mf_wait_dump_clear(mf_wait_dump_t *d);

/*
 * Many jobs of one directory, its dumps read once: for each of the job
 * ids IDS (NULL-terminated), a copy of BASE (as mf_wait_dump_load() left
 * it, for any job of DIR) into OUT[i] (zeroed) with that job's line of
 * DIR's jobs dump, found in one pass.  The copies share BASE's arrays and
 * strings: clear each with mf_wait_dump_clear_job(), then BASE with
 * mf_wait_dump_clear().  Returns 0, or -1 with errp naming a job that is
 * not there or the line that is wrong.
 */
int mf_wait_dump_load_jobs(const char *dir, mf_wait_dump_t *base,
			   char **ids, mf_wait_dump_t *out, mf_error_t *errp);

/* Free what a copy of mf_wait_dump_load_jobs() holds of its own (a
 * zeroed one is accepted).  Returns nothing. */
void mf_wait_dump_clear_job(mf_wait_dump_t *d);

/* The count of TRES NAME in a "name=N,..." list S (sshare's GrpTRESMins,
 * GrpTRESRaw, TRESRunMins).  Returns it, or -1 if S has none. */
double mf_wait_tres_count(const char *s, const char *name);

#endif
