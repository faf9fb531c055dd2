/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_hostlist: the bytes as a host list of NodeName= or Nodes=
 * (mf_hostlist_expand: "n[01-04,7]", "rack[1-2]-n[1-3]").
 */
#include "fuzz_util.h"

#include "hostlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_text(data, size);
	mf_error_t err = { { 0 } };
	GPtrArray *names = mf_hostlist_expand(s, &err);

	if (names)
		g_ptr_array_unref(names);
	else if (!err.text[0])
		abort();
	free(s);
	return 0;
}
