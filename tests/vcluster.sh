#!/bin/bash
# The emulated cluster: up creates the nodes, the agent runs ranks inside
# their CPU share and cpuset, down removes everything (also the /etc/hosts
# lines), bad descriptions are refused. Skipped (exit 77) where cgroup v1
# cannot be written (not root, no 'cpu'/'cpuset' controllers).
set -u
vc=$1 agent=$2 driver=$3 data=$4
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ] || [ ! -w /sys/fs/cgroup/cpu/tasks ] || [ ! -w /sys/fs/cgroup/cpuset/tasks ]; then
	expect 4 "run as root on a machine with cgroup v1" -- "$vc" up "$data/vcluster-test.json"
	echo "vcluster: cgroup v1 not writable here, skipped"
	exit 77
fi
trap '"$vc" down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
cp /etc/hosts "$tmp/hosts.before"

expect 0 "vcluster test2 is up: 2 nodes" -- "$vc" up "$data/vcluster-test.json"
check "cpu groups created" test -d /sys/fs/cgroup/cpu/hetmap-vc-tfast -a -d /sys/fs/cgroup/cpu/hetmap-vc-tslow
check "quota of the slow node" grep -qx 5000 /sys/fs/cgroup/cpu/hetmap-vc-tslow/cpu.cfs_quota_us
check "hosts entries" grep -q "tslow # hetmap-vcluster" /etc/hosts
expect 0 "tfast:1,tslow:1" -- "$vc" hosts "$data/vcluster-test.json"
printf 'tfast\ntslow\n' > "$tmp/seq"
expect 0 '"passed":true' -- mpirun -np 2 --hostfile "$tmp/seq" --mca rmaps seq --mca plm_rsh_agent "$agent" \
	--bind-to none --mca mpi_yield_when_idle 1 "$driver" --routine lu -n 300 -b 32 -r 1 -c 2
check "rank 1 confined to the slow node's cpuset" grep -q '"rank":1,"host":"[^"]*","cpus":"1"' "$tmp/out"
expect 3 "expected [ssh options] HOST COMMAND" -- "$agent" -x
expect 4 "no virtual node 'nosuch'" -- "$agent" nosuch true
expect 0 "" -- "$vc" down
check "groups removed" test ! -e /sys/fs/cgroup/cpu/hetmap-vc-tfast
check "/etc/hosts restored" cmp -s /etc/hosts "$tmp/hosts.before"
echo '{"hetmap_vcluster": 1, "nodes": [{"name": "Bad Name", "cpus": "0", "share": 1}]}' > "$tmp/bad1.json"
expect 2 "nodes[0].name" -- "$vc" up "$tmp/bad1.json"
echo '{"hetmap_vcluster": 1, "nodes": [{"name": "a", "cpus": "0;reboot", "share": 1}]}' > "$tmp/bad2.json"
expect 2 "nodes[0].cpus" -- "$vc" up "$tmp/bad2.json"
echo '{"hetmap_vcluster": 1, "nodes": [{"name": "a", "cpus": "0", "share": 0}]}' > "$tmp/bad3.json"
expect 2 "nodes[0].share" -- "$vc" up "$tmp/bad3.json"
echo '{"hetmap_vcluster": 1, "nodes": [{"name": "a", "cpus": "7-9", "share": 1}]}' > "$tmp/bad4.json"
expect 4 "refused" -- "$vc" up "$tmp/bad4.json"
check "a failed up leaves nothing" test ! -e /sys/fs/cgroup/cpu/hetmap-vc-a
check "/etc/hosts unchanged after the failure" cmp -s /etc/hosts "$tmp/hosts.before"
finish vcluster
