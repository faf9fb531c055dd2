/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * user_place: one user's pending jobs and accounts (user_place.h).
 */
#include <string.h>

#include <glib.h>

#include "jobs_input.h"
#include "snapshot_dir.h"
#include "user_place.h"

/* What the pass over the jobs dump keeps. */
typedef struct {
	const char *user;
	GPtrArray *pending;          /* char*: the user's pending jobs' ids */
	char *mine;                  /* the user's first job's id */
	char *any;                   /* the dump's first job's id */
} _scan_t;

static int _scan_job(mf_job_line_t *j, void *arg)
{
	_scan_t *s = arg;
	const char *id = j->job_id_str ? j->job_id_str : j->id_text;
	bool mine = j->user && !strcmp(j->user, s->user);

	if (!s->any)
		s->any = g_strdup(id);
	if (mine && !s->mine)
		s->mine = g_strdup(id);
	if (mine && j->state && !strcmp(j->state, "PENDING"))
		g_ptr_array_add(s->pending, g_strdup(id));
	mf_job_line_free(j);
	return 0;
}

static void _job_free(gpointer p)
{
	mf_user_job_t *u = p;

	mf_wait_clear(&u->w);
	mf_wait_dump_clear_job(&u->d);
	g_free(u);
}

/* The index of the account row each row of SS sits under (-1: none),
 * into a new array of gint.  Returns it. */
static GArray *_parents(const GPtrArray *ss)
{
	GArray *up = g_array_sized_new(FALSE, FALSE, sizeof(gint), ss->len);
	GArray *stack = g_array_new(FALSE, FALSE, sizeof(gint));

	for (guint i = 0; i < ss->len; i++) {
		const mf_wait_sshare_t *r = ss->pdata[i];
		gint parent = -1;

		/* pop the rows that are not above this one */
		while (stack->len) {
			gint top = g_array_index(stack, gint, stack->len - 1);
			const mf_wait_sshare_t *t = ss->pdata[top];

			if (t->depth < r->depth) {
				parent = top;
				break;
			}
			g_array_set_size(stack, stack->len - 1);
		}
		g_array_append_val(up, parent);
		if (!r->user) {
			gint me = (gint) i;

			g_array_append_val(stack, me);
		}
	}
	g_array_unref(stack);
	return up;
}

/* Whether A is served before B among siblings: LevelFS, then name. */
static bool _before(const mf_wait_sshare_t *a, const mf_wait_sshare_t *b)
{
	if (a->level_fs != b->level_fs)
		return a->level_fs > b->level_fs;
	return strcmp(a->account, b->account) < 0;
}

/* The account of user row I of SS and its place, into P->accts. */
static void _acct(mf_user_place_t *p, const GPtrArray *ss, const GArray *up,
		  guint i)
{
	mf_user_acct_t a = { .assoc = ss->pdata[i] };
	gint ai = g_array_index(up, gint, i), pi;

	if (ai >= 0) {
		a.account = ss->pdata[ai];
		a.gap = a.account->eff_usage - a.account->norm_shares;
		a.rank = 1;
		pi = g_array_index(up, gint, ai);
		for (guint k = 0; k < ss->len; k++) {
			const mf_wait_sshare_t *s = ss->pdata[k];

			if (s->user || g_array_index(up, gint, k) != pi)
				continue;
			a.siblings++;
			if ((gint) k != ai && _before(s, a.account))
				a.rank++;
		}
	}
	g_array_append_val(p->accts, a);
}

/* Whether the dumps of DIR were taken by root or SlurmUser (their
 * MF_SNAP_WHY_WHOAMI file: "NAME UID"). */
static bool _taken_by_admin(const char *dir, const mf_wait_dump_t *d)
{
	char *path = g_build_filename(dir, MF_SNAP_WHY_WHOAMI, NULL);
	char *text = NULL, **w = NULL;
	bool admin = false;

	if (g_file_get_contents(path, &text, NULL, NULL)) {
		w = g_strsplit_set(g_strstrip(text), " \t", 3);
		if (w[0] && w[1] && !strcmp(w[1], "0"))
			admin = true;
		if (w[0] && *w[0] && d->slurm_user &&
		    strcspn(d->slurm_user, "(") == strlen(w[0]) &&
		    !strncmp(d->slurm_user, w[0], strlen(w[0])))
			admin = true;
	}
	g_strfreev(w);
	g_free(text);
	g_free(path);
	return admin;
}

