/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_svg: `mfprio tree --svg`: the view (tree_view.h) as a
 * self-contained SVG icicle, each association as wide as its part of its
 * parent's shares, filled by its fair-share factor (an account under Fair
 * Tree by its level fair-share), with a legend and a tooltip per box.
 */
#ifndef MFPRIO_TREE_SVG_H
#define MFPRIO_TREE_SVG_H

#include "fairshare.h"
#include "tree_view.h"

/* Write view V of tree T, by ALGO, as SVG to PATH ("-": stdout), with
 * NOTE (may be NULL) at the bottom.  Returns an exit status. */
int mf_tree_write_svg(const char *path, const mf_tree_t *t,
		      mf_fs_algo_t algo, const mf_tview_t *v,
		      const char *note);

#endif
