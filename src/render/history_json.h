/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * history_json: the accounts' figures over time (fs_history.h) as the
 * JSON object `mfprio report --html --history DIR` embeds in its page
 * (or, for a FILE of `mfprio replay --json`, mf_history_replay_json's):
 *
 *   kind         "snapshots"
 *   dir          DIR as given
 *   found        the snapshots found in it (time files read)
 *   max_points   MF_FSHIST_MAX_POINTS: of more, that many were read
 *   snapshots    [{name, time (seconds since the epoch), algorithm}]
 *                in time order: those read
 *   skipped      [{name, why}]: those left out, name order
 *   accounts     [{account, parent, norm_shares, effective_usage,
 *                raw_usage, level_fs, fairshare}], rank order (the
 *                page's own gap ranking first); each figure an array
 *                aligned with snapshots, null where the account has
 *                none in that snapshot
 *
 * The figures are written to 6 significant digits (sshare prints 6
 * decimals; a page of 200 accounts over 200 snapshots stays near 1 MB).
 */
#ifndef MFPRIO_HISTORY_JSON_H
#define MFPRIO_HISTORY_JSON_H

#include <stdio.h>

#include "fs_history.h"
#include "replay_json.h"

/* Write H to OUT (kind "snapshots").  Returns nothing (OUT's error flag
 * tells). */
void mf_history_json(FILE *out, const mf_fshist_t *h);

/* The users whose series a page holds at most (the file's first). */
#define MF_HISTORY_MAX_USERS 200

/* Write the replay R, read from PATH, to OUT (kind "replay"): file
 * (PATH), history (the sacct file it replayed), from, to, before and
 * after (each side's algorithm), max_points, series_in_file, and users:
 * [{account, user, time, fs_before, fs_after}], the file's order, its
 * first MF_HISTORY_MAX_USERS, each of at most MF_FSHIST_MAX_POINTS
 * samples (of more, that many spread evenly), figures to 6 significant
 * digits.  Returns nothing. */
void mf_history_replay_json(FILE *out, const mf_rjson_t *r,
			    const char *path);

#endif
