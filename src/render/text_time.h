/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text_time: durations and points in time as the sentences of `mfprio
 * why` print them.
 */
#ifndef MFPRIO_TEXT_TIME_H
#define MFPRIO_TEXT_TIME_H

#include <time.h>

/* S seconds as "3 d 4 h 5 min" (minutes rounded up; "N s" under a
 * minute).  Returns a new string (g_free()). */
char *mf_text_span(double s);

/* T as local "YYYY-MM-DDTHH:MM:SS" (the seconds since the epoch if it
 * cannot be) into BUF.  Returns nothing. */
void mf_text_time(time_t t, char buf[32]);

#endif
