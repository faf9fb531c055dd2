/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>

#include "memcount.h"

#if defined(__SANITIZE_ADDRESS__)
#define MC_WRAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MC_WRAP 0
#endif
#endif
#ifndef MC_WRAP
#define MC_WRAP 1
#endif

/* a chunk's header in glibc's malloc, on 64-bit */
#define MC_HEADER 8

static int64_t _total, _mark, _peak;
static bool _on;

bool mc_enabled(void)
{
	return MC_WRAP;
}

void mc_count(bool on)
{
	_on = on;
}

void mc_mark(void)
{
	_mark = _peak = _total;
}

int64_t mc_peak(void)
{
	return _peak - _mark;
}

int64_t mc_now(void)
{
	return _total - _mark;
}

#if MC_WRAP
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void *__libc_memalign(size_t align, size_t n);
void __libc_free(void *p);

static void *_add(void *p);
static void _sub(void *p);

static void *_add(void *p)
{
	if (p && _on) {
		_total += (int64_t)malloc_usable_size(p) + MC_HEADER;
		if (_total > _peak)
			_peak = _total;
	}
	return p;
}

static void _sub(void *p)
{
	if (p && _on)
		_total -= (int64_t)malloc_usable_size(p) + MC_HEADER;
}

void *malloc(size_t n)
{
	return _add(__libc_malloc(n));
}

void *calloc(size_t n, size_t size)
{
	return _add(__libc_calloc(n, size));
}

void *realloc(void *p, size_t n)
{
	void *q;

	if (!p)
		return malloc(n);
	if (!n) {
		free(p);
		return NULL;
	}
	_sub(p);
	q = __libc_realloc(p, n);
	_add(q ? q : p);        /* on failure the old block stays */
	return q;
}

void *reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

void free(void *p)
{
	_sub(p);
	__libc_free(p);
}

void *memalign(size_t align, size_t n)
{
	return _add(__libc_memalign(align, n));
}

void *aligned_alloc(size_t align, size_t n)
{
	return _add(__libc_memalign(align, n));
}

int posix_memalign(void **out, size_t align, size_t n)
{
	void *p;

	if (align % sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	p = _add(__libc_memalign(align, n));
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

void *valloc(size_t n)
{
	return memalign(4096, n);
}
#endif
