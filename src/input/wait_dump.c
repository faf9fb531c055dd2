/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_dump: the dumps of a user's `mfprio why JOBID` (wait_dump.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_fields.h"
#include "priority_conf.h"
#include "snapshot_dir.h"
#include "timestr.h"
#include "wait_dump.h"

const char *const mf_wait_term_name[MF_WT_N] = {
	"age", "assoc", "fairshare", "jobsize", "partition", "qos", "nice",
	"site",
};

/* What the walker hands each line of a dump to: the line TEXT (its own
 * copy), the file's PATH and its LINE number.  Returns 0 to go on, 1 to
 * stop, -1 with errp set. */
typedef int (*_line_fn)(mf_wait_dump_t *d, char *text, const char *path,
			int line, void *arg, mf_error_t *errp);

/* Hand each non-empty line of DIR/NAME to FN.  Returns -1 with errp
 * naming the file it cannot read or FN's error, else 0, or 1 if FN
 * stopped. */
static int _each_line(const char *dir, const char *name, mf_wait_dump_t *d,
		      _line_fn fn, void *arg, mf_error_t *errp)
{
	char *text, **lines, *path = g_build_filename(dir, name, NULL);
	GError *gerr = NULL;
	int rc = 0;

	if (!g_file_get_contents(path, &text, NULL, &gerr)) {
		rc = mf_errprintf(errp, "%s: %s", path, gerr->message);
		g_error_free(gerr);
		g_free(path);
		return rc;
	}
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	for (int n = 0; lines[n] && !rc; n++)
		if (*lines[n])
			rc = fn(d, lines[n], path, n + 1, arg, errp);
	g_strfreev(lines);
	g_free(path);
	return rc;
}

/* A number of a dump: S whole, else -1 with errp naming PATH:LINE and
 * WHAT. */
static int _num(const char *s, double *out, const char *path, int line,
		const char *what, mf_error_t *errp)
{
	char *end;

	while (*s == ' ')
		s++;
	*out = g_ascii_strtod(s, &end);
	while (*end == ' ')
		end++;
	if (end == s || *end || !isfinite(*out))
		return mf_errprintf(errp, "%s:%d: %s '%s' is not a number",
				    path, line, what, s);
	return 0;
}

/* S kept in D's strings.  Returns the copy. */
static const char *_keep(mf_wait_dump_t *d, const char *s)
{
	if (!d->strings)
		d->strings = g_string_chunk_new(256);
	return g_string_chunk_insert(d->strings, s);
}

/* The value of KEY=VALUE word KEY on job line L (NULL: none), kept in
 * D's strings. */
static const char *_job_word(mf_wait_dump_t *d, const char *l,
			     const char *key)
{
	char *k = g_strdup_printf(" %s=", key);
	const char *p = strstr(l, k);
	char *v = NULL;

	if (p) {
		p += strlen(k);
		v = g_strndup(p, strcspn(p, " \n"));
		if (!strcmp(v, "(null)") || !*v) {
			g_free(v);
			v = NULL;
		}
	}
	g_free(k);
	if (!v)
		return NULL;
	p = _keep(d, v);
	g_free(v);
	return p;
}

/* Whether line L may be the line of job ID: "JobId=ID " at its start,
 * or, for an array task A_T, " ArrayJobId=A " in it. */
static bool _may_be(const char *l, const char *id)
{
	const char *us = strchr(id, '_');
	char *k;
	bool r;

	if (!us) {
		size_t n = strlen(id);

		return !strncmp(l, "JobId=", 6) && !strncmp(l + 6, id, n) &&
			l[6 + n] == ' ';
	}
	k = g_strdup_printf(" ArrayJobId=%.*s ", (int) (us - id), id);
	r = strstr(l, k) != NULL;
	g_free(k);
	return r;
}

/* A line of the jobs dump: job ID's (ARG) is parsed and kept.  Returns
 * 1 once found. */
static int _job_line(mf_wait_dump_t *d, char *l, const char *path, int n,
		     void *arg, mf_error_t *errp)
{
	const char *id = arg;
	const char *st;

	if (!_may_be(l, id))
		return 0;
	if (!(d->job = mf_job_line_parse(l, path, n, errp)))
		return -1;
	if (!mf_job_named(d->job, id)) {
		mf_job_line_free(d->job);
		d->job = NULL;
		return 0;
	}
	d->dependency = _job_word(d, l, "Dependency");
	d->reservation = _job_word(d, l, "Reservation");
	st = _job_word(d, l, "StartTime");
	if (st && g_ascii_isdigit(*st))
		mf_time_point(st, 0, &d->start_time, NULL);
	st = _job_word(d, l, "LastSchedEval");
	if (st && g_ascii_isdigit(*st))
		mf_time_point(st, 0, &d->last_eval, NULL);
	d->sched_by = _job_word(d, l, "Scheduler");
	return 1;
}

