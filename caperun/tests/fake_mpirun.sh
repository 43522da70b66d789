#!/usr/bin/env bash
# Stands in for mpirun in caperun's tests. Attempt N (counted in $FAKE_STATE/count) does what
# line N of $FAKE_PLAN says:
#   exit S     write DIR/status `exit S`, exit S     error    write `error`, exit 1
#   logexit S  write a log header, then as `exit S` (a real job that completed)
#   die        write a log header (regions = N * 10), exit 137 without a status
#   hang       sleep until killed                      orphan   write a log header, start a
#                                                                stray `sleep`, exit 1
#   nostart    print a usage error, exit 1 (mpirun refusing an option: no rank, no log)
#   stuck      sleep, ignoring SIGTERM
#   nostatus   exit 0 without a status
#   hanglog    write a log header, hang; on SIGTERM write it again (a stopped rank that mpirun's
#              SIGCONT lets finish a region while the job is torn down), exit 143
#   readonly   make DIR unwritable (chattr +i as root, chmod 500 otherwise: what a runtime that
#              cannot write its status leaves), exit 0 without a status
# It records its arguments, the CAPE_* environment and its standard input per attempt.
set -u
state=${FAKE_STATE:?}
n=$(($(cat "$state/count" 2>/dev/null || echo 0) + 1))
echo $n >"$state/count"
printf '%s\n' "$@" >"$state/args.$n"
env | grep -E '^(CAPE_|OMPI_MCA_mca_base_env_list)' | sort >"$state/env.$n"
cat >"$state/stdin.$n"
dir=${CAPE_CHECKPOINT:-${CAPE_RESTART:-}}
action=$(sed -n "${n}p" "$FAKE_PLAN")
header() { # regions: a 64-byte header with the magic, committed length and regions
    python3 -c '
import struct, sys
h = b"CAPELOG\0" + struct.pack("<II", 1, 0) + bytes(24) + struct.pack("<QQQ", 64, int(sys.argv[1]), 0)
open(sys.argv[2], "wb").write(h)' "$1" "$dir/cape.log"
}
case "$action" in
logexit*)
    header $((n * 10))
    s=${action#logexit }
    echo "exit $s" >"$dir/status"
    exit "$s"
    ;;
exit*)
    s=${action#exit }
    echo "exit $s" >"$dir/status"
    exit "$s"
    ;;
error)
    echo "capert: error: refused" >&2
    echo error >"$dir/status"
    exit 1
    ;;
die)
    header $((n * 10))
    exit 137
    ;;
hang) exec sleep 1000 ;;
stuck) # ignores SIGTERM, and so does its child
    trap '' TERM
    sleep 1000
    ;;
orphan)
    header $((n * 10))
    sleep 1000 &
    echo $! >"$state/orphan.pid"
    exit 1
    ;;
nostatus) exit 0 ;;
nostart)
    echo "fake mpirun: Error: unknown option \"--bogus\"" >&2
    exit 1
    ;;
hanglog)
    header $((n * 10))
    trap 'header $((n * 10 + 1)); exit 143' TERM
    sleep 1000 &
    wait
    ;;
readonly)
    if [ "$(id -u)" = 0 ]; then chattr +i "$dir"; else chmod 500 "$dir"; fi
    exit 0
    ;;
*)
    echo "fake mpirun: no plan for attempt $n" >&2
    exit 99
    ;;
esac
