/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_util: what the libFuzzer harnesses of tests/fuzz share.  The
 * parsers under test take either a NUL-terminated text or a path; these
 * helpers turn the fuzzer's bytes into one or the other without touching
 * the disk (an anonymous memory file named through /proc/self/fd).
 */
#ifndef MFPRIO_FUZZ_UTIL_H
#define MFPRIO_FUZZ_UTIL_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* DATA[0..SIZE) as a new NUL-terminated string (free()); an embedded NUL
 * ends it early, as it would for a C reader of text. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A memory file holding DATA[0..SIZE) exactly (NUL bytes kept); its path
 * is written to PATH (at least 32 bytes).  Returns the descriptor, to be
 * given to fuzz_file_close(). */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path)
{
	int fd = memfd_create("mfprio-fuzz", MFD_CLOEXEC);
	size_t off = 0;

	if (fd < 0) {
		perror("memfd_create");
		abort();
	}
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);

		if (n <= 0) {
			perror("write");
			abort();
		}
		off += (size_t) n;
	}
	snprintf(path, 32, "/proc/self/fd/%d", fd);
	return fd;
}

static inline void fuzz_file_close(int fd)
{
	close(fd);
}

/* Split DATA at the first line that is exactly "%%": the part before it
 * into A and ASIZE, the part after into B and BSIZE (B NULL when there is no
 * such line).  For harnesses whose parser reads two files. */
static inline void fuzz_split(const uint8_t *data, size_t size,
			      const uint8_t **a, size_t *asize,
			      const uint8_t **b, size_t *bsize)
{
	*a = data;
	*asize = size;
	*b = NULL;
	*bsize = 0;
	for (size_t i = 0; i + 1 < size; i++) {
		if ((i == 0 || data[i - 1] == '\n') && data[i] == '%' &&
		    data[i + 1] == '%' &&
		    (i + 2 == size || data[i + 2] == '\n')) {
			size_t rest = i + 2 < size ? i + 3 : size;

			*asize = i;
			*b = data + rest;
			*bsize = size - rest;
			return;
		}
	}
}

#endif
