/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_sprio: sprio's list of factors: which jobs it lists (mfp_jobs.h),
 * who may see them (mfa_job_visible), and the figures of each partition
 * and QOS of a job; the objects' shape is the accessors'
 * (src/plugin/access/sprio.h).
 */
#ifndef MFPRIO_PLUGIN_MFP_SPRIO_H
#define MFPRIO_PLUGIN_MFP_SPRIO_H

#include "src/plugin/access/access.h"

/*
 * The list sprio asks for, in the release's shape, for user UID; REQ is
 * sprio's request (22.05 to 23.11; NULL from 24.05, where slurmctld
 * filters).  Takes slurmctld's job read lock itself where the release's
 * caller does not hold it.  Returns a new list (the caller's), or NULL
 * when there is nothing to show.
 */
list_t *mfp_factors_list(void *req, uid_t uid);

#endif
