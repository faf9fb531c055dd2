/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qos_input: the priorities `mfprio priority` reads from sacctmgr:
 *
 *   QOS file:    sacctmgr -P -n show qos format=Name,Priority
 *   assoc priority file (optional):
 *                sacctmgr -P -n show assoc format=Account,User,Priority
 */
#ifndef MFPRIO_QOS_INPUT_H
#define MFPRIO_QOS_INPUT_H

#include <glib.h>

#include "mf_error.h"

/*
 * Read the QOS file PATH into a new table name -> priority
 * (GUINT_TO_POINTER); free with g_hash_table_unref.  Returns NULL with errp
 * naming FILE:LINE for a line that is not NAME|PRIORITY[|...], a priority
 * that is not a whole number, or a QOS listed twice, and naming FILE for
 * a file with no QOS (sacctmgr lists normal at least).  An empty priority
 * is 0.
 */
GHashTable *mf_qos_load(const char *path, mf_error_t *errp);

/*
 * Read the association priority file PATH into a new table
 * "ACCOUNT\nUSER" -> priority (GUINT_TO_POINTER; user "" for accounts).
 * An empty priority is 0 (unset).  Returns NULL with errp naming FILE:LINE
 * on a malformed line (an account indented as sshare's tree is: the usage
 * dump given instead), and naming FILE for a file with no association.
 */
GHashTable *mf_assoc_prio_load(const char *path, mf_error_t *errp);

#endif
