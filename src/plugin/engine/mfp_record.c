/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mfp_settings.h"
#include "mfp_record.h"

#define RECORD_NAME "mfprio_usage"

static char _last_error[256];   /* decay thread only */

static char *_path(const char *name)
{
	return g_strdup_printf("%s/%s", mfp_conf.state_dir, name);
}

/* --- taking and writing --- */

typedef struct {
	mf_usage_record_t *rec;
	GArray *ids;            /* every association's id */
} take_t;

static void _fill(long double *to, const long double *from)
{
	for (int i = 0, n = mfa_tres_cnt(); from && i < n; i++)
		to[i] = from[i];
}

static int _take_assoc(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	take_t *t = arg;
	slurmdb_assoc_usage_t *u = assoc->usage;

	g_array_append_val(t->ids, assoc->id);
	if (!u || (u->usage_raw == 0.0L && u->grp_used_wall == 0.0))
		return 0;
	_fill(mf_usage_record_add(t->rec, 0, assoc->id, u->usage_raw,
				  u->grp_used_wall), u->usage_tres_raw);
	return 0;
}

static int _take_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *qos = x;
	take_t *t = arg;
	slurmdb_qos_usage_t *u = qos->usage;

	if (!u || (u->usage_raw == 0.0L && u->grp_used_wall == 0.0))
		return 0;
	_fill(mf_usage_record_add(t->rec, 1, qos->id, u->usage_raw,
				  u->grp_used_wall), u->usage_tres_raw);
	return 0;
}

mf_usage_record_t *mfp_record_take(time_t now)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK,
				   .tres = READ_LOCK };
	take_t t = { .rec = g_new0(mf_usage_record_t, 1),
		     .ids = g_array_new(FALSE, FALSE, sizeof(uint32_t)) };

	assoc_mgr_lock(&locks);
	mf_usage_record_init(t.rec, mfp_conf.cluster, now,
			     (uint32_t) mfa_tres_cnt());
	if (assoc_mgr_assoc_list)
		list_for_each(assoc_mgr_assoc_list, _take_assoc, &t);
	if (assoc_mgr_qos_list)
		list_for_each(assoc_mgr_qos_list, _take_qos, &t);
	assoc_mgr_unlock(&locks);
	t.rec->assoc_total = t.ids->len;
	t.rec->assoc_hash = mf_usage_ids_hash((uint32_t *) t.ids->data,
					      t.ids->len);
	g_array_free(t.ids, TRUE);
	return t.rec;
}

/* Log WHAT unless it is the error logged last time. */
static void _say_once(const char *what)
{
	if (!strcmp(what, _last_error))
		return;
	snprintf(_last_error, sizeof(_last_error), "%s", what);
	error("mfprio: %s; usage since slurmctld's last save of "
	      "assoc_usage would be lost in a crash", what);
}

/* Write LEN bytes of DATA to PATH.new, sync it and rename it to PATH.
 * Returns 0, or -1 with *WHY set (g_malloc'd). */
static int _replace(const char *path, const char *data, size_t len,
		    char **why)
{
	char *tmp = g_strdup_printf("%s.new", path);
	size_t off = 0;
	int fd, rc = -1;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		*why = g_strdup_printf("cannot create %s: %s", tmp,
				       strerror(errno));
		goto out;
	}
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*why = g_strdup_printf("cannot write %s: %s", tmp,
					       strerror(errno));
			break;
		}
		off += n;
	}
	if (off == len && fsync(fd) < 0)
		*why = g_strdup_printf("cannot sync %s: %s", tmp,
				       strerror(errno));
	else if (off == len)
		rc = 0;
	if (close(fd) < 0 && !rc) {
		*why = g_strdup_printf("cannot close %s: %s", tmp,
				       strerror(errno));
		rc = -1;
	}
	if (!rc && rename(tmp, path) < 0) {
		*why = g_strdup_printf("cannot rename %s to %s: %s", tmp, path,
				       strerror(errno));
		rc = -1;
	}
	if (rc)
		(void) unlink(tmp);
