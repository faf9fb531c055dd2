/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sshare_tres: the two TRES columns of `sshare -l` (GrpTRESMins: each
 * association's GrpTRESMins limits; TRESRunMins: the minutes its running
 * jobs still hold of each TRES), per association, read from
 * `scontrol show assoc_mgr flags=assoc` (assoc_mgr.h), the one dump that
 * has them.  Rows are found by account, user ("" for an account's own
 * row) and partition ("" for none).
 */
#ifndef MFPRIO_SSHARE_TRES_H
#define MFPRIO_SSHARE_TRES_H

#include "mf_error.h"

typedef struct mf_sshare_tres mf_sshare_tres_t;

/*
 * Read the assoc_mgr dump PATH.  Returns a new table (free with
 * mf_sshare_tres_free), or NULL with errp naming PATH or PATH:LINE.
 */
mf_sshare_tres_t *mf_sshare_tres_load(const char *path, mf_error_t *errp);

/* The cells of the row ACCT, USER (NULL or "": the account's own row),
 * PARTITION (NULL or "": none); each NULL when T is NULL, the dump has no
 * such record or the record had no such key. */
const char *mf_sshare_tres_grp_mins(const mf_sshare_tres_t *t,
				    const char *acct, const char *user,
				    const char *partition);
const char *mf_sshare_tres_run_mins(const mf_sshare_tres_t *t,
				    const char *acct, const char *user,
				    const char *partition);

/* Free; NULL is accepted. */
void mf_sshare_tres_free(mf_sshare_tres_t *t);

#endif
