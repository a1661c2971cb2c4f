# tests/slurm_here.sh - Slurm for real on this machine, sourced by
# tests/slurm.sh and experiments/judge/slurm.sh: munged (when not already
# running), slurmctld and slurmd with a one-node configuration (this host,
# its CPUs, a partition 'hetmap'), SLURM_CONF exported, and 'cleanup'
# defined to stop them (SIGTERM, then SIGKILL after 10 s). Expects $tmp (a
# scratch directory) and skip 'why' (what to do when a daemon does not
# start); ports 26817-26818.
host=$(hostname) cpus=$(nproc)
conf=$tmp/slurm.conf
mkdir -p "$tmp/spool" "$tmp/state"
cat > "$conf" <<CONF
ClusterName=hetmaptest
SlurmctldHost=$host
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmctldPort=26817
SlurmdPort=26818
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmdSpoolDir=$tmp/spool
StateSaveLocation=$tmp/state
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=hetmap Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf
started_munge=
cleanup() {        # SIGTERM, wait up to 10 s, then SIGKILL: nothing left running
	local pids="$(cat "$tmp/slurmd.pid" "$tmp/slurmctld.pid" 2>/dev/null) $started_munge"
	kill $pids 2>/dev/null
	for i in $(seq 20); do
		kill -0 $pids 2>/dev/null || break
		sleep 0.5
	done
	kill -9 $pids 2>/dev/null
}
if ! munge -n >/dev/null 2>&1; then
	mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null
	su -s /bin/sh munge -c /usr/sbin/munged 2>"$tmp/munged.err" || /usr/sbin/munged --force 2>>"$tmp/munged.err"
	sleep 1
	started_munge=$(pgrep -n -x munged)
	munge -n >/dev/null 2>&1 || skip "munged does not start here ($(head -c 200 "$tmp/munged.err"))"
fi
slurmctld && slurmd || skip "slurmctld/slurmd do not start here"
for i in $(seq 30); do
	sinfo -h -o %t 2>/dev/null | grep -q idle && break
	sleep 1
done
sinfo -h -o %t 2>/dev/null | grep -q idle || skip "the node did not come up ($(tail -2 "$tmp/slurmd.log" | tr '\n' ' '))"
