/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <inttypes.h>
#include <math.h>

#include "level_fs.h"
#include "sshare_fmt.h"

const char *const mf_sshare_header =
	"Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|"
	"FairShare|LevelFS";
const char *const mf_sshare_header_part =
	"Account|User|Partition|RawShares|NormShares|RawUsage|NormUsage|"
	"EffectvUsage|FairShare|LevelFS";

static void _print_double(FILE *out, double v, bool last);

/* sshare prints unset values (NaN here; Slurm's NO_VAL and INFINITE
 * markers there) as an empty field, others with "%f". */
static void _print_double(FILE *out, double v, bool last)
{
	if (!isnan(v) && v != (double) MF_LEVEL_FS_UNSET &&
	    v != 4294967295.0)
		fprintf(out, "%f", v);
	fputs(last ? "\n" : "|", out);
}

void mf_sshare_print(FILE *out, const mf_tree_t *tree, mf_fs_algo_t algo,
		     bool noheader)
{
	mf_sshare_opts_t o = { .noheader = noheader };

	mf_sshare_print_opts(out, tree, algo, &o);
}

void mf_sshare_print_opts(FILE *out, const mf_tree_t *tree,
			  mf_fs_algo_t algo, const mf_sshare_opts_t *o)
{
	static const mf_sshare_opts_t dflt = { .noheader = false };

	if (!o)
		o = &dflt;
	if (!o->noheader)
		fprintf(out, "%s\n", o->partition ? mf_sshare_header_part :
			mf_sshare_header);

	for (guint i = 0; i < tree->order->len; i++) {
		const mf_assoc_t *a = g_ptr_array_index(tree->order, i);
		bool parent_fs = mf_assoc_is_parent_fs(a);

		if (o->keep && !o->keep(a, o->keep_arg))
			continue;
		fprintf(out, "%*s%s|%s|", a->depth, "", a->acct,
			a->user ? a->user : "");
		if (o->partition)
			fprintf(out, "%s|", a->partition ? a->partition : "");
		if (a == tree->root)
			fputs("|", out);
		else if (parent_fs)
			fputs("parent|", out);
		else
			fprintf(out, "%" PRIu32 "|", a->shares_raw);
		_print_double(out, a->shares_norm, false);
		fprintf(out, "%" PRIu64 "|", (uint64_t) a->usage_raw);
		_print_double(out, (double) a->usage_norm, false);
		_print_double(out, (double) a->usage_efctv, false);
		if (algo == MF_FS_FAIR_TREE && !a->user)
			_print_double(out, NAN, false);
		else
			_print_double(out, a->fs_factor, false);
		_print_double(out, parent_fs ? NAN : (double) a->level_fs,
			      true);
	}
}
