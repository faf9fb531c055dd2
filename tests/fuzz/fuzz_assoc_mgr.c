/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_assoc_mgr: the bytes as `scontrol show assoc_mgr flags=assoc,qos`
 * output, read through its file reader (mf_amgr_load: NUL bytes kept, so
 * the binary-file check is reached) and its text parser (mf_amgr_parse).
 */
#include "fuzz_util.h"

#include "assoc_mgr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mf_error_t err = { { 0 } };
	char path[32];
	int fd = fuzz_file(data, size, path);
	mf_amgr_t *m = mf_amgr_load(path, &err);

	if (!m && !err.text[0])
		abort();
	mf_amgr_free(m);
	fuzz_file_close(fd);

	char *text = fuzz_text(data, size);

	err.text[0] = '\0';
	m = mf_amgr_parse(text, "fuzz-assoc-mgr", &err);
	if (!m && !err.text[0])
		abort();
	mf_amgr_free(m);
	free(text);
	return 0;
}
