/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_files: reading the plugin's small state files, as pure functions
 * (the plugin does the I/O and the logging; mfp_state.h).
 *
 *   priority_last_decay_ran  two times, each as Slurm packs a time: 8
 *                            bytes, big-endian (the last decay, the last
 *                            usage reset);
 *   mfprio_charged_jobs      a line "JOBID ENDTIME" per job charged since
 *                            the last decay (decimal; JOBID 1..2^32-1,
 *                            ENDTIME > 0; trailing blanks allowed).
 *
 * No allocation, no logging.
 */
#ifndef MFPRIO_STATE_FILES_H
#define MFPRIO_STATE_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define MF_STATE_BYTES 16

/* Decode the LEN bytes of DATA into the two times.  Returns 0, or -1 when
 * LEN is not MF_STATE_BYTES (both times 0 then). */
int mf_state_decode(const unsigned char *data, size_t len, time_t *last_ran,
		    time_t *last_reset);

/* Encode the two times into OUT (MF_STATE_BYTES). */
void mf_state_encode(time_t last_ran, time_t last_reset, unsigned char *out);

/* Read one line of LEN bytes (its newline included or not; a NUL inside
 * makes it bad) of the charged-jobs file.  Returns 0, or -1 when it is not
 * "JOBID ENDTIME" (*ID and *END untouched then). */
int mf_charged_line(const char *line, size_t len, uint32_t *id, time_t *end);

#endif