/* Whether the dumps hold what PrivateData hides from a plain user. */
static bool _sees_all(const mf_user_place_t *p)
{
	const mf_wait_dump_t *d = &p->base;
	const char *pd = p->private_data;

	if (!pd)
		return false;
	for (guint i = 0; strstr(pd, "usage") && i < d->sshare->len; i++) {
		const mf_wait_sshare_t *r = d->sshare->pdata[i];

		if (r->user && strcmp(r->user, p->user))
			return true;
	}
	for (guint i = 0; strstr(pd, "jobs") && i < d->sprio->len; i++) {
		const mf_wait_sprio_t *r = &g_array_index(d->sprio,
							  mf_wait_sprio_t, i);

		if (r->user && strcmp(r->user, p->user))
			return true;
	}
	return false;
}

/* The jobs of IDS (char*) described into P->jobs, from DIR's jobs dump
 * and P->base's other dumps.  Returns 0, or -1 with errp. */
static int _describe(mf_user_place_t *p, const char *dir, GPtrArray *ids,
		     mf_error_t *errp)
{
	mf_wait_dump_t *out = g_new0(mf_wait_dump_t, ids->len);
	int rc;

	g_ptr_array_add(ids, NULL);
	rc = mf_wait_dump_load_jobs(dir, &p->base, (char **) ids->pdata, out,
				    errp);
	g_ptr_array_set_size(ids, ids->len - 1);
	for (guint i = 0; i < ids->len; i++) {
		mf_user_job_t *u = g_new0(mf_user_job_t, 1);

		u->d = out[i];
		g_ptr_array_add(p->jobs, u);
		if (!rc && mf_wait_describe(&u->d, &u->w, errp))
			rc = -1;
	}
	g_free(out);
	return rc;
}

int mf_user_place_load(const char *dir, const char *user,
		       mf_user_place_t *p, mf_error_t *errp)
{
	_scan_t s = { .user = user,
		      .pending = g_ptr_array_new_with_free_func(g_free) };
	char *path = g_build_filename(dir, MF_SNAP_JOBS, NULL);
	int rc = mf_jobs_each(path, _scan_job, &s, errp);
	GArray *up;

	g_free(path);
	p->user = user;
	p->jobs = g_ptr_array_new_with_free_func(_job_free);
	p->accts = g_array_new(FALSE, TRUE, sizeof(mf_user_acct_t));
	if (!rc && !s.any)
		rc = mf_errprintf(errp, "%s/%s holds no job", dir,
				  MF_SNAP_JOBS);
	if (!rc && mf_wait_dump_load(dir, s.mine ? s.mine : s.any, &p->base,
				     errp))
		rc = -1;
	if (!rc && s.pending->len)
		rc = _describe(p, dir, s.pending, errp);
	if (!rc) {
		const GPtrArray *ss = p->base.sshare;

		up = _parents(ss);
		for (guint i = 0; i < ss->len; i++) {
			const mf_wait_sshare_t *r = ss->pdata[i];

			if (r->user && !strcmp(r->user, user))
				_acct(p, ss, up, i);
		}
		g_array_unref(up);
		p->private_data = p->base.private_data &&
			strcmp(p->base.private_data, "none") ?
			p->base.private_data : NULL;
		p->admin = _taken_by_admin(dir, &p->base) || _sees_all(p);
		if (!s.mine && !p->accts->len)
			rc = -mf_errprintf(errp, "user '%s' has no job in "
					   "%s/%s and no association in "
					   "%s/%s", user, dir, MF_SNAP_JOBS,
					   dir, MF_SNAP_SSHARE);
	}
	g_ptr_array_unref(s.pending);
	g_free(s.mine);
	g_free(s.any);
	return rc;
}

void mf_user_place_clear(mf_user_place_t *p)
{
	g_clear_pointer(&p->jobs, g_ptr_array_unref);
	g_clear_pointer(&p->accts, g_array_unref);
	mf_wait_dump_clear(&p->base);
	memset(p, 0, sizeof(*p));
}
