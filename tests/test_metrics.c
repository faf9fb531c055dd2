/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics (metrics.h): Prometheus text, its atomic file, and the
 * PriorityParameters key that names the plugin's file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live_text.h"
#include "metrics.h"
#include "suites.h"

/* --- mf_metrics_param: {params, rc, value or error fragment} --- */
static const struct {
	const char *params;
	int rc;
	const char *want;        /* the value (rc 1) or a part of the error */
} _param_cases[] = {
	{ NULL, 0, NULL },
	{ "", 0, NULL },
	{ "site_knob=1", 0, NULL },
	{ "mfprio_metrics_file=/var/lib/node/mfprio.prom", 1,
	  "/var/lib/node/mfprio.prom" },
	/* other items around it are left alone; blanks and case */
	{ "a=1, MFPRIO_METRICS_FILE = /x/y.prom ,b", 1, "/x/y.prom" },
	{ "mfprio_metrics_files=/x/y.prom", 0, NULL },
	/* the expected failures: each names the key */
	{ "mfprio_metrics_file", -1, "needs =FILE" },
	{ "mfprio_metrics_file=", -1, "is empty" },
	{ "mfprio_metrics_file=rel.prom", -1, "not an absolute path" },
	{ "mfprio_metrics_file=/x/y.txt", -1, "must end in .prom" },
	{ "mfprio_metrics_file=/x/.prom", -1, "must end in .prom" },
	{ "mfprio_metrics_file=/x y/z.prom", -1, "a blank" },
	{ "mfprio_metrics_file=/a.prom,mfprio_metrics_file=/b.prom", -1,
	  "given twice" },
};

START_TEST(test_param)
{
	char *v = (char *) 1;
	mf_error_t e = { "" };
	int rc = mf_metrics_param(_param_cases[_i].params, MF_METRICS_PARAM,
				  &v, &e);

	ck_assert_msg(rc == _param_cases[_i].rc,
		      "mf_metrics_param(\"%s\") = %d, wanted %d (%s)",
		      _param_cases[_i].params ? _param_cases[_i].params : "NULL",
		      rc, _param_cases[_i].rc, e.text);
	if (rc == 1) {
		ck_assert_str_eq(v, _param_cases[_i].want);
	} else {
		ck_assert_ptr_null(v);
	}
	if (rc < 0) {
		ck_assert_ptr_nonnull(strstr(e.text, "mfprio_metrics_file"));
		ck_assert_msg(strstr(e.text, _param_cases[_i].want) != NULL,
			      "error \"%s\" lacks \"%s\"", e.text,
			      _param_cases[_i].want);
	}
	g_free(v);
}
END_TEST

/* --- numbers and labels: one association, each figure's text --- */
static const struct {
	double v;
	const char *text;
} _num_cases[] = {
	{ 0, "0" },
	{ 1, "1" },
	{ 123456789012.0, "123456789012" },
	{ 0.5, "0.5" },
	{ 0.749154, "0.749154" },
	{ 1.0 / 3, "0.333333333333" },
	{ 1234.0625, "1234.0625" },
	{ 9.87654321e-6, "9.87654321e-6" },
	{ 1.5e-12, "1.5e-12" },
	{ -0.25, "-0.25" },
	{ INFINITY, "+Inf" },
	{ 1.5e300, "1.5000000000000001e+300" },
};

START_TEST(test_number)
{
	mf_metrics_assoc_t a = {
		.account = "acct", .depth = 1, .parent = "root",
		.shares_raw = MF_METRICS_NO_SHARES, .shares_norm = NAN,
		.usage_raw = NAN, .usage_efctv = _num_cases[_i].v,
		.fs_factor = NAN, .level_fs = NAN };
	mf_metrics_t m = { .assocs = &a, .n_assocs = 1 };
	GString *g = g_string_new(NULL);
	char *want = g_strdup_printf(
		"\nmfprio_assoc_usage_effective_ratio{account=\"acct\","
		"parent=\"root\",depth=\"1\"} %s\n", _num_cases[_i].text);

	mf_metrics_format(g, &m);
	ck_assert_msg(strstr(g->str, want) != NULL, "no line%sin:\n%s", want,
		      g->str);
	/* NAN figures and no shares: no sample of those families */
	ck_assert_ptr_null(strstr(g->str, "\nmfprio_assoc_shares{"));
	ck_assert_ptr_null(strstr(g->str, "\nmfprio_assoc_fairshare_ratio{"));
	/* every family has its HELP and TYPE even without a sample */
	ck_assert_ptr_nonnull(strstr(g->str,
				     "# TYPE mfprio_assoc_fairshare_ratio "
				     "gauge\n"));
	g_free(want);
	g_string_free(g, TRUE);
}
END_TEST

