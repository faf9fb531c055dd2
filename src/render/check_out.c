/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "check_out.h"
#include "json_out.h"
#include "priority_json.h"

void mf_check_print_text(FILE *out, const mf_prun_ctx_t *c,
			 const GArray *found)
{
	for (guint i = 0; i < found->len; i++) {
		const mf_finding_t *f = &g_array_index(found, mf_finding_t, i);

		fprintf(out, "%s: %s.\n  fix: %s.\n", f->kind, f->what,
			f->fix);
	}
	if (!found->len)
		fprintf(out, "No finding: %u pending jobs, %u user "
			"associations checked.\n", c->jobs->len,
			c->tree ? c->tree->user_count : 0);
	else
		fprintf(out, "%u finding%s.\n", found->len,
			found->len > 1 ? "s" : "");
}

void mf_check_print_json(FILE *out, const mf_prun_ctx_t *c,
			 const mf_prun_opts_t *o, const GArray *found)
{
	mf_json_t j;

	mf_json_init(&j, out);
	mf_json_begin_object(&j, NULL);
	mf_prun_json_settings(&j, "settings", c, o);
	mf_json_uint(&j, "pending_jobs", c->jobs->len);
	mf_json_begin_array(&j, "findings");
	for (guint i = 0; i < found->len; i++) {
		const mf_finding_t *f = &g_array_index(found, mf_finding_t, i);

		mf_json_begin_object(&j, NULL);
		mf_json_string(&j, "kind", f->kind);
		mf_json_string(&j, "finding", f->what);
		mf_json_string(&j, "fix", f->fix);
		mf_json_end_object(&j);
	}
	mf_json_end_array(&j);
	mf_json_end_object(&j);
	mf_json_finish(&j);
}
