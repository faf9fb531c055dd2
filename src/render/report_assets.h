/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_assets: the page's stylesheet and scripts (src/render/report.css,
 * report_rank.js, report_history.js and report.js), as NULL-terminated arrays of lines that
 * src/render/asset_c.sh writes into report_assets.c at build time.
 */
#ifndef MFPRIO_REPORT_ASSETS_H
#define MFPRIO_REPORT_ASSETS_H

extern const char *const mf_report_css[];
extern const char *const mf_report_rank_js[];
extern const char *const mf_report_history_js[];
extern const char *const mf_report_js[];

#endif
