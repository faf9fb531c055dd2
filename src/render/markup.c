/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "markup.h"

void mf_markup_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			fputc((unsigned char) *s < 0x20 ? '?' : *s, out);
		}
	}
}