START_TEST(test_labels)
{
	mf_metrics_assoc_t a = {
		.account = "we\"ird\\acct", .user = "u\n1", .partition = "gpu",
		.parent = "root", .depth = 2, .shares_raw = 7,
		.shares_norm = NAN, .usage_raw = NAN, .usage_efctv = NAN,
		.fs_factor = NAN, .level_fs = NAN };
	mf_metrics_pending_t p = { .account = "b", .user = "u1",
				   .partition = "debug", .jobs = 3,
				   .prio_sum = 3000, .prio_max = 1500 };
	mf_metrics_cycle_t c = { .start = 1700000000, .wall_s = 0.25,
				 .cycles = 4, .write_s = NAN,
				 .handoff_s = NAN, .skipped = 3 };
	mf_metrics_t m = { .cluster = "c1", .source = "plugin",
			   .algorithm = "fair_tree", .timestamp = 1700000000,
			   .assocs = &a, .n_assocs = 1, .pending = &p,
			   .n_pending = 1, .cycle = &c };
	GString *g = g_string_new(NULL);
	static const char *const lines[] = {
		"mfprio_metrics_info{cluster=\"c1\",source=\"plugin\","
		"algorithm=\"fair_tree\"} 1\n",
		"mfprio_assoc_shares{cluster=\"c1\",account=\"we\\\"ird\\\\acct\","
		"user=\"u\\n1\",partition=\"gpu\",parent=\"root\",depth=\"2\"} 7\n",
		"mfprio_pending_jobs{cluster=\"c1\",account=\"b\",user=\"u1\","
		"partition=\"debug\"} 3\n",
		"mfprio_pending_priority_summed{cluster=\"c1\",account=\"b\","
		"user=\"u1\",partition=\"debug\"} 3000\n",
		"mfprio_pending_priority_highest{cluster=\"c1\",account=\"b\","
		"user=\"u1\",partition=\"debug\"} 1500\n",
		"# TYPE mfprio_cycles_total counter\n",
		"mfprio_cycles_total{cluster=\"c1\"} 4\n",
		"mfprio_cycle_wall_seconds{cluster=\"c1\"} 0.25\n",
		"mfprio_cycle_job_lock_holds{cluster=\"c1\",phase=\"priorities\"} 0\n",
		"mfprio_cycle_jobs{cluster=\"c1\",state=\"recomputed\"} 0\n",
		"# TYPE mfprio_metrics_skipped_total counter\n",
		"mfprio_metrics_skipped_total{cluster=\"c1\"} 3\n",
	};

	mf_metrics_format(g, &m);
	for (size_t i = 0; i < G_N_ELEMENTS(lines); i++)
		ck_assert_msg(strstr(g->str, lines[i]) != NULL,
			      "no line %s in:\n%s", lines[i], g->str);
	/* the first write's time is unknown: no sample */
	ck_assert_ptr_null(strstr(g->str, "\nmfprio_metrics_write_seconds{"));
	ck_assert_ptr_null(strstr(g->str, "\nmfprio_metrics_handoff_seconds{"));
	g_string_free(g, TRUE);
}
END_TEST

/* A large text (more than the 1 MiB buffer) through the file: the same as
 * in memory, mode 0644, no temporary file left; a missing directory fails
 * and names the file. */
