/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_release: the Slurm release a command imitates (--release, else
 * what the snapshot says), and what said so.
 */
#ifndef MFPRIO_SLURM_RELEASE_H
#define MFPRIO_SLURM_RELEASE_H

#include "release.h"
#include "slurm_conf.h"

/*
 * When --release is not given, the first of these that holds a known
 * release: a SLURM_VERSION setting in the slurm.conf given (the key
 * `scontrol show config` prints the version under), a file named
 * MF_RELEASE_VERSION_FILE in that file's directory, else MF_RELEASE_DEFAULT.
 */
#define MF_RELEASE_VERSION_FILE "slurm-version"

typedef struct {
	mf_release_t release;
	char *source;            /* where it comes from, for --explain: "from
				  * --release", "from SLURM_VERSION=23.11.11
				  * at FILE:LINE", "from FILE:LINE", "the
				  * default: ..."; NULL until set */
} mf_release_pick_t;

/* Set REL from --release ARG.  Returns 0, or -1 after printing
 * "mfprio: --release: ..." (a usage error). */
int mf_release_pick_option(mf_release_pick_t *rel, const char *arg);

/*
 * If --release did not set REL: take the release from CONF (may be NULL)
 * or from the version file next to PATH (may be NULL), else the default.
 * A version that is no known release is warned about and passed over.
 */
void mf_release_pick_detect(mf_release_pick_t *rel, const mf_conf_t *conf,
			   const char *path);

void mf_release_pick_clear(mf_release_pick_t *rel);

#endif
