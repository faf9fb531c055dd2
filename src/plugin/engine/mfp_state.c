/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "src/plugin/adapter/adapter.h"
#include "mfp_state.h"

#define STATE_NAME "priority_last_decay_ran"
/* two pack_time() values */
#define STATE_BYTES 16

static char *_path(const char *suffix);
static int _read_file(const char *path, time_t *last_ran,
		      time_t *last_reset);

/* StateSaveLocation/priority_last_decay_ran + SUFFIX; caller xfrees. */
static char *_path(const char *suffix)
{
	return xstrdup_printf("%s/%s%s", slurm_conf.state_save_location,
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
	buf_t *buf;
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
	buf = init_buf(STATE_BYTES);
	memcpy(get_buf_data(buf), data, STATE_BYTES);
	if ((unpack_time(last_ran, buf) != SLURM_SUCCESS) ||
	    (unpack_time(last_reset, buf) != SLURM_SUCCESS)) {
		error("mfprio: cannot decode state file %s; ignoring it",
		      path);
		*last_ran = *last_reset = 0;
		rc = -1;
	}
	free_buf(buf);
	return rc;
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

	if (!xstrcmp(slurm_conf.state_save_location, "/dev/null")) {
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

int mfp_charged_write(GHashTable *charged)
{
	char *path, *new;
	GHashTableIter it;
	gpointer k, v;
	FILE *f;
	int rc = 0;

	path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      CHARGED_NAME);
	if (!g_hash_table_size(charged)) {
		(void) unlink(path);
		xfree(path);
		return 0;
	}
	new = xstrdup_printf("%s.new", path);
	mfa_state_files_lock();
	if (!(f = fopen(new, "w"))) {
		error("mfprio: cannot create %s: %m", new);
		rc = -1;
	} else {
		g_hash_table_iter_init(&it, charged);
		while (g_hash_table_iter_next(&it, &k, &v))
			fprintf(f, "%u %ld\n", GPOINTER_TO_UINT(k),
				(long) GPOINTER_TO_SIZE(v));
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
	return rc;
}

void mfp_charged_read(GHashTable *charged, time_t last_ran)
{
	char *path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
				    CHARGED_NAME);
	unsigned int id;
	long end;
	FILE *f;
	int n;

	mfa_state_files_lock();
	if ((f = fopen(path, "r"))) {
		while ((n = fscanf(f, "%u %ld", &id, &end)) == 2) {
			if (end > last_ran)
				g_hash_table_insert(charged,
						    GUINT_TO_POINTER(id),
						    GSIZE_TO_POINTER(end));
		}
		if (n != EOF)
			error("mfprio: %s is malformed; ignoring the rest "
			      "of it", path);
		fclose(f);
	}
	mfa_state_files_unlock();
	xfree(path);
}
