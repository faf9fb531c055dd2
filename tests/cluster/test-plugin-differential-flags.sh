#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-plugin-differential-flags.sh: test-plugin-differential.sh over weight
# and flag settings (damping, NO_NORMAL_*, favor small, relative job size,
# MAX_TRES, TRES weights, CALCULATE_RUNNING, ACCRUE_ALWAYS).
MFPRIO_DIFF_CASES=flags exec "$(dirname "$0")/test-plugin-differential.sh" "$@"
