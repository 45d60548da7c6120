// SPDX-License-Identifier: MIT
/*
 * servicemanager: the context manager (handle 0) of a binder device.
 *
 * Single-threaded, as Android's: the binder fd (library polling mode), a
 * signalfd and a timerfd in one poll loop.  SIGTERM/SIGINT stop it
 * cleanly, SIGHUP reloads the policy file, SIGCHLD reaps the processes
 * start-command ran.  The timer counts the clients of lazy services every
 * SM_CLIENT_CHECK_MS.
 *
 * vnd mode (--vnd, or run as "vndservicemanager") is Android's
 * vndservicemanager: the same daemon built for the vendor partition,
 * serving /dev/vndbinder.  It differs in its defaults (device, policy
 * file, log name), in its own object's stability (VENDOR: its libbinder
 * is the vendor copy) and in ignoring the declare lines (handler.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "sm.h"

#define DEFAULT_DEVICE "/dev/binderc"
/* Android's init starts vndservicemanager on /dev/vndbinder; here
 * binderc's devices= (or a symlink into a binderfs) makes it. */
#define DEFAULT_VND_DEVICE "/dev/vndbinder"
#define VND_NAME "vndservicemanager"

/* What the logs and messages call us: "vndservicemanager" in vnd mode. */
static const char *progname = "servicemanager";
static bool use_syslog;
static int log_max = SM_LOG_INFO;

void sm_log(int level, const char *fmt, ...)
{
	static const char *const names[] = { [SM_LOG_ERR] = "error", [SM_LOG_WARNING] = "warning",
					     [SM_LOG_NOTICE] = "notice", [SM_LOG_INFO] = "info",
					     [SM_LOG_DEBUG] = "debug" };
	va_list ap;

	if (level > log_max)
		return;
	va_start(ap, fmt);
	if (use_syslog) {
		vsyslog(level, fmt, ap);
	} else {
		char buf[1024];

		vsnprintf(buf, sizeof(buf), fmt, ap);
		fprintf(stderr, "%s: %s: %s\n", progname, names[level], buf);
	}
	va_end(ap);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTION]...\n"
		"Become the context manager (handle 0) of a binder device and keep the\n"
		"directory of named services, in Android's service-manager protocol (the\n"
		"legacy dialect of Android <= 10 and the AIDL ones of Android 11-16).\n"
		"\n"
		"  -a, --android-release N\n"
		"                      answer AIDL codes as Android N (11-16) numbers them;\n"
		"                      15-r6, 15-r20: Android 15 builds whose getService2\n"
		"                      and checkService answer a Service union\n"
		"                      (default: the policy's android-release, else 14)\n"
		"  -d, --device PATH   binder device (default " DEFAULT_DEVICE ",\n"
		"                      with --vnd " DEFAULT_VND_DEVICE ")\n"
		"  -c, --config FILE   policy file (default " SM_DEFAULT_POLICY ",\n"
		"                      with --vnd " SM_DEFAULT_VND_POLICY ";\n"
		"                      when that is missing, built-in defaults: root may add,\n"
		"                      anyone may look up)\n"
		"      --vnd           be Android's vndservicemanager (also when run as\n"
		"                      " VND_NAME "): declare lines ignored, no VINTF\n"
		"                      check, the manager object of vendor stability\n"
		"  -D, --daemon        detach; the parent exits once the device is served\n"
		"  -p, --pidfile FILE  write the daemon's pid to FILE\n"
		"  -s, --syslog        log to syslog instead of stderr\n"
		"  -v, --verbose       log every denial and lookup detail (debug level)\n"
		"  -q, --quiet         log only notices, warnings and errors\n"
		"  -h, --help          show this help\n"
		"\n"
		"Signals: SIGTERM/SIGINT stop, SIGHUP reloads the policy file.\n",
		progname);
}

struct opts {
	const char *device;
	const char *config;
	bool config_given;
	bool daemon;
	const char *pidfile;
	int release, shape;
	bool vnd;
};

static int load_policy(const struct opts *o, struct sm_policy **ret)
{
	char err[512];
	int r = sm_policy_load(o->config, ret, err, sizeof(err));

	if (r == -ENOENT && !o->config_given) {
		sm_log(SM_LOG_INFO, "no %s; default policy: root may add, anyone may look up", o->config);
		return sm_policy_new_default(ret);
	}
	if (r < 0) {
		sm_log(SM_LOG_ERR, "policy: %s", err[0] ? err : strerror(-r));
		return r;
	}
	if (o->vnd) {
		size_t n;

		/* Kept (the file may be shared with a system-mode daemon), but
		 * Android's vndservicemanager has no manifest: say so. */
		sm_policy_declarations(*ret, &n);
		if (n)
			sm_log(SM_LOG_NOTICE, "%s: %zu declare line%s ignored in vnd mode", o->config, n,
			       n == 1 ? "" : "s");
	}
	return 0;
}

