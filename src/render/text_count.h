/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text_count: the singular or the plural of a word for a count, as the
 * sentences of `mfprio why` print it ("1 job is", "2 jobs are").
 */
#ifndef MFPRIO_TEXT_COUNT_H
#define MFPRIO_TEXT_COUNT_H

/* ONE if N, printed as a whole number, is 1, else MANY.  Returns it. */
const char *mf_text_n(double n, const char *one, const char *many);

#endif