START_TEST(test_write_file)
{
	char dir[] = "/tmp/mfprio-metrics-test-XXXXXX";
	GArray *as = g_array_new(FALSE, TRUE, sizeof(mf_metrics_assoc_t));
	mf_metrics_t m = { .cluster = "c" };
	GString *g = g_string_new(NULL);
	char *path, *tmp, *text = NULL, *bad;
	gsize len = 0;
	struct stat st;
	mf_error_t e;
	mode_t old = umask(077);

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (int i = 0; i < 20000; i++) {
		mf_metrics_assoc_t a = { .account = "account", .user = "user",
					 .parent = "account", .depth = 2,
					 .shares_raw = (uint32_t) i,
					 .shares_norm = i / 7.0,
					 .usage_raw = i * 3.25,
					 .usage_efctv = 1.0 / (i + 1),
					 .fs_factor = 0.5, .level_fs = 2 };

		g_array_append_val(as, a);
	}
	m.assocs = (mf_metrics_assoc_t *) as->data;
	m.n_assocs = as->len;
	path = g_strdup_printf("%s/m.prom", dir);
	tmp = g_strdup_printf("%s.tmp", path);
	ck_assert_int_eq(mf_metrics_write_file(path, &m, &e), 0);
	mf_metrics_format(g, &m);
	ck_assert(g->len > (1 << 20));
	ck_assert(g_file_get_contents(path, &text, &len, NULL));
	ck_assert_uint_eq(len, g->len);
	ck_assert(memcmp(text, g->str, len) == 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0644);
	ck_assert_int_eq(access(tmp, F_OK), -1);
	/* again, shorter: the file has the new text whole; where the file
	 * system swapped them, the temporary file keeps the old one */
	m.n_assocs = 10;
	ck_assert_int_eq(mf_metrics_write_file(path, &m, &e), 0);
	g_free(text);
	ck_assert(g_file_get_contents(path, &text, &len, NULL));
	g_string_truncate(g, 0);
	mf_metrics_format(g, &m);
	ck_assert_uint_eq(len, g->len);
	ck_assert(memcmp(text, g->str, len) == 0);
	if (access(tmp, F_OK) == 0) {
		ck_assert_int_eq(stat(tmp, &st), 0);
		ck_assert(st.st_size > (1 << 20));
	}
	/* and longer again: the old pages overwritten, the length right */
	m.n_assocs = as->len;
	ck_assert_int_eq(mf_metrics_write_file(path, &m, &e), 0);
	g_free(text);
	ck_assert(g_file_get_contents(path, &text, &len, NULL));
	g_string_truncate(g, 0);
	mf_metrics_format(g, &m);
	ck_assert_uint_eq(len, g->len);
	ck_assert(memcmp(text, g->str, len) == 0);
	unlink(tmp);
	bad = g_strdup_printf("%s/none/m.prom", dir);
	ck_assert_int_eq(mf_metrics_write_file(bad, &m, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.text, "none/m.prom.tmp: cannot create"));
	umask(old);
	unlink(path);
	rmdir(dir);
	g_free(bad);
	g_free(text);
	g_free(tmp);
	g_free(path);
	g_string_free(g, TRUE);
	g_array_free(as, TRUE);
}
END_TEST

/* --- mf_live_algorithm: `scontrol show config` text -> algorithm --- */
static const struct {
	const char *text;
	const char *algo;
} _algo_cases[] = {
	{ "", "fair_tree" },
	{ "PriorityFlags           = \nPriorityType = priority/multifactor\n",
	  "fair_tree" },
	{ "PriorityFlags           = (null)\n", "fair_tree" },
	{ "PriorityFlags           = NO_FAIR_TREE\n", "classic" },
	{ "PriorityFlags           = CALCULATE_RUNNING,NO_FAIR_TREE\n",
	  "classic" },
	/* DEPTH_OBLIVIOUS wins over NO_FAIR_TREE, as slurmctld sets both */
	{ "PriorityFlags = NO_FAIR_TREE,DEPTH_OBLIVIOUS\n", "depth_oblivious" },
	/* a flag this release does not know is passed over, the rest read */
	{ "PriorityFlags = SOME_NEW_FLAG,DEPTH_OBLIVIOUS\n", "depth_oblivious" },
	/* another key that begins so is not PriorityFlags */
	{ "PriorityFlagsX = NO_FAIR_TREE\n", "fair_tree" },
};

START_TEST(test_live_algorithm)
{
	ck_assert_str_eq(mf_live_algorithm(_algo_cases[_i].text),
			 _algo_cases[_i].algo);
}
END_TEST

Suite *make_metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("metrics");

	tcase_add_loop_test(tc, test_param, 0, G_N_ELEMENTS(_param_cases));
	tcase_add_loop_test(tc, test_number, 0, G_N_ELEMENTS(_num_cases));
	tcase_add_test(tc, test_labels);
	tcase_add_test(tc, test_write_file);
	tcase_add_loop_test(tc, test_live_algorithm, 0,
			    G_N_ELEMENTS(_algo_cases));
	suite_add_tcase(s, tc);
	return s;
}
