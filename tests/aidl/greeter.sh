#!/bin/sh
# SPDX-License-Identifier: MIT
#
# greeter.sh: the bc-aidl example across processes, in a guest:
#   tests/vm/run-guest --kernel stock -- sh tests/aidl/greeter.sh [DEVICE]
# Starts the service manager on DEVICE (default $BINDER_DEVICE, else
# /dev/binderc), then greeter-service, and runs greeter-client twice: the
# proxy, the stub, a parcelable, an enum, a String[] and a one-way
# callback into the client, all generated from examples/aidl.  Exits
# non-zero if anything failed.
dev=${1:-${BINDER_DEVICE:-/dev/binderc}}
bin=$(pwd)/build/guest/bin
PATH=$bin:$PATH
export BINDER_DEVICE=$dev
status=0
# the output of "$@" must contain every line of $1
expect() { want=$1; shift; printf '$ %s\n' "$*"; out=$("$@" 2>&1); rc=$?; printf '%s\n' "$out"
	printf '%s\n' "$want" | while IFS= read -r w; do
		case "$out" in *"$w"*) ;; *) echo "(expected: $w)"; exit 1 ;; esac
	done || status=1
	[ $rc = 0 ] || { echo "(exit status $rc)"; status=1; }; }

echo "== bc-aidl greeter example on $dev"
i=0
until servicemanager --daemon --device "$dev" --pidfile /tmp/aidl-sm.pid; do
	i=$((i + 1)); [ $i -lt 20 ] || { echo "greeter: no service manager"; exit 1; }; sleep 0.25
done
greeter-service & svc=$!
binder wait greeter 10 || status=1
expect 'greeter: interface version 1
greeter says: Hello, Ada! (greeting #1, cheerful)
listener: the greeter greeted Ada (greeting #1)
greeted so far: Ada' greeter-client Ada
expect "greeter says: Oh. It's you, Bob. (greeting #2, grumpy)
listener: the greeter greeted Bob (greeting #2)
greeted so far: Ada Bob" greeter-client Bob grumpy
kill $svc 2>/dev/null
wait $svc 2>/dev/null
kill "$(cat /tmp/aidl-sm.pid)" 2>/dev/null
sleep 0.2
echo "greeter: status $status"
exit $status
