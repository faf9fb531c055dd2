#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# readme-releases.sh: the README's table of supported releases is the one
# release/releases.sh generates from release/releases.tsv (regenerate it
# with that command when the table changes).
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
want=$("$top/release/releases.sh" table) || { echo "FAILED: release/releases.sh table"; echo "0 passed, 1 failed"; exit 1; }
have=$(awk '/^<!-- release\/releases.sh table/ { on = 1; next }
	/^<!-- end of the generated table -->/ { on = 0 }
	on && /^\|/' "$top/README.md")
if [[ $have == "$want" ]]; then
	echo "ok: README.md's release table is release/releases.sh table's"
	echo "1 passed, 0 failed"
else
	echo "FAILED: README.md's release table differs from release/releases.sh table:"
	diff <(echo "$have") <(echo "$want")
	echo "0 passed, 1 failed"
	exit 1
fi