/* The backfill settings why names in SchedulerParameters V ("a,b=N,...")
 * into D; Slurm's defaults (30 s, 1 day) where V has none.  Returns
 * nothing. */
static void _sched_params(mf_wait_dump_t *d, const char *v)
{
	static const char *const keys[2] = { "bf_interval=", "bf_window=" };
	uint32_t *to[2] = { &d->bf_interval, &d->bf_window };

	for (int k = 0; k < 2; k++) {
		const char *at = strstr(v, keys[k]);

		if (at && (at == v || at[-1] == ','))
			*to[k] = (uint32_t) strtoul(at + strlen(keys[k]),
						    NULL, 10);
	}
}

/* A "Key = Value" line of `scontrol show config`: the Priority* settings
 * through the one reader of them (priority_conf.h: its parsers and its
 * defaults) into the mf_prio_conf_t ARG, in scontrol's forms ("5 min",
 * "(null)" and "" for unset); the others it says that why reads. */
static int _config_line(mf_wait_dump_t *d, char *l, const char *path, int n,
			void *arg, mf_error_t *errp)
{
	char *eq = strstr(l, " = "), *k, *v;
	mf_conf_pair_t p;

	if (!eq)
		return 0;
	*eq = '\0';
	k = g_strstrip(l);
	v = g_strstrip(eq + 3);
	if (!strcmp(k, "PrivateData"))
		d->private_data = _keep(d, v);
	else if (!strcmp(k, "PriorityFlags"))
		d->priority_flags = _keep(d, v);
	else if (!strcmp(k, "SlurmUser"))
		d->slurm_user = _keep(d, v);
	else if (!strcmp(k, "AccountingStorageEnforce"))
		d->safe_limits = strstr(v, "safe") != NULL;
	else if (!strcmp(k, "SchedulerType"))
		d->sched_type = _keep(d, v);
	else if (!strcmp(k, "SchedulerParameters"))
		_sched_params(d, v);
	if (!*v || !strcmp(v, "(null)"))
		return 0;
	if (g_str_has_suffix(v, " min"))   /* PriorityCalcPeriod */
		*strstr(v, " min") = '\0';
	p = (mf_conf_pair_t) { .key = k, .value = v, .file = (char *) path,
			       .line = n };
	if (mf_prio_conf_take(arg, &p) < 0)
		return mf_errprintf(errp, "%s:%d: %s '%s' is not a value "
				    "scontrol prints", path, n, k, v);
	return 0;
}

/* Split the '|' line L of PATH into exactly N fields in *F (new).
 * Returns 0, or -1 with errp naming the line. */
static int _fields(const char *l, guint n, char ***f, const char *path,
		   int line, mf_error_t *errp)
{
	*f = g_strsplit(l, "|", -1);
	if (g_strv_length(*f) == n + 1 && !*(*f)[n]) {
		g_free((*f)[n]);
		(*f)[n] = NULL;
	}
	if (g_strv_length(*f) != n) {
		guint got = g_strv_length(*f);

		g_strfreev(*f);
		*f = NULL;
		return mf_errprintf(errp, "%s:%d: %u fields, not %u: %s",
				    path, line, got, n, l);
	}
	return 0;
}

/* A row of sprio: its fields F into a new entry of D->sprio. */
static int _sprio_row(mf_wait_dump_t *d, char *l, const char *path,
		      int line, void *arg, mf_error_t *errp)
{
	mf_wait_sprio_t r = { 0 };
	char **f, *end;
	unsigned long id;
	int rc;

	(void) arg;
	if (_fields(l, 5 + MF_WT_N, &f, path, line, errp))
		return -1;
	id = strtoul(g_strstrip(f[0]), &end, 10);
	rc = !*f[0] || *end || id > UINT32_MAX ?
		mf_errprintf(errp, "%s:%d: job id '%s' is not a number",
			     path, line, f[0]) :
		_num(f[3], &r.priority, path, line, "priority", errp) ||
		_num(f[4], &r.age, path, line, "age factor", errp) ? -1 : 0;
	for (int t = 0; !rc && t < MF_WT_N; t++)
		rc = _num(f[5 + t], &r.w[t], path, line,
			  mf_wait_term_name[t], errp);
	r.job_id = (uint32_t) id;
	r.partition = mf_jobs_intern(g_strstrip(f[1]));
	r.user = mf_jobs_intern(g_strstrip(f[2]));
	if (!rc)
		g_array_append_val(d->sprio, r);
	g_strfreev(f);
	return rc;
}

