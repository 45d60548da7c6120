#!/bin/sh
# SPDX-License-Identifier: MIT
#
# binderfs-example.sh: the README's container example, run in a guest:
#   tests/vm/run-guest --kernel stock -- sh tests/driver/binderfs-example.sh
# A fresh binderfs mount with binder, hwbinder and vndbinder, one
# servicemanager on each, a service on one of them; prints each command
# and its output, exits non-zero if one failed.
PATH=$(pwd)/build/guest/bin:$PATH
status=0
run() { printf '$ %s\n' "$*"; "$@"; rc=$?; [ $rc = 0 ] || { echo "(exit status $rc)"; status=1; }; }
# the same, for a command that must fail
fails() { printf '$ %s\n' "$*"; "$@"; rc=$?; [ $rc != 0 ] || { echo "(should have failed)"; status=1; }; }

run cat /sys/module/binderc/parameters/filesystem
fs=$(cat /sys/module/binderc/parameters/filesystem)
run mkdir -p /dev/binderfs
run mount -t "$fs" binder /dev/binderfs
run binder mkdev /dev/binderfs binder hwbinder vndbinder
run ls -l /dev/binderfs
for d in binder hwbinder vndbinder; do
	run servicemanager --daemon --device /dev/binderfs/$d --pidfile /tmp/sm-$d.pid
done
printf '$ %s\n' "BINDER_DEVICE=/dev/binderfs/binder calc-service &"
BINDER_DEVICE=/dev/binderfs/binder calc-service & calc=$!
run binder -d /dev/binderfs/binder wait calc 10
run binder -d /dev/binderfs/binder call calc 1 i64 2 i64 3
fails binder -d /dev/binderfs/hwbinder check calc
run binder -d /dev/binderfs/vndbinder list

# tear down: the services, the managers, the mount
kill $calc
wait $calc 2>/dev/null
for d in binder hwbinder vndbinder; do kill "$(cat /tmp/sm-$d.pid)"; done
sleep 0.5
run umount /dev/binderfs
echo "binderfs example: $([ $status = 0 ] && echo ok || echo FAILED)"
exit $status