out:
	g_free(tmp);
	return rc;
}

int mfp_record_write(mf_usage_record_t *rec)
{
	char *path, *text, *why = NULL;
	size_t len;
	int rc;

	if (!rec)
		return -1;
	path = _path(RECORD_NAME);
	text = mf_usage_record_format(rec, &len);
	mf_usage_record_clear(rec);
	g_free(rec);
	rc = _replace(path, text, len, &why);
	if (rc)
		_say_once(why);
	else
		_last_error[0] = '\0';
	g_free(why);
	g_free(text);
	g_free(path);
	return rc;
}

/* --- taking it back at start --- */

typedef struct {
	const mf_usage_record_t *rec;
	GHashTable *by_id;      /* id -> mf_rec_entry_t * */
	GArray *ids;
	uint32_t missing_qos;
	int set;
} apply_t;

static void _put(long double *raw, double *wall, long double *tres,
		 const mf_rec_entry_t *e)
{
	*raw = e ? e->raw : 0.0L;
	*wall = e ? e->wall : 0.0;
	for (int i = 0, n = mfa_tres_cnt(); tres && i < n; i++)
		tres[i] = e ? e->tres[i] : 0.0L;
}

static int _ids(void *x, void *arg)
{
	g_array_append_val(((apply_t *) arg)->ids,
			   ((slurmdb_assoc_rec_t *) x)->id);
	return 0;
}

static int _apply_assoc(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	apply_t *a = arg;
	slurmdb_assoc_usage_t *u = assoc->usage;

	if (!u)
		return 0;
	_put(&u->usage_raw, &u->grp_used_wall, u->usage_tres_raw,
	     g_hash_table_lookup(a->by_id, GUINT_TO_POINTER(assoc->id)));
	a->set++;
	return 0;
}

static int _apply_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *qos = x;
	apply_t *a = arg;
	slurmdb_qos_usage_t *u = qos->usage;

	if (!u)
		return 0;
	_put(&u->usage_raw, &u->grp_used_wall, u->usage_tres_raw,
	     g_hash_table_lookup(a->by_id, GUINT_TO_POINTER(qos->id)));
	return 0;
}

static int _has_qos(void *x, void *key)
{
	return ((slurmdb_qos_rec_t *) x)->id == GPOINTER_TO_UINT(key);
}

/* Why REC does not fit what slurmctld has now (a static string), or NULL.
 * Caller holds assoc_mgr's locks. */
static const char *_misfit(const mf_usage_record_t *rec, apply_t *a)
{
	if (xstrcmp(rec->cluster, mfp_conf.cluster))
		return "it is of another cluster";
	if (rec->tres_cnt != (uint32_t) mfa_tres_cnt())
		return "it has another number of TRES";
	a->ids = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	list_for_each(assoc_mgr_assoc_list, _ids, a);
	if (a->ids->len != rec->assoc_total ||
	    mf_usage_ids_hash((uint32_t *) a->ids->data, a->ids->len) !=
	    rec->assoc_hash)
		return "it is of another set of associations";
	for (guint i = 0; i < rec->qos->len; i++) {
		uint32_t id = g_array_index(rec->qos, mf_rec_entry_t, i).id;

		if (!list_find_first(assoc_mgr_qos_list, _has_qos,
				     GUINT_TO_POINTER(id)))
			return "it names a QOS slurmctld does not have";
	}
	return NULL;
}

/* Put REC's usage into every association and QOS (one REC does not name
 * gets 0).  Returns how many associations were set, or -1 with *WHY set
 * (a static string) when REC does not fit what slurmctld has now. */
