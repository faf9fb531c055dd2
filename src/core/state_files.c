/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "state_files.h"

static int64_t _be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return (int64_t) v;
}

int mf_state_decode(const unsigned char *data, size_t len, time_t *last_ran,
		    time_t *last_reset)
{
	*last_ran = *last_reset = 0;
	if (!data || len != MF_STATE_BYTES)
		return -1;
	*last_ran = (time_t) _be64(data);
	*last_reset = (time_t) _be64(data + 8);
	return 0;
}

void mf_state_encode(time_t last_ran, time_t last_reset, unsigned char *out)
{
	uint64_t v[2] = { (uint64_t) (int64_t) last_ran,
			  (uint64_t) (int64_t) last_reset };

	for (int k = 0; k < 2; k++)
		for (int i = 0; i < 8; i++)
			out[8 * k + i] = (unsigned char) (v[k] >> (56 - 8 * i));
}

/* A decimal number of digits only starting at *P, at most MAX; *P after
 * it.  -1 when there is no digit or it is larger. */
static int _decimal(const char **p, const char *end, uint64_t max,
		    uint64_t *v)
{
	const char *s = *p;

	*v = 0;
	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (*v > (max - (uint64_t) (*s - '0')) / 10)
			return -1;
		*v = *v * 10 + (uint64_t) (*s - '0');
	}
	*p = s;
	return 0;
}

int mf_charged_line(const char *line, size_t len, uint32_t *id, time_t *end)
{
	const char *p = line, *e = line + len;
	uint64_t v, t;

	if (!line || memchr(line, '\0', len))
		return -1;
	if (_decimal(&p, e, UINT32_MAX, &v) || v == 0 || p == e || *p != ' ')
		return -1;
	p++;
	if (_decimal(&p, e, INT64_MAX, &t) || t == 0)
		return -1;
	for (; p < e; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			return -1;
	*id = (uint32_t) v;
	*end = (time_t) t;
	return 0;
}
