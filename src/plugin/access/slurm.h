/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access/slurm.h: the Slurm headers the plugin needs, chosen for the
 * release it is built against (releases.h), in one place.  The engine
 * includes this and nothing else of Slurm's.
 *
 * slurmctld.h declares the controller's own globals (job_list,
 * cluster_cpus, ...) and functions (find_job_record, lock_slurmctld, ...),
 * which a process other than slurmctld lacks (sshare, a test program):
 * only access/ctld.c names them, as weak references, each behind its own
 * check (ctld.h).  Anywhere else a use of one is a strong reference that
 * fails the plugin's load outside slurmctld, and the build check
 * tests/build/plugin-symbols.sh.
 */
#ifndef MFPRIO_PLUGIN_ACCESS_SLURM_H
#define MFPRIO_PLUGIN_ACCESS_SLURM_H

/*
 * mfprio's config.h (the build directory comes first on the include path,
 * so Slurm's headers that include "config.h" get this one too).  Slurm's
 * headers use nothing from their own config.h that changes a structure's
 * layout; they do need NDEBUG as Debian's build sets it (--disable-debug),
 * or xassert() would call into debug-only code.
 */
#include "config.h"
#ifndef NDEBUG
#define NDEBUG 1
#endif
#define MFPRIO_VERSION PACKAGE_VERSION

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "slurm/slurm_version.h"

#include "src/plugin/access/releases.h"

#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/pack.h"
#include "src/common/read_config.h"
#include "src/common/slurm_protocol_api.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#if MFA_HAS_INTERFACES_DIR
#include "src/interfaces/mcs.h"
#include "src/interfaces/priority.h"
#include "src/interfaces/site_factor.h"
#else
#include "src/common/site_factor.h"
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_priority.h"
#endif
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

/* The names the newer releases use, for the older ones that lack them
 * (the engine writes only these). */
#if !MFA_HAS_LIST_T
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
typedef struct job_details job_details_t;
#endif

/* assoc_mgr's highest association priority (libslurmfull defines it; its
 * header does not declare it). */
extern uint32_t g_assoc_max_priority;

#endif
