/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_out: the renderings of a replay (replay_sides.h): the CSV tables
 * (series, final, jobs, users), the same four as one JSON object, and the
 * SVG of the fair-share factors over time.
 */
#ifndef MFPRIO_REPLAY_OUT_H
#define MFPRIO_REPLAY_OUT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "replay_sides.h"

/* The CSV tables of C to OUT: the series of the users SEL selects, every
 * association at the last tick, each job's priority and rank when it
 * started, the jobs' ranks per user.  Return nothing. */
void mf_replay_csv_series(const mf_rctx_t *c, const bool *sel, FILE *out);
void mf_replay_csv_final(const mf_rctx_t *c, FILE *out);
void mf_replay_csv_jobs(const mf_rctx_t *c, FILE *out);
void mf_replay_csv_users(const mf_rctx_t *c, FILE *out);

/* The replay C of FROM to TO as JSON, the series of the users SEL
 * selects.  Returns nothing. */
void mf_replay_json(const mf_rctx_t *c, const bool *sel, time_t from,
		    time_t to, FILE *out);

/* The fair-share factors of the users SEL selects over time, before and
 * after, as SVG to PATH ("-": stdout).  Returns an exit status. */
int mf_replay_svg(const mf_rctx_t *c, const bool *sel, const char *path);

#endif
