/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "release.h"
#include "release_table.h"

/* The series of release/releases.tsv (src/release_table.h). */
#define KNOWN_ROW(major, minor, family) MF_RELEASE(major, minor),
static const mf_release_t known[] = { MF_RELEASE_TABLE(KNOWN_ROW) };
#undef KNOWN_ROW
#define KNOWN_CNT (sizeof(known) / sizeof(known[0]))

bool mf_release_known(mf_release_t rel)
{
	for (size_t i = 0; i < KNOWN_CNT; i++)
		if (known[i] == rel)
			return true;
	return false;
}

const char *mf_release_name(mf_release_t rel, char *buf)
{
	snprintf(buf, 8, "%02u.%02u", (unsigned)(rel / 100 % 100),
		 (unsigned)(rel % 100));
	return buf;
}

/* Read 1 to 2 decimal digits at *P; -1 if there are none. */
static int _number(const char **p)
{
	int n = 0, digits = 0;

	while (**p >= '0' && **p <= '9' && digits < 3) {
		n = n * 10 + (**p - '0');
		(*p)++;
		digits++;
	}
	return (digits && digits <= 2) ? n : -1;
}

int mf_release_parse(const char *text, mf_release_t *out, mf_error_t *errp)
{
	const char *p = text;
	int major, minor;
	mf_release_t rel;

	if (!text || !*text)
		return mf_errprintf(errp, "empty Slurm release (expected e.g. "
				    "23.11 or 23.11.11)");
	major = _number(&p);
	if (major < 0 || *p != '.')
		goto bad;
	p++;
	minor = _number(&p);
	if (minor < 0)
		goto bad;
	if (*p == '.') {
		p++;
		if (_number(&p) < 0)
			goto bad;
	}
	if (*p)
		goto bad;
	rel = MF_RELEASE(major, minor);
	if (!mf_release_known(rel))
		return mf_errprintf(errp, "Slurm release '%s' is not one mfprio "
				    "knows (" MF_RELEASES_LIST ")", text);
	*out = rel;
	return 0;
bad:
	return mf_errprintf(errp, "'%s' is not a Slurm release (expected e.g. "
			    "23.11 or 23.11.11)", text);
}

bool mf_release_js_guarded(mf_release_t rel)
{
	return rel >= MF_RELEASE(23, 2);
}

bool mf_release_sshare_fs_users_only(mf_release_t rel)
{
	return rel >= MF_RELEASE(25, 11);
}