/* sd_notify(3) without libsystemd: one datagram to $NOTIFY_SOCKET. */
static void notify_systemd(const char *msg)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len;
	int fd;

	if (!path || !path[0] || strlen(path) >= sizeof(sa.sun_path))
		return;
	len = strlen(path);
	memcpy(sa.sun_path, path, len);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	/* Best effort: the manager may be gone (when stopping, say). */
	if (sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sa,
		   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) < 0)
		sm_log(SM_LOG_DEBUG, "sd_notify: %s", strerror(errno));
	close(fd);
}

/* Fork; the parent waits until the child says it is ready (one byte on
 * the pipe) and exits 0, or 1 if the child dies first.  Returns the write
 * end in the child. */
static int daemonize(void)
{
	int pfd[2];
	pid_t pid;
	char c;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0) {
		ssize_t n;

		close(pfd[1]);
		do
			n = read(pfd[0], &c, 1);
		while (n < 0 && errno == EINTR);
		_exit(n == 1 && c == 'R' ? 0 : 1);
	}
	close(pfd[0]);
	setsid();
	if (chdir("/") < 0)
		sm_log(SM_LOG_WARNING, "chdir /: %s", strerror(errno));
	{
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			if (use_syslog)
				dup2(null, STDERR_FILENO);
			if (null > STDERR_FILENO)
				close(null);
		}
	}
	return pfd[1];
}

static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	fprintf(f, "%d\n", (int)getpid());
	return fclose(f) == 0 ? 0 : -errno;
}

static int run(const struct opts *o, int ready_fd)
{
	struct sm sm;
	struct sm_policy *policy = NULL;
	bc_process *proc = NULL;
	bc_class *cls = NULL;
	bc_binder *self = NULL;
	struct sm_caller me;
	sigset_t mask;
	int bfd = -1, sfd = -1, tfd = -1, r;

	r = load_policy(o, &policy);
	if (r < 0)
		return 1;
	sm_init(&sm, policy);
	sm.release = o->release;
	sm.shape = o->shape;
	sm.vnd = o->vnd;

	r = bc_process_open(o->device, &proc);
	if (r < 0) {
		sm_log(SM_LOG_ERR, "%s: %s", o->device, strerror(-r));
		goto out;
	}
	/* Never let the driver ask for pool threads: one thread serves all. */
	r = bc_process_set_max_threads(proc, 0);
	if (r == 0)
		r = bc_class_new(SM_DESCRIPTOR, sm_transact, NULL, 0, &cls);
	if (r == 0)
		r = bc_binder_new(cls, &sm, &self);
	/* Android's vndservicemanager is built against the vendor libbinder,
	 * which marks what it sends VENDOR (Stability::getLocalLevel); set
	 * before the object first leaves.  servicemanager's object keeps the
	 * level of each reply's partition. */
	if (r == 0 && o->vnd)
		r = bc_binder_set_stability(self, BINDERC_STABILITY_VENDOR);
	if (r < 0) {
		sm_log(SM_LOG_ERR, "setting up: %s", strerror(-r));
		goto out;
	}
	r = bc_process_become_context_manager(proc, self);
	if (r < 0) {
		sm_log(SM_LOG_ERR, "%s: cannot become the context manager: %s", o->device,
		       r == -EBUSY ? "another service manager runs" : strerror(-r));
		goto out;
	}
	sm.self = self;
	/* As Android's: the manager is itself a service named "manager". */
	sm_caller_init(&me, geteuid(), getpid());
	r = sm_add(&sm, "manager", self, &me, false, BINDERC_SM_DUMP_DEFAULT);
	if (r == 0)
		r = bc_process_setup_polling(proc, &bfd);
	if (r < 0) {
		sm_log(SM_LOG_ERR, "setting up: %s", strerror(-r));
		goto out;
	}

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		r = -errno;
		sm_log(SM_LOG_ERR, "signalfd: %s", strerror(errno));
		goto out;
	}
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (tfd >= 0) {
		struct itimerspec its = { .it_interval = { SM_CLIENT_CHECK_MS / 1000, (SM_CLIENT_CHECK_MS % 1000) * 1000000L } };

		its.it_value = its.it_interval;
		if (timerfd_settime(tfd, 0, &its, NULL) < 0) {
			int e = errno;

			close(tfd);
			tfd = -1;
			errno = e;
		}
	}
	if (tfd < 0) {
		r = -errno;
		sm_log(SM_LOG_ERR, "timerfd: %s", strerror(errno));
		goto out;
	}
	if (o->pidfile && (r = write_pidfile(o->pidfile)) < 0) {
		sm_log(SM_LOG_ERR, "%s: %s", o->pidfile, strerror(-r));
		goto out;
	}

	sm_log(SM_LOG_INFO, "serving %s as context manager (pid %d)", bc_process_get_device(proc), (int)getpid());
	if (o->vnd)
		sm_log(SM_LOG_INFO, "vnd mode, as Android's vndservicemanager: declare lines ignored, VINTF "
				    "stability needs no declaration, manager object of vendor stability");
	else
		sm_log(SM_LOG_INFO, "system mode, as Android's servicemanager: VINTF stability only under "
				    "declared names");
	notify_systemd("READY=1");
	if (ready_fd >= 0) {
		if (write(ready_fd, "R", 1) != 1)
			sm_log(SM_LOG_WARNING, "telling the parent: %s", strerror(errno));
		close(ready_fd);
		ready_fd = -1;
	}

	for (;;) {
		struct pollfd pf[3] = { { .fd = bfd, .events = POLLIN },
					{ .fd = sfd, .events = POLLIN },
					{ .fd = tfd, .events = POLLIN } };

		if (poll(pf, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			sm_log(SM_LOG_ERR, "poll: %s", strerror(errno));
			break;
		}
		if (pf[1].revents & POLLIN) {
			struct signalfd_siginfo si;
			bool stop = false;

			while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				if (si.ssi_signo == SIGCHLD) {
					pid_t pid;
					int st;

					/* One signal may stand for several children. */
					while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
						sm_child_exited(&sm, pid, st);
				} else if (si.ssi_signo == SIGHUP) {
					struct sm_policy *np = NULL;

					if (load_policy(o, &np) == 0) {
						sm_set_policy(&sm, np);
						sm_log(SM_LOG_INFO, "policy reloaded");
					} else {
						sm_log(SM_LOG_WARNING, "policy not reloaded; the old one stays");
					}
				} else {
					stop = true;
				}
			}
			if (stop) {
				sm_log(SM_LOG_INFO, "stopping");
				r = 0;
				break;
			}
		}
		if (pf[2].revents & POLLIN) {
			uint64_t ticks;

			if (read(tfd, &ticks, sizeof(ticks)) == (ssize_t)sizeof(ticks))
				sm_check_all_clients(&sm);
		}
		if (pf[0].revents & (POLLERR | POLLNVAL)) {
			sm_log(SM_LOG_ERR, "%s: device error", o->device);
			r = -EIO;
			break;
		}
		if (pf[0].revents & (POLLIN | POLLHUP)) {
			r = bc_process_handle_polled(proc);
			if (r < 0 && r != -EAGAIN && r != -EINTR) {
				sm_log(SM_LOG_WARNING, "handling commands: %s", strerror(-r));
				if (r == -EBADF || r == -ENOTTY || r == -EIO) {
					r = -EIO;
					break;
				}
			}
			r = 0;
		}
	}
	notify_systemd("STOPPING=1");
