/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user_page: the page of `mfprio report --html --user NAME`: one
 * self-contained HTML file (inline CSS, no script) for one user (the
 * place of user_place.h): a table of the user's pending jobs, a row per
 * job and partition with its rank there (1 + the jobs ahead of it by
 * sprio's rows: a higher priority, or the same and a lower job id), of
 * how many, its priority and what holds it; then the user's
 * associations with their accounts' shares, usage, LevelFS, gap and
 * rank among their siblings; then, for each job, the words of `mfprio
 * why JOBID` (wait_out.h) as they are.
 *
 * PrivateData: when the dumps were taken as an administrator at a site
 * with PrivateData (jobs, usage or users), the first line of the page
 * (the body's first element, id "admin-banner") says that it shows
 * every user's usage; when they were taken as a plain user, a note (id
 * "private") says what slurmctld hid, which is absent from the page.
 *
 * Rows carry their figures as data- attributes (data-job,
 * data-partition, data-rank, data-of) for checks to read.
 */
#ifndef MFPRIO_USER_PAGE_H
#define MFPRIO_USER_PAGE_H

#include <stdio.h>

#include "user_place.h"

/* Write user place P's page to OUT; SOURCE says where the dumps came
 * from.  Returns 0, or -1 if a write failed. */
int mf_user_page_html(FILE *out, const mf_user_place_t *p,
		      const char *source);

#endif
