#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, in a private folder, to run the
# survey through a real scheduler where there is no cluster (CI):
#
#   fleet/slurm-local.sh start DIR   # munge key, slurm.conf, munged, slurmctld, slurmd
#   fleet/slurm-local.sh stop DIR    # stops all three; nothing is left running
#
# Needs Debian's munge, slurmctld, slurmd and slurm-client, and root (the
# daemons run as root here). After start, use the cluster with
# SLURM_CONF=DIR/slurm.conf (printed). Exit: 0, 1 a daemon did not come up
# (its log's last lines are printed), 2 usage or missing programs.
set -u -o pipefail
[ $# -eq 2 ] || { echo "usage: fleet/slurm-local.sh start|stop DIR" >&2; exit 2; }
cmd=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd) || exit 2

stop() {
    for d in slurmd slurmctld munged; do
        [ -f "$dir/$d.pid" ] || continue
        pid=$(cat "$dir/$d.pid")
        kill "$pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
        rm -f "$dir/$d.pid"
    done
}

fail() {
    echo "slurm-local: $1 did not come up; the end of $dir/$1.log:" >&2
    tail -5 "$dir/$1.log" >&2 2>/dev/null
    stop
    exit 1
}

case "$cmd" in
stop) stop; exit 0 ;;
start) ;;
*) echo "usage: fleet/slurm-local.sh start|stop DIR" >&2; exit 2 ;;
esac
for p in munged mungekey slurmctld slurmd sinfo; do
    command -v "$p" >/dev/null || [ -x "/usr/sbin/$p" ] || { echo "slurm-local: $p is missing: apt-get install munge slurmctld slurmd slurm-client" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "slurm-local: the daemons run as root here: run it as root" >&2; exit 2; }
export PATH=$PATH:/usr/sbin
chmod 700 "$dir"
mkdir -p "$dir/state" "$dir/spool"
[ -f "$dir/munge.key" ] || mungekey -c -k "$dir/munge.key" || exit 1
chmod 400 "$dir/munge.key"
munged --key-file="$dir/munge.key" --socket="$dir/munge.socket" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" --force || fail munged
node=$(hostname -s)
# Two free ports (another test cluster may hold the first pair).
port=
for p in $(seq 16817 2 16899); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && ! (exec 3<>"/dev/tcp/127.0.0.1/$((p + 1))") 2>/dev/null; then
        port=$p
        break
    fi
done
[ -n "$port" ] || { echo "slurm-local: no free port pair in 16817-16900" >&2; stop; exit 1; }
cat >"$dir/slurm.conf" <<CONF
ClusterName=hostaccess
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=survey Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" || fail slurmctld
slurmd -f "$SLURM_CONF" || fail slurmd
for _ in $(seq 100); do
    state=$(sinfo -h -o %T 2>/dev/null | head -1)
    case "$state" in idle*|mixed*|allocated*) echo "SLURM_CONF=$SLURM_CONF"; exit 0 ;; esac
    sleep 0.2
done
fail slurmd
