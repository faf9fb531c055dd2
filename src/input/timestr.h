/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timestr: Slurm's time strings, as slurm.conf uses them for
 * PriorityDecayHalfLife, PriorityMaxAge, PriorityCalcPeriod and a
 * partition's MaxTime:
 *
 *   MIN                  minutes                 "30"
 *   MIN:SEC              minutes and seconds     "30:00"
 *   HR:MIN:SEC           hours ...               "2:00:00"
 *   DAYS-HR              days and hours          "7-0", "14-0" ("7-": days)
 *   DAYS-HR:MIN          ...                     "1-12:30"
 *   DAYS-HR:MIN:SEC      ...                     "1-00:00:30"
 *   UNLIMITED, INFINITE, -1                      no limit
 *
 * Only digits, one '-' and up to two ':' are allowed (no ':' before the
 * '-', no sign, no spaces); anything else is a bad string.  Fields are not
 * range-checked ("90" minutes is 1.5 hours), as in Slurm.
 *
 * In minutes, seconds round up to the next whole minute ("0:30" is 1
 * minute), as slurm.conf's readers do; the *_secs forms of the settings
 * are those minutes times 60.
 */
#ifndef MFPRIO_TIMESTR_H
#define MFPRIO_TIMESTR_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "mf_error.h"

/*
 * Parse S into *SECS (seconds) and *UNLIMITED (true for UNLIMITED,
 * INFINITE or -1; *SECS is then 0).  Returns 0, or -1 with errp naming the
 * string, for NULL, empty, malformed strings and values beyond 2^31-1
 * seconds.
 */
int mf_timestr_secs(const char *s, uint32_t *secs, bool *unlimited,
		    mf_error_t *errp);

/*
 * Parse S into *MINS, seconds rounded up to the next minute; UNLIMITED
 * gives 0xffffffff (Slurm's INFINITE).  Returns 0, or -1 with errp naming
 * the string.
 */
int mf_timestr_mins(const char *s, uint32_t *mins, mf_error_t *errp);

/*
 * A point in time S as scontrol prints it and sbatch --begin takes it,
 * read in the local time zone, into *OUT:
 *
 *   1700000000               seconds since the epoch
 *   2023-11-14T22:13:20      YYYY-MM-DD[THH:MM[:SS]] (a day alone: 00:00)
 *   now, now+2hours, now-1d  REF moved by N seconds, minutes, hours, days
 *                            or weeks (any prefix of the unit; none:
 *                            seconds)
 *   today, tomorrow          the start of that day [THH:MM[:SS]]
 *   midnight, noon, 14:30    the next such time after REF (today if still
 *                            to come by the minute, else tomorrow)
 *
 * REF stands for "now".  Returns 0, or -1 with errp quoting S and the
 * forms taken.
 */
int mf_time_point(const char *s, time_t ref, time_t *out, mf_error_t *errp);

#endif
