/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/plugin/access/access.h"
#include "mfp_settings.h"
#include "mfp_state.h"

#include "src/core/state_files.h"

#define STATE_NAME "priority_last_decay_ran"
/* two pack_time() values */
#define STATE_BYTES MF_STATE_BYTES
/* A time read from the file is believed when it is 0 (never) or between
 * these: none is older than 2001-09-09, and a clock may lag a little. */
#define STATE_EARLIEST ((time_t) 1000000000)
#define STATE_SKEW 300

static void _sanitize(const char *path, const char *what, time_t *t,
		      time_t now);

static char *_path(const char *suffix);
static int _read_file(const char *path, time_t *last_ran,
		      time_t *last_reset);

/* StateSaveLocation/priority_last_decay_ran + SUFFIX; caller xfrees. */
static char *_path(const char *suffix)
{
	return xstrdup_printf("%s/%s%s", mfp_conf.state_dir,
			      STATE_NAME, suffix);
}

/*
 * Decode PATH.  Returns 1 when read, 0 when the file does not exist, -1
 * (after logging) when it exists but cannot be used.
 */
static int _read_file(const char *path, time_t *last_ran,
		      time_t *last_reset)
{
	char data[STATE_BYTES];
	ssize_t n, got = 0;
	int fd, rc = 1;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return 0;
		error("mfprio: cannot open state file %s: %m; starting "
		      "without the last decay time", path);
		return -1;
	}
	while (got < STATE_BYTES) {
		n = read(fd, data + got, STATE_BYTES - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	if (got < STATE_BYTES) {
		error("mfprio: state file %s is truncated (%zd of %d bytes); "
		      "ignoring it (slurmctld keeps running)", path, got,
		      STATE_BYTES);
		return -1;
	}
	if (mf_state_decode((unsigned char *) data, STATE_BYTES, last_ran,
			    last_reset) < 0) {
		error("mfprio: cannot decode state file %s; ignoring it",
		      path);
		rc = -1;
	}
	if (rc > 0) {
		time_t now = time(NULL);

		_sanitize(path, "last decay", last_ran, now);
		_sanitize(path, "last usage reset", last_reset, now);
	}
	return rc;
}

/*
 * A time in the future (a clock set back, or garbage) or before any Slurm
 * is taken as NOW, and said so: decay is then not caught up and running
 * jobs are charged from NOW (never twice for time already charged), and a
 * usage reset comes at the next boundary after NOW (not at once, not
 * never).
 */
static void _sanitize(const char *path, const char *what, time_t *t,
		      time_t now)
{
	if (!*t)
		return;
	if (*t > now + STATE_SKEW)
		error("mfprio: state file %s: %s time %ld is %ld s in the "
		      "future; taken as now (%ld)", path, what, (long) *t,
		      (long) (*t - now), (long) now);
	else if (*t < STATE_EARLIEST)
		error("mfprio: state file %s: %s time %ld is not a plausible "
		      "time; taken as now (%ld)", path, what, (long) *t,
		      (long) now);
	else
		return;
	*t = now;
}

void mfp_state_read(time_t *last_ran, time_t *last_reset)
{
	char *path = _path(""), *old = _path(".old");
	int rc;

	*last_ran = *last_reset = 0;
	mfa_state_files_lock();
	rc = _read_file(path, last_ran, last_reset);
	if (rc <= 0) {
		time_t r = 0, s = 0;

		if (_read_file(old, &r, &s) > 0) {
			info("mfprio: using the previous state file %s "
			     "(last decay %ld)", old, (long) r);
			*last_ran = r;
			*last_reset = s;
		} else if (rc == 0) {
			info("mfprio: no state file %s: first start, no "
			     "decay to catch up", path);
		}
	} else {
		log_flag(PRIO, "mfprio: last decay at %ld, last reset at %ld "
			 "(from %s)", (long) *last_ran, (long) *last_reset,
			 path);
	}
	mfa_state_files_unlock();
	xfree(path);
	xfree(old);
}

int mfp_state_write(time_t last_ran, time_t last_reset)
{
	char *path, *old, *new;
	buf_t *buf;
	char *data;
	int fd, rc = 0;
	uint32_t len, off = 0;

	if (!xstrcmp(mfp_conf.state_dir, "/dev/null")) {
		error("mfprio: StateSaveLocation is /dev/null: cannot save "
		      "the last decay time");
		return -1;
	}
	buf = init_buf(STATE_BYTES);
	pack_time(last_ran, buf);
	pack_time(last_reset, buf);
	data = get_buf_data(buf);
	len = get_buf_offset(buf);

	path = _path("");
	old = _path(".old");
	new = _path(".new");
	mfa_state_files_lock();
	if ((fd = open(new, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		       0600)) < 0) {
		error("mfprio: cannot create %s: %m", new);
		rc = -1;
	} else {
		while (off < len) {
			ssize_t n = write(fd, data + off, len - off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				error("mfprio: cannot write %s: %m", new);
				rc = -1;
				break;
			}
			off += n;
		}
		if (!rc && fsync(fd) < 0) {
			error("mfprio: cannot sync %s: %m", new);
			rc = -1;
		}
		if (close(fd) < 0 && !rc) {
			error("mfprio: cannot close %s: %m", new);
			rc = -1;
		}
	}
	if (rc) {
		(void) unlink(new);
	} else {
		/* keep the previous good copy as .old, then swap in */
		(void) unlink(old);
		if (link(path, old) < 0 && errno != ENOENT)
			debug("mfprio: cannot link %s to %s: %m", path, old);
		if (rename(new, path) < 0) {
			error("mfprio: cannot rename %s to %s: %m", new, path);
			(void) unlink(new);
			rc = -1;
		}
	}
	mfa_state_files_unlock();
	xfree(path);
	xfree(old);
	xfree(new);
	free_buf(buf);
	return rc;
}

#define CHARGED_NAME "mfprio_charged_jobs"

GArray *mfp_charged_copy(GHashTable *charged)
{
	GArray *record = g_array_sized_new(FALSE, FALSE, sizeof(mfp_charged_t),
					   g_hash_table_size(charged));
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, charged);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		mfp_charged_t c = { .job_id = GPOINTER_TO_UINT(k),
				    .end = (time_t) GPOINTER_TO_SIZE(v) };

		g_array_append_val(record, c);
	}
	return record;
}

