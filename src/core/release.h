/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * release: which Slurm release's priority/multifactor the core imitates,
 * where releases differ in what they compute.
 *
 * A release is MF_RELEASE(major, minor), e.g. MF_RELEASE(23, 2) for 23.02;
 * the micro version never changes a formula.  What follows a release:
 *   - job size (mf_job_size_factor): from 23.02 the factor is 0 when the
 *     cluster has no node or no CPU, and under PriorityFavorSmall a job
 *     asking for more nodes than the cluster has gets a node term of 0
 *     (22.05: the unsigned difference, a huge share held at 1.0).  The
 *     node count is the live nodes' (slurmctld's active_node_record_count)
 *     from 23.02, all node slots' before: the caller's business.
 *   - sshare's FairShare (mf_release_sshare_fs_users_only): from 25.11
 *     sshare prints it on user rows only, under every algorithm; before,
 *     on user rows only under Fair Tree, and on every row (the classic
 *     factor of the row's usage and shares) under NO_FAIR_TREE and
 *     DEPTH_OBLIVIOUS.
 * Everything else the core computes is the same in every release of
 * release/releases.tsv.
 * Pure functions; no logging.
 */
#ifndef MFPRIO_RELEASE_H
#define MFPRIO_RELEASE_H

#include <stdbool.h>
#include <stdint.h>

#include "mf_error.h"

typedef uint32_t mf_release_t;

#define MF_RELEASE(major, minor) ((mf_release_t)((major) * 100 + (minor)))
/* the oldest release supported, and the default where none is known */
#define MF_RELEASE_DEFAULT MF_RELEASE(22, 5)

/*
 * Parse "YY.MM" or "YY.MM.P" (22.05, 23.11.11) into *OUT.  Returns 0, or -1
 * with ERRP filled for text that is no version or a release mfprio does not
 * know (the known ones are listed in the message).
 */
int mf_release_parse(const char *text, mf_release_t *out, mf_error_t *errp);

/* "23.02" for MF_RELEASE(23, 2), into BUF (at least 8 bytes); returns BUF. */
const char *mf_release_name(mf_release_t rel, char *buf);

/* Is REL one of the releases mfprio supports (release/releases.tsv)? */
bool mf_release_known(mf_release_t rel);

/* Does REL compute the job size factor the 23.02 way (see above)? */
bool mf_release_js_guarded(mf_release_t rel);

/* Does REL's sshare leave FairShare empty on root and account rows under
 * every algorithm (see above)? */
bool mf_release_sshare_fs_users_only(mf_release_t rel);

#endif