static int _apply(const mf_usage_record_t *rec, const char **why)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
				   .tres = READ_LOCK };
	apply_t a = { .rec = rec };

	*why = NULL;
	assoc_mgr_lock(&locks);
	if (!assoc_mgr_assoc_list || !assoc_mgr_qos_list) {
		assoc_mgr_unlock(&locks);
		return 0;
	}
	if ((*why = _misfit(rec, &a))) {
		assoc_mgr_unlock(&locks);
		goto out;
	}
	a.by_id = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (guint i = 0; i < rec->assocs->len; i++) {
		mf_rec_entry_t *e = &g_array_index(rec->assocs,
						   mf_rec_entry_t, i);

		g_hash_table_insert(a.by_id, GUINT_TO_POINTER(e->id), e);
	}
	list_for_each(assoc_mgr_assoc_list, _apply_assoc, &a);
	g_hash_table_remove_all(a.by_id);
	for (guint i = 0; i < rec->qos->len; i++) {
		mf_rec_entry_t *e = &g_array_index(rec->qos, mf_rec_entry_t, i);

		g_hash_table_insert(a.by_id, GUINT_TO_POINTER(e->id), e);
	}
	list_for_each(assoc_mgr_qos_list, _apply_qos, &a);
	assoc_mgr_unlock(&locks);
	g_hash_table_destroy(a.by_id);
out:
	if (a.ids)
		g_array_free(a.ids, TRUE);
	return *why ? -1 : a.set;
}

static void _take_in(const char *path, const mf_usage_record_t *rec)
{
	const char *why;
	int set = _apply(rec, &why);

	if (set < 0)
		error("mfprio: %s is not used: %s", path, why);
	else
		info("mfprio: usage of %d associations and %u QOS taken from "
		     "%s, of %ld, newer than slurmctld's saved usage", set,
		     rec->qos->len, path, (long) rec->time);
}

/* What HELD (mfp_record_take) had, put back after a failed read. */
static void _put_back(const mf_usage_record_t *held)
{
	const char *why;

	if (_apply(held, &why) < 0)
		error("mfprio: the usage slurmctld held could not be put back: "
		      "%s", why);
}

/* When this process started, in seconds since the epoch (0 when /proc
 * cannot say): the boot time plus the process's start in clock ticks
 * (the 22nd field of /proc/self/stat, the 20th after the name's ')'). */
static time_t _process_start(void)
{
	gchar *stat = NULL, *sys = NULL, *p;
	gchar **f = NULL;
	unsigned long long ticks = 0, btime = 0;
	long hz = sysconf(_SC_CLK_TCK);
	time_t start = 0;

	if (hz <= 0 || !g_file_get_contents("/proc/self/stat", &stat, NULL, NULL) ||
	    !g_file_get_contents("/proc/stat", &sys, NULL, NULL))
		goto out;
	if (!(p = strrchr(stat, ')')) || !(p = strstr(sys, "\nbtime ")))
		goto out;
	btime = g_ascii_strtoull(p + 7, NULL, 10);
	f = g_strsplit(strrchr(stat, ')') + 2, " ", 0);
	if (g_strv_length(f) > 19)
		ticks = g_ascii_strtoull(f[19], NULL, 10);
	if (btime && ticks)
		start = (time_t) (btime + ticks / (unsigned long long) hz);
out:
	g_strfreev(f);
	g_free(sys);
	g_free(stat);
	return start;
}

/* An association's usage to zero (list_for_each; assoc_mgr's write lock
 * held). */
static int _zero_assoc(void *x, void *arg)
{
	slurmdb_assoc_usage_t *u = ((slurmdb_assoc_rec_t *) x)->usage;

	(void) arg;
	if (u)
		_put(&u->usage_raw, &u->grp_used_wall, u->usage_tres_raw,
		     NULL);
	return 0;
}