out:
	if (ready_fd >= 0)
		close(ready_fd);
	sm_fini(&sm);
	bc_binder_unref(self);
	bc_class_unref(cls);
	bc_process_unref(proc);
	if (sfd >= 0)
		close(sfd);
	if (tfd >= 0)
		close(tfd);
	if (o->pidfile && r == 0)
		unlink(o->pidfile);
	return r < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "device", required_argument, NULL, 'd' }, { "config", required_argument, NULL, 'c' },
		{ "daemon", no_argument, NULL, 'D' },	    { "pidfile", required_argument, NULL, 'p' },
		{ "syslog", no_argument, NULL, 's' },	    { "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },	    { "help", no_argument, NULL, 'h' },
		{ "android-release", required_argument, NULL, 'a' },
		{ "vnd", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0 };
	const char *base = argv[0] ? strrchr(argv[0], '/') : NULL;
	int c, ready_fd = -1;

	/* As Android's, one program under two names: the name picks vnd mode. */
	base = base ? base + 1 : argv[0];
	if (base && strcmp(base, VND_NAME) == 0)
		o.vnd = true;
	if (o.vnd)
		progname = VND_NAME;

	while ((c = getopt_long(argc, argv, "a:d:c:Dp:svqh", lo, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (sm_parse_release(optarg, &o.release, &o.shape) < 0) {
				fprintf(stderr, "%s: --android-release takes %d..%d, 15-r6 or 15-r20\n", progname,
					SM_RELEASE_FIRST, SM_RELEASE_LAST);
				return 2;
			}
			break;
		case 'd':
			o.device = optarg;
			break;
		case 'c':
			o.config = optarg;
			o.config_given = true;
			break;
		case 'D':
			o.daemon = true;
			break;
		case 'p':
			o.pidfile = optarg;
			break;
		case 's':
			use_syslog = true;
			break;
		case 'v':
			log_max = SM_LOG_DEBUG;
			break;
		case 'q':
			log_max = SM_LOG_NOTICE;
			break;
		case 'V':
			o.vnd = true;
			progname = VND_NAME;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", progname, argv[optind]);
		usage(stderr);
		return 2;
	}
	if (!o.device)
		o.device = o.vnd ? DEFAULT_VND_DEVICE : DEFAULT_DEVICE;
	if (!o.config)
		o.config = o.vnd ? SM_DEFAULT_VND_POLICY : SM_DEFAULT_POLICY;
	if (use_syslog)
		openlog(progname, LOG_PID, LOG_DAEMON);
	if (o.daemon) {
		ready_fd = daemonize();
		if (ready_fd < 0) {
			sm_log(SM_LOG_ERR, "daemonizing: %s", strerror(-ready_fd));
			return 1;
		}
	}
	return run(&o, ready_fd);
}
