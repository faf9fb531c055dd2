/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user_place: one user's place in the cluster, for the user page of
 * `mfprio report --html --user NAME`, from the dumps `mfprio why JOBID`
 * reads (wait_dump.h): each of the user's pending jobs described as
 * `mfprio why JOBID` describes it (wait_job.h: what holds it, its place
 * in each partition by sprio's rows), and each of the user's
 * associations in sshare with its account's place among its siblings.
 *
 * The user's pending jobs are the lines of the jobs dump whose UserId is
 * NAME and whose JobState is PENDING, in the dump's order.  An account's
 * siblings are the account rows of sshare under the same parent (the
 * nearest row above it that is one level less deep); its rank among them
 * is by LevelFS, highest first (the order Fair Tree serves them in), ties
 * by name; its gap is its effective usage less its normalized shares.
 *
 * Who sees everything: the page is made as an administrator when the
 * dumps were taken by root or the config's SlurmUser (DIR's optional
 * MF_SNAP_WHY_WHOAMI file, "NAME UID", which --live writes), or when the
 * dumps hold what
 * PrivateData would hide from a plain user (another user's sshare row
 * under PrivateData=usage, another user's sprio row under jobs): then the
 * site's PrivateData does not apply to what the page shows.
 *
 * Ownership: an mf_user_place_t owns its dumps and descriptions
 * (mf_user_place_clear()).
 */
#ifndef MFPRIO_USER_PLACE_H
#define MFPRIO_USER_PLACE_H

#include <stdbool.h>

#include <glib.h>

#include "mf_error.h"
#include "wait_dump.h"
#include "wait_job.h"

/* Who took the dumps: "NAME UID" (optional) */
#define MF_SNAP_WHY_WHOAMI "why-whoami"

/* One of the user's pending jobs. */
typedef struct {
	mf_wait_dump_t d;
	mf_wait_t w;                 /* borrows d */
} mf_user_job_t;

/* One of the user's associations and its account's place. */
typedef struct {
	const mf_wait_sshare_t *assoc;   /* the user's row */
	const mf_wait_sshare_t *account; /* its account's row; NULL: none */
	double gap;                  /* account's eff_usage - norm_shares */
	guint rank, siblings;        /* 1-based, by LevelFS; 0: no account */
} mf_user_acct_t;

typedef struct {
	const char *user;            /* borrowed */
	GPtrArray *jobs;             /* mf_user_job_t*, the dump's order */
	mf_wait_dump_t base;         /* the dump read for the accounts: the
				      * user's first job's, else the first
				      * job's of the jobs dump */
	GArray *accts;               /* mf_user_acct_t, sshare's order */
	const char *private_data;    /* the site's, or NULL ("none") */
	bool admin;                  /* see above */
} mf_user_place_t;

/*
 * The place of user USER from the dumps in DIR, into P (zeroed).
 * Returns 0; 1 when USER has neither a job in the jobs dump nor an
 * association in sshare (errp naming USER); -1 with errp for a dump that
 * cannot be read.  Clear P either way.
 */
int mf_user_place_load(const char *dir, const char *user,
		       mf_user_place_t *p, mf_error_t *errp);

/* Free what P holds; a zeroed one is accepted.  Returns nothing. */
void mf_user_place_clear(mf_user_place_t *p);

#endif
