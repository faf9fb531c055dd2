# SPDX-License-Identifier: GPL-2.0-or-later
# sprio-rank.awk: each sprio row of user U ("id|partition|user|priority"
# first, as MF_WAIT_SPRIO_FORMAT and `sprio -o '%i|%r|%u|%Y'` give them)
# as "ID PARTITION RANK OF": its rank among the rows of its partition,
# 1 + those of a higher priority, or the same and a lower job id.
#     awk -F'|' -v u=USER -f sprio-rank.awk SPRIO
{
	for (f = 1; f <= 4; f++)
		gsub(/ /, "", $f)
	j[NR] = $1; p[NR] = $2; w[NR] = $3; y[NR] = $4
}
END {
	for (i = 1; i <= NR; i++) {
		if (w[i] != u)
			continue
		r = 1; n = 0
		for (k = 1; k <= NR; k++) {
			if (p[k] != p[i])
				continue
			n++
			if (y[k] + 0 > y[i] + 0 ||
			    (y[k] + 0 == y[i] + 0 && j[k] + 0 < j[i] + 0))
				r++
		}
		print j[i], p[i], r, n
	}
}
