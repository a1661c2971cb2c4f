#!/bin/sh
# How calibration's link measurements grow with the cluster
# (experiments/README.md, "Links per host"), one command:
#   sh experiments/links/links.sh        a few minutes on this machine
# For N = 1, 3, 10, 30 and 100 single-core hosts (NODES='...' to choose),
# two described clusters: 'mixed', whose hosts sit behind links of three
# rates (every 7th host from the second at 100 Mbit/s, every 11th from the
# sixth at 400 Mbit/s, the rest at 1 Gbit/s: slow hosts never adjacent),
# and 'mostly-slow' (every 5th host at 1 Gbit/s, the rest at 100 Mbit/s:
# the fast hosts' pairs are few and must be found), each calibrated under
# SMPI as a user would calibrate a real one, and the platform calibration
# writes is compared with the described one on every pair of hosts.
# -> OUT/links.tsv, OUT/study.json, OUT/summary.md (default
# experiments/links/results; 'analysis.py links OUT' redoes the summary).
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh test SCALAPACK_TARBALL builds it)" test -x build/hetmap-calibrate-bench-smpi
study_out experiments/links/results
nodes=${NODES:-1 3 10 30 100}
started=$(date +%s)
printf 'cluster\thosts\tslow_hosts\tmid_hosts\tpairs\trounds\tsimulated_links_s\twall_s\tpeak_kB\tpairs_within_20pc\tworst_t_w_ratio\tworst_t_s_ratio\n' >"$tmp/links.tsv"
for pattern in mixed mostly-slow; do
for n in $nodes; do
	python3 experiments/analysis.py links-cluster "$n" --pattern "$pattern" >"$tmp/desc.json"
	echo "links: $pattern, $n hosts" >&2
	measured "$hm" calibrate --accept-unreliable --launcher smpi -p "$tmp/desc.json" -o "$tmp/cal.json" --block-sizes 64 \
		--repeat 1 --min-time 0.01 --host-speed 50Gf --no-shapes --all-busy-only --timeout 3600 \
		2>"$tmp/err"
	[ "$rc" -eq 0 ] || { echo "links: calibrate failed: $(tail -1 "$tmp/err")" >&2; exit 1; }
	grep 'links between hosts' "$tmp/err" | tail -2 >&2
	python3 experiments/analysis.py links-compare "$tmp/desc.json" "$tmp/cal.json" "$tmp/err" "$wall" "$kb" \
		--pattern "$pattern" >>"$tmp/links.tsv"
done
done
mv "$tmp/links.tsv" "$out/links.tsv"
printf '{"study": "links", "elapsed_s": %d, "command": "%ssh experiments/links/links.sh"}\n' \
	$(($(date +%s) - started)) "${NODES:+NODES='$NODES' }" >"$out/study.json"
python3 experiments/analysis.py links "$out"