static void _sshare_free(gpointer p)
{
	mf_wait_sshare_t *s = p;

	g_strfreev(s->fields);
	g_free(s);
}

/* sshare's number, "" unset (NAN). */
static int _snum(const char *s, double *out, const char *path, int line,
		 const char *what, mf_error_t *errp)
{
	if (!*s || !strcmp(s, "inf")) {
		*out = *s ? INFINITY : NAN;
		return 0;
	}
	return _num(s, out, path, line, what, errp);
}

/* A row of sshare into a new entry of D->sshare, which keeps its fields
 * (the strings point into them). */
static int _sshare_row(mf_wait_dump_t *d, char *l, const char *path,
		       int line, void *arg, mf_error_t *errp)
{
	mf_wait_sshare_t *s;
	char **f;

	(void) arg;
	if (_fields(l, 10, &f, path, line, errp))
		return -1;
	s = g_new0(mf_wait_sshare_t, 1);
	g_ptr_array_add(d->sshare, s);
	s->fields = f;
	for (s->account = f[0]; *s->account == ' '; s->account++)
		s->depth++;
	s->user = *f[1] ? f[1] : NULL;
	s->grp_tres_mins = f[7];
	s->grp_tres_raw = f[8];
	s->tres_run_mins = f[9];
	if (!*s->account)
		return mf_errprintf(errp, "%s:%d: no account", path, line);
	return _snum(f[2], &s->norm_shares, path, line, "NormShares", errp) ||
	       _snum(f[3], &s->raw_usage, path, line, "RawUsage", errp) ||
	       _snum(f[4], &s->eff_usage, path, line, "EffectvUsage", errp) ||
	       _snum(f[5], &s->fairshare, path, line, "FairShare", errp) ||
	       _snum(f[6], &s->level_fs, path, line, "LevelFS", errp) ? -1 : 0;
}

static void _assoc_free(gpointer p)
{
	mf_wait_assoc_t *a = p;

	g_strfreev(a->fields);
	g_strfreev(a->qos);
	g_free(a);
}

/* A row of why-assoc (MF_WAIT_ASSOC_FIELDS) into D->assocs. */
static int _assoc_row(mf_wait_dump_t *d, char *l, const char *path,
		      int line, void *arg, mf_error_t *errp)
{
	mf_wait_assoc_t *a;
	char **f;

	(void) arg;
	if (_fields(l, 5, &f, path, line, errp))
		return -1;
	a = g_new0(mf_wait_assoc_t, 1);
	a->grp_tres_run_mins = g_strstrip(f[4]);
	g_ptr_array_add(d->assocs, a);
	a->fields = f;
	a->account = g_strstrip(f[0]);
	a->user = g_strstrip(f[1]);
	a->partition = g_strstrip(f[2]);
	a->qos = g_strsplit(g_strstrip(f[3]), ",", -1);
	if (!*a->account)
		return mf_errprintf(errp, "%s:%d: no account", path, line);
	return 0;
}

/* A row of why-qos (Name|Priority) into D->qos. */
static int _qos_row(mf_wait_dump_t *d, char *l, const char *path,
		    int line, void *arg, mf_error_t *errp)
{
	mf_wait_qos_t q;
	char **f;
	int rc;

	(void) arg;
	if (_fields(l, 2, &f, path, line, errp))
		return -1;
	q.name = _keep(d, g_strstrip(f[0]));
	rc = _num(*f[1] ? f[1] : "0", &q.priority, path, line,
		  "QOS Priority", errp);
	if (!rc)
		g_array_append_val(d->qos, q);
	g_strfreev(f);
	return rc;
}

/* A row of why-running (MF_WAIT_RUNNING_FORMAT) into D->running. */
static int _running_row(mf_wait_dump_t *d, char *l, const char *path,
			int line, void *arg, mf_error_t *errp)
{
	mf_wait_running_t r = { 0 };
	char **f;
	double id;
	uint32_t secs = 0;
	bool unlimited = false;
	int rc;

	(void) arg;
	if (_fields(l, 4, &f, path, line, errp))
		return -1;
	rc = _num(f[0], &id, path, line, "job id", errp) ||
		_num(f[2], &r.cpus, path, line, "CPUs", errp) ? -1 : 0;
	if (!rc && mf_timestr_secs(g_strstrip(f[3]), &secs, &unlimited, NULL))
		rc = mf_errprintf(errp, "%s:%d: time left '%s' is not a "
				  "duration", path, line, f[3]);
	r.job_id = (uint32_t) id;
	r.account = _keep(d, g_strstrip(f[1]));
	r.left = unlimited ? -1 : secs / 60.0;
	if (!rc)
		g_array_append_val(d->running, r);
	g_strfreev(f);
	return rc;
}