int mfp_charged_write(GArray *record)
{
	char *path, *new;
	FILE *f;
	int rc = 0;

	path = xstrdup_printf("%s/%s", mfp_conf.state_dir,
			      CHARGED_NAME);
	mfa_state_files_lock();
	if (!record || !record->len) {
		(void) unlink(path);
		mfa_state_files_unlock();
		xfree(path);
		if (record)
			g_array_free(record, TRUE);
		return 0;
	}
	new = xstrdup_printf("%s.new", path);
	if (!(f = fopen(new, "w"))) {
		error("mfprio: cannot create %s: %m", new);
		rc = -1;
	} else {
		for (guint i = 0; i < record->len; i++) {
			mfp_charged_t *c = &g_array_index(record,
							  mfp_charged_t, i);

			fprintf(f, "%u %ld\n", c->job_id, (long) c->end);
		}
		if (fflush(f) || fsync(fileno(f)) < 0) {
			error("mfprio: cannot write %s: %m", new);
			rc = -1;
		}
		if (fclose(f) && !rc) {
			error("mfprio: cannot close %s: %m", new);
			rc = -1;
		}
		if (!rc && rename(new, path) < 0) {
			error("mfprio: cannot rename %s to %s: %m", new, path);
			rc = -1;
		}
		if (rc)
			(void) unlink(new);
	}
	mfa_state_files_unlock();
	xfree(path);
	xfree(new);
	g_array_free(record, TRUE);
	return rc;
}

void mfp_charged_read(GHashTable *charged, time_t last_ran)
{
	char *path = xstrdup_printf("%s/%s", mfp_conf.state_dir,
				    CHARGED_NAME);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, bad = 0;
	guint kept = 0;
	FILE *f;

	mfa_state_files_lock();
	if ((f = fopen(path, "r"))) {
		while ((len = getline(&line, &cap, f)) >= 0) {
			uint32_t id;
			time_t end;

			lineno++;
			if (len == 0 || (len == 1 && line[0] == '\n'))
				continue;
			if (mf_charged_line(line, (size_t) len, &id, &end)) {
				if (bad++ < 5)
					error("mfprio: %s:%d: not \"JOBID "
					      "ENDTIME\": line skipped, the "
					      "others are kept", path, lineno);
				continue;
			}
			if (end > last_ran) {
				g_hash_table_insert(charged,
						    GUINT_TO_POINTER(id),
						    GSIZE_TO_POINTER(end));
				kept++;
			}
		}
		if (bad > 5)
			error("mfprio: %s: %d bad lines in all", path, bad);
		info("mfprio: %s: %u jobs that ended since the last decay "
		     "pass were charged already", path, kept);
		fclose(f);
		free(line);
	} else if (errno != ENOENT) {
		error("mfprio: cannot read %s: %m; jobs that ended since the "
		      "last decay pass may be charged again", path);
	}
	mfa_state_files_unlock();
	xfree(path);
}
