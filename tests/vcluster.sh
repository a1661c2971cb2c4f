#!/bin/bash
# The emulated cluster: up creates the nodes, the agent runs ranks inside
# their CPU share and cpuset, down removes everything (also the /etc/hosts
# lines), bad descriptions are refused. Both emulations of slow nodes (a
# CPU quota; stretched BLAS calls, the library preloaded into the ranks),
# and shaped links (network namespaces, veth, tbf): a ranks' run across
# them, and down leaving no namespace, link or group, also after a crash
# left them behind. Links are skipped with a message where the kernel
# refuses namespaces or tbf. Skipped (exit 77), after the BLAS emulation's
# own check, where cgroup v1 cannot be written (not root, no
# 'cpu'/'cpuset' controllers).
set -u
. "$(dirname "$0")/lib.sh"
vc=$build/hetmap-vcluster agent=$build/hetmap-vcluster-agent driver=$build/hetmap-driver

# the BLAS emulation (no root needed): a factor of 4 stretches calls through
# both interfaces, ScaLAPACK's Fortran one and HPL's CBLAS: wall over CPU
# time (the stretch is a sleep) about 3 more than at a factor of 1 alone,
# 1.7-2.1 more beside a busy machine's other work (which the emulation
# discounts), the same where calls escape it
OPENBLAS_NUM_THREADS=1 HETMAP_SLOWDOWN=1 LD_PRELOAD=$build/libhetmap-slowblas.so \
	"$build/tests/slowblas_check" >"$tmp/plain" 2>&1
OPENBLAS_NUM_THREADS=1 HETMAP_SLOWDOWN=4 LD_PRELOAD=$build/libhetmap-slowblas.so \
	"$build/tests/slowblas_check" >"$tmp/slow" 2>&1
for call in dgemm_ cblas_dgemm; do
	check "a factor of 4 stretches $call: $(grep "^$call " "$tmp/plain") / $(grep "^$call " "$tmp/slow")" \
		awk -v c="$call" '$1 == c { r[FILENAME] = $2 } END { exit !(r[ARGV[2]] >= r[ARGV[1]] + 1) }' \
		"$tmp/plain" "$tmp/slow"
done
if [ "$(id -u)" -ne 0 ] || [ ! -w /sys/fs/cgroup/cpu/tasks ] || [ ! -w /sys/fs/cgroup/cpuset/tasks ]; then
	expect 4 "run as root on a machine with cgroup v1" -- "$vc" up "$data/vcluster-test.json"
	skip "cgroup v1 not writable here"
fi
cleanup() { "$vc" down >/dev/null 2>&1; }
cp /etc/hosts "$tmp/hosts.before"
slowblas=$(dirname "$agent")/libhetmap-slowblas.so

expect 0 "vcluster test2 is up: 2 nodes" -- "$vc" up "$data/vcluster-test.json"
check "cpu groups created" test -d /sys/fs/cgroup/cpu/hetmap-vc-tfast -a -d /sys/fs/cgroup/cpu/hetmap-vc-tslow
check "quota of the slow node" grep -qx 5000 /sys/fs/cgroup/cpu/hetmap-vc-tslow/cpu.cfs_quota_us
check "hosts entries" grep -q "tslow # hetmap-vcluster" /etc/hosts
expect 0 "tfast:1,tslow:1" -- "$vc" hosts "$data/vcluster-test.json"
# a node of two CPUs: two slots, and under quotas a share of each CPU
printf '{"hetmap_vcluster": 1, "name": "duo", "emulation": "quota", "nodes": [{"name": "tduo", "cpus": "0-1", "share": 0.5}]}' > "$tmp/duo.json"
expect 0 "tduo:2" -- "$vc" hosts "$tmp/duo.json"
printf 'tfast\ntslow\n' > "$tmp/seq"
expect 0 '"passed":true' -- mpirun -np 2 --hostfile "$tmp/seq" --mca rmaps seq --mca plm_rsh_agent "$agent" \
	--bind-to none --mca mpi_yield_when_idle 1 "$driver" --routine lu -n 300 -b 32 -r 1 -c 2