/* A line of why-partitions into D->parts. */
static int _part_line(mf_wait_dump_t *d, char *l, const char *path,
		      int line, void *arg, mf_error_t *errp)
{
	char *sp = g_strconcat(" ", l, NULL);
	mf_wait_part_t p = {
		.name = _job_word(d, sp, "PartitionName"),
		.state = _job_word(d, sp, "State"),
		.allow_groups = _job_word(d, sp, "AllowGroups"),
		.allow_accounts = _job_word(d, sp, "AllowAccounts"),
		.deny_accounts = _job_word(d, sp, "DenyAccounts"),
		.allow_qos = _job_word(d, sp, "AllowQos"),
		.deny_qos = _job_word(d, sp, "DenyQos"),
	};
	const char *f = _job_word(d, sp, "PriorityJobFactor");
	int rc = 0;

	(void) arg;
	if (!p.name)
		rc = mf_errprintf(errp, "%s:%d: no PartitionName", path, line);
	else if (f)
		rc = _num(f, &p.job_factor, path, line, "PriorityJobFactor",
			  errp);
	if (!rc)
		g_array_append_val(d->parts, p);
	g_free(sp);
	return rc;
}

/* The groups of DIR/why-groups into D->groups, if there. */
static void _groups(const char *dir, mf_wait_dump_t *d)
{
	char *p = g_build_filename(dir, MF_SNAP_WHY_GROUPS, NULL), *t;

	if (g_file_get_contents(p, &t, NULL, NULL)) {
		d->groups = g_strsplit_set(g_strstrip(t), " \n", -1);
		g_free(t);
	}
	g_free(p);
}

/* The optional dumps: read when DIR has them.  Returns 0 or -1. */
static int _optional(const char *dir, mf_wait_dump_t *d, mf_error_t *errp)
{
	char *a = g_build_filename(dir, MF_SNAP_WHY_ASSOC, NULL);
	char *q = g_build_filename(dir, MF_SNAP_WHY_QOS, NULL);
	int rc = 0;

	if (g_file_test(a, G_FILE_TEST_EXISTS)) {
		d->assocs = g_ptr_array_new_with_free_func(_assoc_free);
		rc = _each_line(dir, MF_SNAP_WHY_ASSOC, d, _assoc_row, NULL,
				errp);
	}
	if (!rc && g_file_test(q, G_FILE_TEST_EXISTS)) {
		d->qos = g_array_new(FALSE, TRUE, sizeof(mf_wait_qos_t));
		rc = _each_line(dir, MF_SNAP_WHY_QOS, d, _qos_row, NULL, errp);
	}
	g_free(a);
	g_free(q);
	a = g_build_filename(dir, MF_SNAP_WHY_RUNNING, NULL);
	if (!rc && g_file_test(a, G_FILE_TEST_EXISTS)) {
		d->running = g_array_new(FALSE, TRUE,
					 sizeof(mf_wait_running_t));
		rc = _each_line(dir, MF_SNAP_WHY_RUNNING, d, _running_row,
				NULL, errp);
	}
	g_free(a);
	a = g_build_filename(dir, MF_SNAP_WHY_PARTS, NULL);
	if (!rc && g_file_test(a, G_FILE_TEST_EXISTS)) {
		d->parts = g_array_new(FALSE, TRUE, sizeof(mf_wait_part_t));
		rc = _each_line(dir, MF_SNAP_WHY_PARTS, d, _part_line, NULL,
				errp);
	}
	g_free(a);
	_groups(dir, d);
	return rc < 0 ? -1 : 0;
}

/* The settings of DIR's config dump into D, the defaults (the one
 * reader's) for the keys it lacks.  Returns 0, or -1 with errp set. */
