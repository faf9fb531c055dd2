/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prom_text: where metrics.c writes Prometheus's text exposition format:
 * a buffered sink (a file written a megabyte at a time, or a string), its
 * inline writes, and each family's HELP and TYPE lines.  The numbers and
 * labels, written for every sample, stay in metrics.c, where they are
 * inlined.
 */
#ifndef MFPRIO_PROM_TEXT_H
#define MFPRIO_PROM_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <glib.h>

/*
 * Where the text goes: a buffer of MF_PROM_SINK_SIZE bytes written out to
 * FD when full (the file: memory stays small whatever the site's size),
 * or appended to G (mf_metrics_format).  ERR: the first write's errno.
 */
#define MF_PROM_SINK_SIZE (1 << 20)
#define MF_PROM_SINK_ROOM 4096          /* one line fits, always */

typedef struct {
	char *buf;
	size_t len;
	int fd;
	GString *g;
	int err;
	size_t total;            /* bytes written to FD */
} mf_prom_sink_t;

/* Hand what O buffers to its file or string.  Returns nothing (a failed
 * write in O->err). */
void mf_prom_flush(mf_prom_sink_t *o);

/* Room for N more bytes (N at most MF_PROM_SINK_ROOM, or anything: flushed and
 * then written straight through). */
static inline void mf_prom_room(mf_prom_sink_t *o, size_t n)
{
	if (o->len + n > MF_PROM_SINK_SIZE)
		mf_prom_flush(o);
}

static inline void mf_prom_put(mf_prom_sink_t *o, const char *s, size_t n)
{
	if (n > MF_PROM_SINK_SIZE - MF_PROM_SINK_ROOM) {
		/* a huge name: written straight through */
		mf_prom_sink_t big = { .buf = (char *) s, .len = n, .fd = o->fd,
				.g = o->g };

		mf_prom_flush(o);
		mf_prom_flush(&big);
		o->total += big.total;
		if (!o->err)
			o->err = big.err;
		return;
	}
	mf_prom_room(o, n);
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static inline void mf_prom_puts(mf_prom_sink_t *o, const char *s)
{
	mf_prom_put(o, s, strlen(s));
}

/* The HELP and TYPE lines of family NAME into O.  Returns nothing. */
void mf_prom_head(mf_prom_sink_t *o, const char *name, const char *type,
		  const char *help);

#endif
