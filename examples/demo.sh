#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The guest half of 'make demo': starts the service manager on binder-c's
# device, runs the hello service and its client, lists the services, and
# says in plain words what happened.  The build copies it to
# build/guest/demo.sh (the guest gets build/guest/ and tests/).
#
#   DEMO_DEVICE   the binder device to use            [/dev/binderc]
#   run from the checkout's top directory, with build/guest/bin in PATH.
dev=${DEMO_DEVICE:-/dev/binderc}
bin=$(pwd)/build/guest/bin
PATH=$bin:$PATH
export BINDER_DEVICE=$dev
status=0
say() { printf '%s\n' "$@"; }
step() { printf '\n== %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; rc=$?; [ $rc = 0 ] || { say "(exit status $rc)"; status=1; }; return $rc; }
# A command that must fail (exit status 1) for the demo to be right.
refused() { printf '$ %s\n' "$*"; "$@"; rc=$?; say "(exit status $rc)"; [ $rc = 1 ] || status=1; }

step "binder-c demo, inside a QEMU guest running Linux $(uname -r)"
say "Binder is Android's IPC: a process calls methods on objects that live in" \
    "another process, and the kernel carries the call, the reply, object" \
    "references and file descriptors.  binder-c brings it to plain Linux C" \
    "programs.  Two binder drivers are loaded side by side in this guest:"
grep -E '^(binder_linux|binderc) ' /proc/modules | awk '{print "  " $1 " (" ($1 == "binderc" ? "binder-c'"'"'s driver" : "the mainline kernel driver") ")"}'
for d in /dev/binder /dev/binderc; do [ -e "$d" ] && say "  $d"; done
say "This demo uses $dev."
[ -e "$dev" ] || { say "demo: $dev is missing"; exit 1; }

step "1. Start the service manager"
say "Processes find each other's objects by name through one well-known" \
    "object, handle 0: the service manager.  It registers itself as 'manager'."
run servicemanager --daemon --device "$dev" --pidfile /tmp/servicemanager.pid || exit 1

step "2. Start the hello service"
say "hello-service creates an object with one method, sayHello(name), and" \
    "registers it with the service manager under the name 'hello'."
printf '$ hello-service &\n'
hello-service &
svc=$!
run binder wait hello 10 || status=1

step "3. Call it from another process"
say "hello-client asks the service manager for 'hello', gets a handle to the" \
    "object in hello-service, and calls sayHello(\"newcomer\") through it:"
run hello-client newcomer

step "4. What the service manager knows"
say "'binder list' shows every registered name and its interface:"
run binder list
say "'binder call' sends a raw transaction and prints the reply parcel;" \
    "code 1 is sayHello, its argument a UTF-16 string (s16):"
run binder call hello 1 s16 shell

step "5. Freezing a service, and watching failed calls"
say "A frozen process (a stopped container or app) cannot answer: the kernel" \
    "refuses calls to it at once and keeps oneway calls until it is thawed." \
    "'binder monitor' prints each failed or held call from the driver's" \
    "transaction reports, with no privilege and no device:"
printf '$ binder monitor --count 2 --timeout 20 &\n'
binder monitor --count 2 --timeout 20 >/tmp/demo-monitor.out 2>&1 &
mon=$!
sleep 1
run binder freeze "$svc"
say "(--no-token: the tool would first ask the frozen service for its interface.)"
refused binder call --no-token hello 1 s16 frozen
run binder call --no-token --oneway hello 1 s16 later
run binder thaw "$svc"
wait "$mon"
cat /tmp/demo-monitor.out
grep -q frozen /tmp/demo-monitor.out || { say "(the monitor saw no frozen call)"; status=1; }

step "6. When a service dies"
say "The service manager holds a reference to each service and asks the" \
    "kernel to tell it when the service's process dies.  Kill hello-service:"
printf '$ kill %s\n' "$svc"
kill "$svc"
wait "$svc" 2>/dev/null
i=0
while binder check hello >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
printf '$ binder check hello\n'
binder check hello
rc=$?
say "(exit status $rc: the name was removed when its process died; a new" \
    " hello-service could now register it again.)"
[ $rc = 1 ] || status=1

step "7. The same object over a socket, with no binder driver"
say "RPC binder carries the same calls over a socket: between VMs (vsock)," \
    "between machines, or where no binder module can be loaded.  With --rpc" \
    "hello-service opens no binder device; it serves its object as the root" \
    "of an RPC server on a unix socket, and hello-client calls it there with" \
    "the same code it used above:"
rm -f /tmp/hello.sock
printf '$ hello-service --rpc unix:/tmp/hello.sock &\n'
hello-service --rpc unix:/tmp/hello.sock &
rsvc=$!
i=0
while [ ! -S /tmp/hello.sock ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
run hello-client --rpc unix:/tmp/hello.sock socket-user
if ls -l /proc/$rsvc/fd 2>/dev/null | grep -q /dev/binder; then
	say "(hello-service has a binder device open: it should not)"
	status=1
else
	say "(/proc/$rsvc/fd: hello-service has no binder device open.)"
fi
run binder rpc ping unix:/tmp/hello.sock
kill "$rsvc"
wait "$rsvc" 2>/dev/null

step "8. Stop the service manager"
printf '$ kill -TERM $(cat /tmp/servicemanager.pid)\n'
pid=$(cat /tmp/servicemanager.pid 2>/dev/null)
kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done

step "Summary"
if [ "$status" = 0 ]; then
	say "Two programs that know nothing of each other's pids talked over" \
	    "$dev: one published an object by name, the other found it and" \
	    "called it; the kernel delivered the call and the reply, and told the" \
	    "service manager when the service went away.  The same object then" \
	    "answered over a socket, with no driver at all."
else
	say "Something above failed (see the exit statuses)."
fi
exit $status
