/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prom_text: Prometheus's text exposition format (prom_text.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "prom_text.h"

/* Hand what is buffered to the file or the string. */
void mf_prom_flush(mf_prom_sink_t *o)
{
	size_t done = 0;

	if (o->g) {
		g_string_append_len(o->g, o->buf, (gssize) o->len);
		o->len = 0;
		return;
	}
	while (done < o->len && !o->err) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			o->err = n < 0 ? errno : ENOSPC;
		else
			done += (size_t) n;
	}
	o->total += done;
	o->len = 0;
}

void mf_prom_head(mf_prom_sink_t *o, const char *name, const char *type,
		  const char *help)
{
	mf_prom_puts(o, "# HELP ");
	mf_prom_puts(o, name);
	mf_prom_puts(o, " ");
	mf_prom_puts(o, help);
	mf_prom_puts(o, "\n# TYPE ");
	mf_prom_puts(o, name);
	mf_prom_puts(o, " ");
	mf_prom_puts(o, type);
	mf_prom_puts(o, "\n");
}

