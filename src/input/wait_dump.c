/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wait_dump: the dumps of a user's `mfprio why JOBID` (wait_dump.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_fields.h"
#include "snapshot_dir.h"
#include "timestr.h"
#include "wait_dump.h"

const char *const mf_wait_term_name[MF_WT_N] = {
	"age", "assoc", "fairshare", "jobsize", "partition", "qos", "nice",
	"site",
};

/* The whole of DIR/NAME in *TEXT.  Returns 0, or -1 with errp naming
 * the file. */
static int _slurp(const char *dir, const char *name, char **text,
		  mf_error_t *errp)
{
	char *path = g_build_filename(dir, name, NULL);
	GError *gerr = NULL;
	int rc = 0;

	if (!g_file_get_contents(path, text, NULL, &gerr)) {
		rc = mf_errprintf(errp, "%s: %s", path, gerr->message);
		g_error_free(gerr);
	}
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

/* The value of KEY=VALUE word KEY on job line L (NULL: none), new. */
static char *_job_word(const char *l, const char *key)
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
	return v;
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

static int _load_job(const char *dir, const char *id, mf_wait_dump_t *d,
		     mf_error_t *errp)
{
	char *text, *path = g_build_filename(dir, MF_SNAP_JOBS, NULL);
	char **lines;
	int rc = 1;

	if (_slurp(dir, MF_SNAP_JOBS, &text, errp)) {
		g_free(path);
		return -1;
	}
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	for (int n = 0; lines[n] && rc == 1; n++) {
		char *st;

		if (!_may_be(lines[n], id))
			continue;
		d->job = mf_job_line_parse(lines[n], path, n + 1, errp);
		if (!d->job) {
			rc = -1;
			break;
		}
		if (!mf_job_named(d->job, id)) {
			mf_job_line_free(d->job);
			d->job = NULL;
			continue;
		}
		rc = 0;
		d->dependency = _job_word(lines[n], "Dependency");
		d->reservation = _job_word(lines[n], "Reservation");
		st = _job_word(lines[n], "StartTime");
		if (st && g_ascii_isdigit(*st))
			mf_time_point(st, 0, &d->start_time, NULL);
		g_free(st);
	}
	if (rc == 1)
		mf_errprintf(errp, "job %s is not in %s: no such job, or one "
			     "that is not yours under PrivateData=jobs", id,
			     path);
	g_strfreev(lines);
	g_free(path);
	return rc;
}

/* A duration of `scontrol show config` ("7-00:00:00", "00:05:00", "5
 * min"). */
static int _duration(const char *v, uint32_t *secs, const char *path,
		     int line, mf_error_t *errp)
{
	bool unlimited;
	char *t = g_strdup(v);
	int rc;

	if (g_str_has_suffix(t, " min"))   /* PriorityCalcPeriod */
		sprintf(strstr(t, " min"), ":00");
	rc = mf_timestr_secs(t, secs, &unlimited, NULL);
	g_free(t);
	if (rc)
		return mf_errprintf(errp, "%s:%d: '%s' is not a duration",
				    path, line, v);
	return 0;
}

static int _load_config(const char *dir, mf_wait_dump_t *d,
			mf_error_t *errp)
{
	char *text, **lines, *path = g_build_filename(dir, MF_SNAP_CONFIG,
						      NULL);
	int rc = 0;

	if (_slurp(dir, MF_SNAP_CONFIG, &text, errp)) {
		g_free(path);
		return -1;
	}
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	d->half_life = 7 * 86400;
	d->max_age = 7 * 86400;
	d->calc_period = 300;
	d->damp = 1;
	for (int n = 0; lines[n] && !rc; n++) {
		char *eq = strstr(lines[n], " = "), *k, *v;

		if (!eq)
			continue;
		*eq = '\0';
		k = g_strstrip(lines[n]);
		v = g_strstrip(eq + 3);
		if (!strcmp(k, "PriorityDecayHalfLife"))
			rc = _duration(v, &d->half_life, path, n + 1, errp);
		else if (!strcmp(k, "PriorityMaxAge"))
			rc = _duration(v, &d->max_age, path, n + 1, errp);
		else if (!strcmp(k, "PriorityCalcPeriod"))
			rc = _duration(v, &d->calc_period, path, n + 1, errp);
		else if (!strcmp(k, "PriorityWeightAge"))
			rc = _num(v, &d->weight_age, path, n + 1, k, errp);
		else if (!strcmp(k, "PriorityWeightFairShare"))
			rc = _num(v, &d->weight_fs, path, n + 1, k, errp);
		else if (!strcmp(k, "FairShareDampeningFactor"))
			d->damp = (uint16_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "PrivateData"))
			d->private_data = g_strdup(v);
		else if (!strcmp(k, "PriorityFlags"))
			d->priority_flags = g_strdup(v);
		else if (!strcmp(k, "AccountingStorageEnforce"))
			d->safe_limits = strstr(v, "safe") != NULL;
	}
	g_strfreev(lines);
	g_free(path);
	return rc;
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

static int _sprio_row(char **f, mf_wait_sprio_t *r, const char *path,
		      int line, mf_error_t *errp)
{
	char *end;
	unsigned long id = strtoul(g_strstrip(f[0]), &end, 10);

	if (!*f[0] || *end || id > UINT32_MAX)
		return mf_errprintf(errp, "%s:%d: job id '%s' is not a "
				    "number", path, line, f[0]);
	r->job_id = (uint32_t) id;
	r->partition = mf_jobs_intern(g_strstrip(f[1]));
	r->user = mf_jobs_intern(g_strstrip(f[2]));
	if (_num(f[3], &r->priority, path, line, "priority", errp) ||
	    _num(f[4], &r->age, path, line, "age factor", errp))
		return -1;
	for (int t = 0; t < MF_WT_N; t++)
		if (_num(f[5 + t], &r->w[t], path, line,
			 mf_wait_term_name[t], errp))
			return -1;
	return 0;
}

static int _load_sprio(const char *dir, mf_wait_dump_t *d, mf_error_t *errp)
{
	char *text, **lines, *path = g_build_filename(dir, MF_SNAP_SPRIO,
						      NULL);
	int rc = 0;

	if (_slurp(dir, MF_SNAP_SPRIO, &text, errp)) {
		g_free(path);
		return -1;
	}
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	d->sprio = g_array_new(FALSE, TRUE, sizeof(mf_wait_sprio_t));
	for (int n = 0; lines[n] && !rc; n++) {
		mf_wait_sprio_t r = { 0 };
		char **f;

		/* an empty dump: sprio's "Unable to find jobs ..." went to
		 * stderr; so did its header (-h) */
		if (!*lines[n])
			continue;
		if ((rc = _fields(lines[n], 5 + MF_WT_N, &f, path, n + 1,
				  errp)))
			break;
		if (!(rc = _sprio_row(f, &r, path, n + 1, errp)))
			g_array_append_val(d->sprio, r);
		g_strfreev(f);
	}
	g_strfreev(lines);
	g_free(path);
	return rc;
}

static void _sshare_free(gpointer p)
{
	mf_wait_sshare_t *s = p;

	g_free(s->account);
	g_free(s->user);
	g_free(s->grp_tres_mins);
	g_free(s->grp_tres_raw);
	g_free(s->tres_run_mins);
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

static int _sshare_row(char **f, mf_wait_sshare_t *s, const char *path,
		       int line, mf_error_t *errp)
{
	const char *a = f[0];

	while (*a == ' ') {
		a++;
		s->depth++;
	}
	s->account = g_strdup(a);
	s->user = *f[1] ? g_strdup(f[1]) : NULL;
	s->grp_tres_mins = g_strdup(f[7]);
	s->grp_tres_raw = g_strdup(f[8]);
	s->tres_run_mins = g_strdup(f[9]);
	if (!*a)
		return mf_errprintf(errp, "%s:%d: no account", path, line);
	return _snum(f[2], &s->norm_shares, path, line, "NormShares", errp) ||
	       _snum(f[3], &s->raw_usage, path, line, "RawUsage", errp) ||
	       _snum(f[4], &s->eff_usage, path, line, "EffectvUsage", errp) ||
	       _snum(f[5], &s->fairshare, path, line, "FairShare", errp) ||
	       _snum(f[6], &s->level_fs, path, line, "LevelFS", errp) ? -1 : 0;
}

static int _load_sshare(const char *dir, mf_wait_dump_t *d,
			mf_error_t *errp)
{
	char *text, **lines, *path = g_build_filename(dir, MF_SNAP_SSHARE,
						      NULL);
	int rc = 0;

	if (_slurp(dir, MF_SNAP_SSHARE, &text, errp)) {
		g_free(path);
		return -1;
	}
	lines = g_strsplit(text, "\n", -1);
	g_free(text);
	d->sshare = g_ptr_array_new_with_free_func(_sshare_free);
	for (int n = 0; lines[n] && !rc; n++) {
		mf_wait_sshare_t *s;
		char **f;

		if (!*lines[n])
			continue;
		if ((rc = _fields(lines[n], 10, &f, path, n + 1, errp)))
			break;
		s = g_new0(mf_wait_sshare_t, 1);
		g_ptr_array_add(d->sshare, s);
		rc = _sshare_row(f, s, path, n + 1, errp);
		g_strfreev(f);
	}
	g_strfreev(lines);
	g_free(path);
	return rc;
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
	if ((rc = _load_job(dir, job_id, d, errp)))
		return rc;
	if (_load_config(dir, d, errp) || _load_sprio(dir, d, errp) ||
	    _load_sshare(dir, d, errp))
		return -1;
	return 0;
}

void mf_wait_dump_clear(mf_wait_dump_t *d)
{
	mf_job_line_free(d->job);
	g_free(d->dependency);
	g_free(d->reservation);
	g_free(d->private_data);
	g_free(d->priority_flags);
	if (d->sprio)
		g_array_free(d->sprio, TRUE);
	if (d->sshare)
		g_ptr_array_free(d->sshare, TRUE);
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
