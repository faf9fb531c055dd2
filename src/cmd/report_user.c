/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfprio report --html FILE --user NAME: one user's page (user_page.h)
 * from the dumps of `mfprio why JOBID` in --snapshot DIR, or taken live
 * by the caller's own commands (why_live.h) with every job the caller
 * may see.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "cmd.h"
#include "exit_status.h"
#include "user_page.h"
#include "user_place.h"
#include "why_live.h"

int cmd_report_user_dump(const char *dir)
{
	char *who, *path;
	int rc = mf_why_live_dump(dir, NULL);

	if (rc)
		return rc;
	who = g_strdup_printf("%s %u\n", g_get_user_name(),
			      (unsigned) getuid());
	path = g_build_filename(dir, MF_SNAP_WHY_WHOAMI, NULL);
	if (!g_file_set_contents(path, who, -1, NULL)) {
		mf_print_error("report: cannot write %s", path);
		rc = MF_EXIT_INPUT;
	}
	g_free(path);
	g_free(who);
	return rc;
}

int cmd_report_user(const char *dir, bool live, const char *user,
		    const char *html)
{
	mf_user_place_t p = { 0 };
	mf_error_t err = { { 0 } };
	char *text = NULL, *src;
	size_t len = 0;
	GError *gerr = NULL;
	FILE *m;
	int rc = mf_user_place_load(dir, user, &p, &err);

	if (rc) {
		mf_print_error("report: --user %s: %s", user, err.text);
		mf_user_place_clear(&p);
		return rc > 0 ? MF_EXIT_USAGE : MF_EXIT_INPUT;
	}
	src = live ? g_strdup("the live cluster, as seen by its caller "
			      "(mfprio report --live)") :
		     g_strdup_printf("the dumps of %s", dir);
	m = open_memstream(&text, &len);
	rc = !m || mf_user_page_html(m, &p, src);
	if (m && fclose(m))
		rc = 1;
	if (rc) {
		mf_print_error("report: out of memory");
		rc = MF_EXIT_INPUT;
	} else if (!strcmp(html, "-")) {
		if (fwrite(text, 1, len, stdout) != len || fflush(stdout)) {
			mf_print_error("report: stdout: %s", g_strerror(errno));
			rc = MF_EXIT_INPUT;
		}
	} else if (!g_file_set_contents(html, text, (gssize) len, &gerr)) {
		mf_print_error("report: %s", gerr->message);
		g_error_free(gerr);
		rc = MF_EXIT_INPUT;
	}
	free(text);
	g_free(src);
	mf_user_place_clear(&p);
	return rc;
}