/* Whether A and B are one file, as stat(2) saw it at two moments. */
static bool _same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
		a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
		a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* A backup controller handing control back saves slurmctld's usage as it
 * goes to standby; from 26.05 (seen on 26.11) it may answer the primary
 * before that save, and the primary loads the file it finds, an older
 * one.  A saved usage written after this process started was written by
 * another controller since (or, from 24.05, by this slurmctld itself just
 * before it loaded the plugin: reading it again is then harmless): read it
 * again, so that slurmctld holds it.  What slurmctld held is kept if that
 * read finds no file (slurmctld's save unlinks the old one before it
 * links the new), another file than the one looked at, or fails. */
static void _reload_newer(const char *saved)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };
	struct stat before, after;
	time_t started = _process_start();
	mf_usage_record_t *held;
	int rc;

	if (!started || stat(saved, &before) != 0 ||
	    before.st_mtime < started)
		return;
	info("mfprio: %s (of %ld) was written after this slurmctld started "
	     "(%ld), by the controller that handed over or by this one: read "
	     "again", saved, (long) before.st_mtime, (long) started);
	held = mfp_record_take(time(NULL));
	/* load_assoc_usage() adds each association's saved usage to its own
	 * and its parents': from zero, or what slurmctld loaded at its start
	 * would count twice (from 24.05 slurmctld saves its state before it
	 * loads this plugin, so an ordinary restart comes here too) */
	assoc_mgr_lock(&locks);
	if (assoc_mgr_assoc_list)
		list_for_each(assoc_mgr_assoc_list, _zero_assoc, NULL);
	assoc_mgr_unlock(&locks);
	rc = mfa_load_usage(false);
	if (rc != SLURM_SUCCESS || stat(saved, &after) != 0 ||
	    !_same_file(&before, &after)) {
		error("mfprio: %s could not be read again (%s): the usage "
		      "slurmctld held is kept", saved,
		      rc != SLURM_SUCCESS ? slurm_strerror(rc) :
		      "it was replaced while it was read");
		_put_back(held);
	} else {
		(void) mfa_load_usage(true);
	}
	mf_usage_record_clear(held);
	g_free(held);
}

void mfp_record_apply(time_t last_ran)
{
	char *path = _path(RECORD_NAME), *saved = _path("assoc_usage");
	gchar *text = NULL;
	gsize len = 0;
	GError *gerr = NULL;
	mf_usage_record_t rec;
	mf_error_t err;
	struct stat st;
	struct timespec rec_at = { 0 }, saved_at = { 0 };

	_reload_newer(saved);
	if (!g_file_get_contents(path, &text, &len, &gerr)) {
		if (gerr->code != G_FILE_ERROR_NOENT)
			error("mfprio: cannot read %s: %s", path,
			      gerr->message);
		g_error_free(gerr);
		goto out;
	}
	if (mf_usage_record_parse(text, len, &rec, &err) < 0) {
		error("mfprio: %s is not used: %s", path, err.text);
		goto out;
	}
	/* which was written last: the record is written at the end of a
	 * tick, so a save of slurmctld's usage during that tick (a shutdown
	 * as the tick starts) may lack the tick's charge while the record,
	 * written after it, has it */
	if (stat(path, &st) == 0)
		rec_at = st.st_mtim;
	if (stat(saved, &st) == 0)
		saved_at = st.st_mtim;
	if (rec.time > last_ran)
		error("mfprio: %s is not used: it is of %ld, after the last "
		      "decay tick (%ld) that running jobs are charged from",
		      path, (long) rec.time, (long) last_ran);
	else if (rec_at.tv_sec < saved_at.tv_sec ||
		 (rec_at.tv_sec == saved_at.tv_sec &&
		  rec_at.tv_nsec <= saved_at.tv_nsec))
		info("mfprio: %s (of %ld) was written before slurmctld last "
		     "saved its usage (%ld): slurmctld's is used", path,
		     (long) rec.time, (long) saved_at.tv_sec);
	else
		_take_in(path, &rec);
	mf_usage_record_clear(&rec);
out:
	g_free(text);
	g_free(saved);
	g_free(path);
}
