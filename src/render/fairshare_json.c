/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "fairshare_json.h"
#include "sshare_fmt.h"
#include "json_out.h"
#include "level_fs.h"
#include "priority_flags.h"

/* V, or null where sshare prints nothing (sshare_fmt.c's rule). */
static void _figure(mf_json_t *j, const char *key, double v)
{
	if (isnan(v) || v == (double)MF_LEVEL_FS_UNSET || v == 4294967295.0)
		mf_json_null(j, key);
	else
		mf_json_double(j, key, v);
}

void mf_fairshare_json(FILE *out, const mf_tree_t *tree,
		       const mf_fs_json_settings_t *s)
{
	char *flags = mf_priority_flags_string(s->flags);
	char **names = g_strsplit(flags, ",", -1);
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_json_string(&j, "command", "fairshare");
	mf_json_begin_object(&j, "settings");
	mf_json_begin_object(&j, "inputs");
	mf_json_string(&j, "snapshot", s->snapshot);
	mf_json_string(&j, "assoc", s->assoc);
	mf_json_string(&j, "usage", s->usage);
	mf_json_string(&j, "conf", s->conf);
	mf_json_end_object(&j);
	mf_json_string(&j, "release", s->release);
	mf_json_string(&j, "release_source", s->release_source);
	mf_json_begin_array(&j, "flags");
	for (int i = 0; names[i]; i++)
		if (*names[i])
			mf_json_string(&j, NULL, names[i]);
	mf_json_end_array(&j);
	mf_json_string(&j, "fairshare_algorithm", mf_fs_algo_name(s->fs.algo));
	mf_json_uint(&j, "fairshare_dampening", s->fs.damp);
	mf_json_end_object(&j);
	g_strfreev(names);
	g_free(flags);

	mf_json_begin_array(&j, "rows");
	for (guint i = 0; i < tree->order->len; i++) {
		const mf_assoc_t *a = g_ptr_array_index(tree->order, i);
		bool parent_fs = mf_assoc_is_parent_fs(a);

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "account", a->acct);
		mf_json_string(&j, "user", a->user);
		mf_json_string(&j, "partition", a->partition);
		mf_json_string(&j, "parent", a->user ? NULL : a->parent_acct);
		mf_json_int(&j, "depth", a->depth);
		if (a == tree->root || parent_fs)
			mf_json_null(&j, "raw_shares");
		else
			mf_json_uint(&j, "raw_shares", a->shares_raw);
		mf_json_bool(&j, "fairshare_parent", parent_fs);
		_figure(&j, "norm_shares", a->shares_norm);
		mf_json_double(&j, "raw_usage", (double)a->usage_raw);
		_figure(&j, "norm_usage", (double)a->usage_norm);
		_figure(&j, "effective_usage", (double)a->usage_efctv);
		_figure(&j, "fairshare",
			mf_sshare_fs_empty(a, s->fs.algo, s->release_num) ?
			NAN : a->fs_factor);
		_figure(&j, "level_fs", parent_fs ? NAN : (double)a->level_fs);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}