check "rank 1 confined to the slow node's cpuset" grep -q '"rank":1,"host":"[^"]*","cpus":"1"' "$tmp/out"
expect 3 "expected [ssh options] HOST COMMAND" -- "$agent" -x
expect 4 "no virtual node 'nosuch'" -- "$agent" nosuch true
expect 0 "" -- "$vc" down
check "groups removed" test ! -e /sys/fs/cgroup/cpu/hetmap-vc-tfast
check "/etc/hosts restored" cmp -s /etc/hosts "$tmp/hosts.before"
expect 0 "cpus 0-1" -- "$vc" up "$tmp/duo.json"
check "quota of a two-CPU node: half of each CPU" grep -qx 20000 /sys/fs/cgroup/cpu/hetmap-vc-tduo/cpu.cfs_quota_us
expect 0 "" -- "$vc" down
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
echo '{"hetmap_vcluster": 1, "emulation": "turbo", "nodes": [{"name": "a", "cpus": "0", "share": 1}]}' > "$tmp/bad5.json"
expect 2 "emulation must be" -- "$vc" up "$tmp/bad5.json"
echo '{"hetmap_vcluster": 1, "nodes": [{"name": "a", "cpus": "0", "share": 1, "link": {"rate": "fast"}}]}' > "$tmp/bad6.json"
expect 2 "nodes[0].link" -- "$vc" up "$tmp/bad6.json"

# ---- BLAS emulation: no quota; the ranks of a slow node get the library --
cat > "$tmp/blas.json" <<'JSON'
{"hetmap_vcluster": 1, "name": "tblas", "emulation": "blas",
 "nodes": [{"name": "tfast", "cpus": "0", "share": 1.0}, {"name": "tslow", "cpus": "1", "share": 0.5}]}
JSON
expect 0 "blas emulation" -- "$vc" up "$tmp/blas.json"
check "no quota" grep -qx -- -1 /sys/fs/cgroup/cpu/hetmap-vc-tslow/cpu.cfs_quota_us
check "a CPU weight of 1024 x share" grep -qx 512 /sys/fs/cgroup/cpu/hetmap-vc-tslow/cpu.shares
check "the library is built beside the agent" test -r "$slowblas"
expect 0 "HETMAP_SLOWDOWN=2" -- mpirun -np 2 --hostfile "$tmp/seq" --mca rmaps seq --mca plm_rsh_agent "$agent" \
	--bind-to none sh -c 'echo "$(hostname) HETMAP_SLOWDOWN=$HETMAP_SLOWDOWN LD_PRELOAD=$LD_PRELOAD"'
check "the slow node's rank preloads the library" grep -q "LD_PRELOAD=$slowblas" "$tmp/out"
check "the fast node is not slowed" grep -q "HETMAP_SLOWDOWN=1 " "$tmp/out"
expect 0 '"passed":true' -- mpirun -np 2 --hostfile "$tmp/seq" --mca rmaps seq --mca plm_rsh_agent "$agent" \
	--bind-to none --mca mpi_yield_when_idle 1 "$driver" --routine lu -n 300 -b 32 -r 1 -c 2
expect 0 '"node":"tslow"' -- "$vc" stat "$tmp/blas.json"
check "stat accounts the slow node's CPU time" python3 -c '
import json, sys
nodes = [json.loads(l) for l in open(sys.argv[1])]
assert all(n["cpu_s"] > 0 and n["throttled_s"] == 0 for n in nodes), nodes' "$tmp/out"
expect 0 "" -- "$vc" down

# ---- shaped links: namespaces, veth pairs, a bridge, tbf -----------------
cat > "$tmp/links.json" <<'JSON'
{"hetmap_vcluster": 1, "name": "tlinks", "emulation": "blas",
 "nodes": [{"name": "tfast", "cpus": "0", "share": 1.0, "link": {"rate": "1gbit"}},
           {"name": "tslow", "cpus": "1", "share": 0.5, "link": {"rate": "100mbit"}}]}
JSON
if ! "$vc" up "$tmp/links.json" >"$tmp/links.out" 2>&1; then
	echo "vcluster: shaped links refused by this kernel, that part skipped: $(tail -1 "$tmp/links.out")"
	"$vc" down >/dev/null 2>&1
