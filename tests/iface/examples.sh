#!/bin/sh
# SPDX-License-Identifier: MIT
#
# examples.sh: run the signature-interface examples in a guest:
#   tests/vm/run-guest --kernel stock -- sh tests/iface/examples.sh [DEVICE]
# Starts the service manager on DEVICE (default /dev/binderc), then the
# calculator and key-value services; calls each with its typed-proxy
# client and with the generic 'binder call' tool.  Exits non-zero if
# anything failed.
dev=${1:-${BINDER_DEVICE:-/dev/binderc}}
bin=$(pwd)/build/guest/bin
PATH=$bin:$PATH
export BINDER_DEVICE=$dev
status=0
run() { printf '$ %s\n' "$*"; "$@"; rc=$?; [ $rc = 0 ] || { echo "(exit status $rc)"; status=1; }; return $rc; }
# like run, and the output must contain $1
expect() { want=$1; shift; printf '$ %s\n' "$*"; out=$("$@" 2>&1); rc=$?; printf '%s\n' "$out";
	case "$out" in *"$want"*) ;; *) echo "(expected: $want)"; status=1 ;; esac
	[ $rc = ${code:-0} ] || { echo "(exit status $rc, expected ${code:-0})"; status=1; }; code=; }

echo "== examples on $dev"
# (a previous test's context manager may still be going away)
i=0
until servicemanager --daemon --device "$dev" --pidfile /tmp/iface-sm.pid; do
	i=$((i + 1)); [ $i -lt 20 ] || { echo "examples: no service manager"; exit 1; }; sleep 0.25
done
calc-service & calc=$!
kv-service & kv=$!
run binder wait calc 10
run binder wait kv 10

echo "== calculator: typed proxy"
expect 'div(47, 5)                   -> 9 remainder 2' calc-client
expect '2 3 + 4 * = 20' calc-client "2 3 + 4 *"
echo "== calculator: the binder tool (add = code 1, eval = code 7)"
expect '0x0004  i32 5' binder call calc 1 i64 2 i64 3
expect 'i32 0' binder call calc 7 s16 "1 2 +"
expect 'i32 -3' binder call calc 4 i64 1 i64 0    # div by zero: EX_ILLEGAL_ARGUMENT
code=1 expect 'unknown transaction' binder call calc 99

echo "== key-value store: typed proxy"
expect 'listener heard 4 changes' kv-client
run kv-client put color blue
expect 'blue' kv-client get color
expect 'color=blue' kv-client dump
echo "== key-value store: the binder tool (put_string = code 6, get_string = 7, dump = 8)"
run binder call kv 6 s16 shape s16 round
expect 'round' kv-client get shape
expect 's16 "round"' binder call kv 7 s16 shape
expect 'shape=round' binder call kv 8 fd -

kill $calc $kv 2>/dev/null
wait $calc $kv 2>/dev/null
kill -TERM "$(cat /tmp/iface-sm.pid)" 2>/dev/null
sleep 0.5
echo "== examples on $dev: $([ $status = 0 ] && echo ok || echo FAILED)"
exit $status
