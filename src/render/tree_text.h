/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_text: `mfprio tree` in text: one line per association of the view
 * (tree_view.h) in sshare order, indented by depth, with its bars of
 * shares and usage and sshare's figures, coloured on request.
 */
#ifndef MFPRIO_TREE_TEXT_H
#define MFPRIO_TREE_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "fairshare.h"
#include "tree_view.h"

/* Print view V of tree T, by ALGO, to OUT (COLOR: with terminal colours),
 * NOTE (may be NULL) at the end.  Returns nothing. */
void mf_tree_print_text(FILE *out, const mf_tree_t *t, mf_fs_algo_t algo,
			bool color, const mf_tview_t *v, const char *note);

#endif
