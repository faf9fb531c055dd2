/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access: the accessors into slurmctld's structures, each hiding one
 * difference between Slurm releases behind one name.  The bottom of the
 * plugin: the files here call nothing of the engine or the entry points
 * above them (where the engine must act per item, it passes a function,
 * as to mfa_job_each_qos()).
 *
 * The plugin's layers, from the top:
 *   - src/plugin/entry/: family_*.c export one release family's whole
 *     surface (entry_common.c what every release shares) and call the
 *     engine's mfp_entry.h;
 *   - src/plugin/engine/: what is computed, when, and under which locks,
 *     the same for every release;
 *   - src/plugin/access/ (this directory), the only code besides the
 *     entry files that knows the release it is built for (releases.h, from
 *     SLURM_VERSION_NUMBER):
 *       - factors.c keeps a job's weighted factors and its per-partition
 *         (and, from 24.11, per-QOS) priorities where that release's
 *         slurmctld and sprio read them;
 *       - sprio.c (sprio.h) makes sprio's objects in that release's shape;
 *       - compat.c wraps the few slurmctld calls whose name or signature
 *         moved;
 *       - ctld.c is the one file that names slurmctld's own globals and
 *         functions, each a weak reference read behind its own check, so
 *         that the .so loads and runs outside slurmctld too;
 *   - src/core/: the formulas, with no Slurm header.
 *
 * This header brings the layer's interface whole (the Slurm headers and
 * every accessor); each module has its own header with its contract.
 * Locking is the caller's, as stated per function; nothing here takes a
 * slurmctld lock except where said.  Nothing here fails: a job without
 * what a function needs is left as it is.
 */
#ifndef MFPRIO_PLUGIN_ACCESS_ACCESS_H
#define MFPRIO_PLUGIN_ACCESS_ACCESS_H

#include "src/plugin/access/slurm.h"
#include "src/plugin/access/compat.h"
#include "src/plugin/access/ctld.h"
#include "src/plugin/access/factors.h"

#endif
