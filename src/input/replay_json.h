/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_json: what `mfprio replay --json` printed, read back for the
 * History section of `mfprio report --history FILE`: its period (from,
 * to), the file of sacct records it replayed (history), each side's
 * fair-share algorithm (before.fairshare, after.fairshare) and its
 * "series": per user association, the sample times and its fair-share
 * factor at each under the settings before and after.  The other
 * members (final, jobs, users, note) are not read.
 *
 * json-glib's JsonParser reads the whole file (a replay's series are
 * about 500 samples a user).  Errors name the file: of the parse error
 * with its line, or of the member that is missing or of the wrong type
 * (a series by its index and account/user), and a series whose three
 * arrays differ in length.  A "series" array that is empty is no error
 * (replay --show of nobody): the reader gives no series.
 *
 * Ownership: an mf_rjson_t owns everything in it (mf_rjson_clear()).
 */
#ifndef MFPRIO_REPLAY_JSON_H
#define MFPRIO_REPLAY_JSON_H

#include <stdint.h>

#include <glib.h>

#include "mf_error.h"

/* One user association's series. */
typedef struct {
	char *acct, *user;
	guint n;                     /* samples */
	int64_t *time;               /* seconds since the epoch */
	double *before, *after;      /* NAN: null in the file */
} mf_rjson_series_t;

typedef struct {
	char *history;               /* the sacct file replayed (may be NULL) */
	int64_t from, to;
	char *algo_before, *algo_after;
	GPtrArray *series;           /* mf_rjson_series_t*, the file's order */
} mf_rjson_t;

/* Read PATH into R (zeroed).  Returns 0, or -1 with ERRP naming PATH
 * (see above); clear R either way. */
int mf_rjson_load(mf_rjson_t *r, const char *path, mf_error_t *errp);

void mf_rjson_clear(mf_rjson_t *r);

#endif
