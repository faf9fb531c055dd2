/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * markup: text written into XML or HTML (the SVG pictures, the page of
 * mfprio report), once for all of them.
 */
#ifndef MFPRIO_MARKUP_H
#define MFPRIO_MARKUP_H

#include <stdio.h>

/* Write S (NULL: nothing) to OUT with &, <, > and " as entities and each
 * control character (below U+0020, which XML 1.0 does not allow) as '?'.
 * Returns nothing. */
void mf_markup_text(FILE *out, const char *s);

#endif
