/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "level_fs.h"
#include "sshare_fmt.h"

/* sshare's header names, in mf_sshare_col_t's order. */
static const char *const _names[MF_SSHARE_NCOLS] = {
	"Account", "User", "Partition", "RawShares", "NormShares",
	"RawUsage", "NormUsage", "EffectvUsage", "FairShare", "LevelFS",
	"GrpTRESMins", "TRESRunMins",
};

static void _add(mf_sshare_cols_t *c, mf_sshare_col_t col);
static void _print_double(FILE *out, double v);
static void _print_cell(FILE *out, const mf_tree_t *tree,
			const mf_assoc_t *a, mf_sshare_col_t col,
			mf_fs_algo_t algo, const mf_sshare_opts_t *o);

static void _add(mf_sshare_cols_t *c, mf_sshare_col_t col)
{
	if (c->n < MF_SSHARE_MAX_COLS)
		c->col[c->n++] = col;
}

void mf_sshare_cols_default(mf_sshare_cols_t *c, mf_fs_algo_t algo,
			    bool partition)
{
	c->n = 0;
	_add(c, MF_SSHARE_ACCOUNT);
	_add(c, MF_SSHARE_USER);
	if (partition)
		_add(c, MF_SSHARE_PARTITION);
	for (mf_sshare_col_t i = MF_SSHARE_RAW_SHARES;
	     i <= MF_SSHARE_FAIRSHARE; i++)
		_add(c, i);
	/* LevelFS is Fair Tree's figure: sshare -l shows it there only */
	if (algo == MF_FS_FAIR_TREE)
		_add(c, MF_SSHARE_LEVEL_FS);
	_add(c, MF_SSHARE_GRP_TRES_MINS);
	_add(c, MF_SSHARE_TRES_RUN_MINS);
}

int mf_sshare_cols_parse(mf_sshare_cols_t *c, const char *list,
			 mf_error_t *errp)
{
	char **words = g_strsplit(list, ",", -1);
	int rc = 0;

	c->n = 0;
	for (int i = 0; words[i] && !rc; i++) {
		size_t len = strlen(words[i]);
		int found = -1, hits = 0;

		for (int k = 0; k < MF_SSHARE_NCOLS && len; k++) {
			if (!g_ascii_strcasecmp(words[i], _names[k])) {
				found = k;
				hits = 1;
				break;
			}
			if (!g_ascii_strncasecmp(words[i], _names[k], len)) {
				found = k;
				hits++;
			}
		}
		if (hits != 1)
			rc = mf_errprintf(errp, "-o: '%s' is %s column mfprio "
					  "prints (%s%s)", words[i],
					  hits ? "more than one" : "no",
					  "Account, User, Partition, RawShares,"
					  " NormShares, RawUsage, NormUsage, ",
					  "EffectvUsage, FairShare, LevelFS, "
					  "GrpTRESMins, TRESRunMins");
		else if (c->n == MF_SSHARE_MAX_COLS)
			rc = mf_errprintf(errp, "-o: more than %d columns",
					  MF_SSHARE_MAX_COLS);
		else
			_add(c, (mf_sshare_col_t) found);
	}
	g_strfreev(words);
	if (!rc && !c->n)
		rc = mf_errprintf(errp, "-o: no column named");
	return rc;
}

/* sshare prints unset values (NaN here; Slurm's NO_VAL and INFINITE
 * markers there) as an empty field, others with "%f". */
static void _print_double(FILE *out, double v)
{
	if (!isnan(v) && v != (double) MF_LEVEL_FS_UNSET &&
	    v != 4294967295.0)
		fprintf(out, "%f", v);
}

bool mf_sshare_fs_empty(const mf_assoc_t *a, mf_fs_algo_t algo,
			mf_release_t rel)
{
	return !a->user && (algo == MF_FS_FAIR_TREE ||
			    mf_release_sshare_fs_users_only(rel));
}

/* A's cell of column COL, without separator. */
static void _print_cell(FILE *out, const mf_tree_t *tree,
			const mf_assoc_t *a, mf_sshare_col_t col,
			mf_fs_algo_t algo, const mf_sshare_opts_t *o)
{
	bool parent_fs = mf_assoc_is_parent_fs(a);
	const char *s;

	switch (col) {
	case MF_SSHARE_ACCOUNT:
		fprintf(out, "%*s%s", a->depth, "", a->acct);
		break;
	case MF_SSHARE_USER:
		fputs(a->user ? a->user : "", out);
		break;
	case MF_SSHARE_PARTITION:
		fputs(a->partition ? a->partition : "", out);
		break;
	case MF_SSHARE_RAW_SHARES:
		if (parent_fs)
			fputs("parent", out);
		else if (a != tree->root)
			fprintf(out, "%" PRIu32, a->shares_raw);
		break;
	case MF_SSHARE_NORM_SHARES:
		_print_double(out, a->shares_norm);
		break;
	case MF_SSHARE_RAW_USAGE:
		fprintf(out, "%" PRIu64, (uint64_t) a->usage_raw);
		break;
	case MF_SSHARE_NORM_USAGE:
		_print_double(out, (double) a->usage_norm);
		break;
	case MF_SSHARE_EFFECTV_USAGE:
		_print_double(out, (double) a->usage_efctv);
		break;
	case MF_SSHARE_FAIRSHARE:
		if (!mf_sshare_fs_empty(a, algo, o->release))
			_print_double(out, a->fs_factor);
		break;
	case MF_SSHARE_LEVEL_FS:
		if (!parent_fs)
			_print_double(out, (double) a->level_fs);
		break;
	case MF_SSHARE_GRP_TRES_MINS:
	case MF_SSHARE_TRES_RUN_MINS:
		if (o->tres && (s = o->tres(a, col, o->tres_arg)))
			fputs(s, out);
		break;
	case MF_SSHARE_NCOLS:
		break;
	}
}

void mf_sshare_print(FILE *out, const mf_tree_t *tree, mf_fs_algo_t algo,
		     const mf_sshare_opts_t *o)
{
	mf_sshare_cols_t dflt;
	const mf_sshare_cols_t *c = o->cols;

	if (!c) {
		mf_sshare_cols_default(&dflt, algo, o->partition);
		c = &dflt;
	}
	if (!o->noheader)
		for (int k = 0; k < c->n; k++)
			fprintf(out, "%s%s", _names[c->col[k]],
				k + 1 < c->n ? "|" : "\n");
	for (guint i = 0; i < tree->order->len; i++) {
		const mf_assoc_t *a = g_ptr_array_index(tree->order, i);

		if (o->keep && !o->keep(a, o->keep_arg))
			continue;
		for (int k = 0; k < c->n; k++) {
			_print_cell(out, tree, a, c->col[k], algo, o);
			fputs(k + 1 < c->n ? "|" : "\n", out);
		}
	}
}