else
	pass=$((pass + 1))
	check "a namespace per node" test -e /var/run/netns/hetmap-vc-tslow
	check "hosts resolve on the bridge" grep -q "^10.77.0.2 tslow # hetmap-vcluster" /etc/hosts
	check "the slow link is shaped" bash -c 'ip netns exec hetmap-vc-tslow tc qdisc show | grep -q "tbf.*rate 100Mbit"'
	expect 0 '"passed":true' -- mpirun -np 2 --hostfile "$tmp/seq" --mca rmaps seq --mca plm_rsh_agent "$agent" \
		--bind-to none --mca mpi_yield_when_idle 1 --mca btl_tcp_if_include 10.77.0.0/24 \
		--mca oob_tcp_if_include 10.77.0.0/24 "$driver" --routine lu -n 300 -b 32 -r 1 -c 2
	expect 0 "" -- "$vc" down
	# links per host, measured: fast, slow, fast, slow (the slow hosts not
	# adjacent, so a ring of pairs sees only slow links); calibration must
	# give the fast pair its own rate and every pair within 20 %
	cat > "$tmp/links4.json" <<'JSON'
{"hetmap_vcluster": 1, "name": "tlinks4", "emulation": "blas",
 "nodes": [{"name": "tla", "cpus": "0", "share": 0.5, "link": {"rate": "1gbit"}},
           {"name": "tlb", "cpus": "1", "share": 0.5, "link": {"rate": "100mbit"}},
           {"name": "tlc", "cpus": "0", "share": 0.5, "link": {"rate": "1gbit"}},
           {"name": "tld", "cpus": "1", "share": 0.5, "link": {"rate": "100mbit"}}]}
JSON
	expect 0 "up" -- "$vc" up "$tmp/links4.json"
	expect 0 "links between hosts: 6 pairs in 3 rounds" -- "$build/hetmap" calibrate --hosts tla,tlb,tlc,tld \
		--launcher openmpi-seq -o "$tmp/links4-cal.json" --block-sizes 64 --rows 256 --repeat 1 \
		--min-time 0.01 --accept-unreliable --no-shapes --all-busy-only --launcher-args "--mca plm_rsh_agent $agent --bind-to none \
		--mca btl_tcp_if_include 10.77.0.0/24 --mca oob_tcp_if_include 10.77.0.0/24"
	check "every pair within 20 % of its tbf rate: the fast pair's own, the slow hosts' rule" python3 -c '
import json, sys
sys.path.insert(0, sys.argv[2])
import analysis
links = analysis.study_module("links")
net = json.load(open(sys.argv[1]))["network"]
rate = {"tla": 64e-9, "tlb": 640e-9, "tlc": 64e-9, "tld": 640e-9}
for a in rate:
    for b in rate:
        if a < b:
            tw = links.platform_link(net, a, b)[1]
            assert abs(tw / max(rate[a], rate[b]) - 1) < 0.2, (a, b, tw, net)' "$tmp/links4-cal.json" "$root/experiments"
	check "each node's topology is its cpuset, as hwloc read it inside the node" python3 -c '
import json, sys
cpus = {p["host"]: p["topology"]["core_cpus"] for p in json.load(open(sys.argv[1]))["processors"]}
assert cpus == {"tla": [[0]], "tlb": [[1]], "tlc": [[0]], "tld": [[1]]}, cpus' "$tmp/links4-cal.json"
	# a crash after up: a fresh 'down' finds everything by name
	expect 0 "" -- "$vc" down
	check "no namespace left" test -z "$(ip netns list | grep hetmap-vc-)"
	check "no bridge or veth left" test -z "$(ip -o link show | grep -E 'hetmap-vc-br|hvc[0-9]')"
	check "no group left" test -z "$(ls /sys/fs/cgroup/cpu /sys/fs/cgroup/cpuacct /sys/fs/cgroup/cpuset | grep hetmap-vc-)"
	check "/etc/hosts restored after the links" cmp -s /etc/hosts "$tmp/hosts.before"
fi
finish vcluster