static int _read_config(const char *dir, mf_wait_dump_t *d, mf_error_t *errp)
{
	mf_prio_conf_t *pc = mf_prio_conf_defaults();
	int rc = _each_line(dir, MF_SNAP_CONFIG, d, _config_line, pc, errp);

	d->half_life = pc->decay_half_life;
	d->max_age = pc->max_age;
	d->calc_period = pc->calc_period;
	d->weight_age = pc->weight_age;
	d->weight_fs = pc->weight_fs;
	d->weight_qos = pc->weight_qos;
	d->weight_part = pc->weight_part;
	d->damp = pc->fs_damp;
	mf_prio_conf_free(pc);
	return rc < 0 ? -1 : 0;
}

int mf_wait_dump_load(const char *dir, const char *job_id,
		      mf_wait_dump_t *d, mf_error_t *errp)
{
	mf_snapdir_t snap = { 0 };
	int rc;

	if (mf_snapdir_open(dir, &snap, errp))
		return -1;
	d->now = snap.taken;
	mf_snapdir_clear(&snap);
	mf_jkeys_init();
	rc = _each_line(dir, MF_SNAP_JOBS, d, _job_line, (void *) job_id,
			errp);
	if (rc < 0)
		return -1;
	if (!rc) {
		mf_errprintf(errp, "job %s is not in %s/%s: no such job, or one "
			     "that is not yours under PrivateData=jobs",
			     job_id, dir, MF_SNAP_JOBS);
		return 1;
	}
	d->sprio = g_array_new(FALSE, TRUE, sizeof(mf_wait_sprio_t));
	d->sshare = g_ptr_array_new_with_free_func(_sshare_free);
	d->bf_interval = 30;
	d->bf_window = 1440;
	/* an empty sprio dump: nothing pending the user may see (sprio said
	 * so on stderr) */
	if (_read_config(dir, d, errp) ||
	    _each_line(dir, MF_SNAP_SPRIO, d, _sprio_row, NULL, errp) ||
	    _each_line(dir, MF_SNAP_SSHARE, d, _sshare_row, NULL, errp) ||
	    _optional(dir, d, errp))
		return -1;
	return 0;
}

/* What the pass of mf_wait_dump_load_jobs() fills. */
typedef struct {
	mf_wait_dump_t *base, *out;
	char **ids;
} _jobs_t;

/* A line of the jobs dump: the line of any of ARG's jobs not yet found
 * is parsed into a copy of the base.  Returns 0, or -1. */
static int _jobs_line(mf_wait_dump_t *d, char *l, const char *path, int n,
		      void *arg, mf_error_t *errp)
{
	_jobs_t *j = arg;

	(void) d;
	for (guint i = 0; j->ids[i]; i++) {
		mf_wait_dump_t *o = &j->out[i];

		if (o->job || !_may_be(l, j->ids[i]))
			continue;
		*o = *j->base;
		o->job = NULL;
		if (_job_line(o, l, path, n, j->ids[i], errp) < 0)
			return -1;
	}
	return 0;
}

int mf_wait_dump_load_jobs(const char *dir, mf_wait_dump_t *base,
			   char **ids, mf_wait_dump_t *out, mf_error_t *errp)
{
	_jobs_t j = { .base = base, .out = out, .ids = ids };

	_keep(base, "");        /* the copies add to base's strings */
	if (_each_line(dir, MF_SNAP_JOBS, base, _jobs_line, &j, errp))
		return -1;
	for (guint i = 0; ids[i]; i++)
		if (!out[i].job)
			return mf_errprintf(errp, "job %s is not in %s/%s",
					    ids[i], dir, MF_SNAP_JOBS);
	return 0;
}

void mf_wait_dump_clear_job(mf_wait_dump_t *d)
{
	mf_job_line_free(d->job);
	memset(d, 0, sizeof(*d));
}

void mf_wait_dump_clear(mf_wait_dump_t *d)
{
	mf_job_line_free(d->job);
	g_clear_pointer(&d->strings, g_string_chunk_free);
	g_clear_pointer(&d->sprio, g_array_unref);
	g_clear_pointer(&d->sshare, g_ptr_array_unref);
	g_clear_pointer(&d->assocs, g_ptr_array_unref);
	g_clear_pointer(&d->qos, g_array_unref);
	g_clear_pointer(&d->running, g_array_unref);
	g_clear_pointer(&d->parts, g_array_unref);
	g_clear_pointer(&d->groups, g_strfreev);
	memset(d, 0, sizeof(*d));
}

double mf_wait_tres_count(const char *s, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = s; p && *p; p = strchr(p, ',') ? strchr(p, ',')
	     + 1 : NULL) {
		if (!strncmp(p, name, n) && p[n] == '=')
			return g_ascii_strtod(p + n + 1, NULL);
	}
	return -1;
}
