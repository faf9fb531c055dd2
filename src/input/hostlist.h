/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostlist: Slurm's compact host lists, as NodeName= and a partition's
 * Nodes= write them: comma-separated names, each with any number of
 * bracketed ranges, "n[01-04,7]", "rack[1-2]-n[1-3]" (zero padding kept).
 */
#ifndef MFPRIO_HOSTLIST_H
#define MFPRIO_HOSTLIST_H

#include <glib.h>

#include "mf_error.h"

/*
 * Expand S into a new array of names (caller frees with
 * g_ptr_array_unref), in order, duplicates kept.  Returns NULL with errp
 * naming S for an unbalanced bracket, an empty or reversed range, or more
 * than 262,144 names (counted before any name is made).
 */
GPtrArray *mf_hostlist_expand(const char *s, mf_error_t *errp);

#endif
