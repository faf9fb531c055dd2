/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assoc_mgr: a reader of `scontrol show assoc_mgr` output, the controller's
 * own view of associations and QOS.  What mfprio takes from it is usage
 * with more digits than sshare prints (UsageRaw with two decimals for an
 * association, in full for a QOS).
 *
 * The dump is a list of records, each starting on a line that is not
 * indented: `ClusterName=...` starts an association, `QOS=...` a QOS;
 * indented lines that follow belong to the record.  With `scontrol -o`
 * a record is one line; both forms are read.  Other unindented lines
 * (section titles, `UserName=` user records) end the record and are
 * skipped, as are words without '=' (QOS limit titles) and keys not read
 * here.  The first occurrence of a key in a record wins.
 *
 * Keys read (Slurm 22.05 to 25.x print them so):
 *   association: Account, UserName (NAME(UID) or empty), Partition,
 *     ParentAccount (NAME(ID) or empty), ID, Priority,
 *     SharesRaw/Norm/Level/Factor (the first figure),
 *     UsageRaw/Norm/Efctv (the first figure), GrpTRESMins and
 *     GrpTRESRunMins (NAME=LIMIT(USED),...; LIMIT "N" when unset)
 *   QOS: QOS (NAME(ID)), Priority, UsageRaw
 *
 * Errors name FILE:LINE: a NUL byte, an association record without
 * Account, a figure that is not a number (UsageRaw must be finite and
 * >= 0; ID, Priority and SharesRaw whole numbers); one in the last line
 * of a text that ends without a newline says that the dump may have been
 * cut short there.
 */
#ifndef MFPRIO_ASSOC_MGR_H
#define MFPRIO_ASSOC_MGR_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "mf_error.h"

typedef struct {
	char *account;
	char *user;              /* "" for an account's own record */
	char *partition;         /* "" if none */
	char *parent;            /* ParentAccount's name; "" if none */
	uint32_t id;
	uint32_t priority;
	uint32_t shares_raw;     /* as printed (0x7fffffff: parent) */
	long double usage_raw;
	bool has_usage;          /* the record had UsageRaw */
	/* as sshare's GrpTRESMins prints them: NAME=LIMIT of the TRES with
	 * a limit, comma-separated ("" for none; NULL: no GrpTRESMins) */
	char *grp_tres_mins;
	/* as sshare's TRESRunMins prints them: NAME=USED of every TRES of
	 * GrpTRESRunMins (NULL: the record had none) */
	char *tres_run_mins;
	int line;                /* where the record starts */
} mf_amgr_assoc_t;

typedef struct {
	char *name;
	uint32_t priority;
	long double usage_raw;
	bool has_usage;
	int line;
} mf_amgr_qos_t;

typedef struct {
	char *file;              /* the name given to load/parse */
	GPtrArray *assocs;       /* mf_amgr_assoc_t*, in file order */
	GPtrArray *qos;          /* mf_amgr_qos_t*, in file order */
	int cut_line;            /* the last line when the text ends without
				  * a newline (a dump cut short?), else 0 */
} mf_amgr_t;

/*
 * Read PATH.  Returns a new mf_amgr_t (free with mf_amgr_free), or NULL
 * with errp naming PATH (cannot be read) or PATH:LINE (see above).
 */
mf_amgr_t *mf_amgr_load(const char *path, mf_error_t *errp);

/* Parse TEXT as if read from a file named NAME. */
mf_amgr_t *mf_amgr_parse(const char *text, const char *name,
			 mf_error_t *errp);

/* Whether the record starting at LINE is the last of M and the text ends
 * in the middle of a line: the record may have been cut short. */
bool mf_amgr_record_cut(const mf_amgr_t *m, int line);

/* Free; NULL is accepted. */
void mf_amgr_free(mf_amgr_t *m);

/* Raw usage S as a dump writes it: a finite number >= 0, with or without
 * a fraction, into *OUT.  Returns 0, or -1 (*OUT untouched). */
int mf_amgr_parse_usage(const char *s, long double *out);

#endif
