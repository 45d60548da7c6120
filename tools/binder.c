// SPDX-License-Identifier: MIT
/*
 * binder: talk to binder services from the shell (like Android's
 * `service`).  See usage() or `binder --help`.
 *
 * Exit status: 0 success; 1 service not found, wait timed out, or the
 * call failed; 2 usage error; 3 the device or the service manager cannot
 * be reached.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <uapi/binder.h> /* before binderfs.h, whose binder.h it replaces */
#include <linux/android/binderfs.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "call.h"
#include "freeze.h"
#include "monitor.h"
#include "rpctool.h"

static const char *prog = "binder";

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: binder [OPTION]... COMMAND [ARG]...\n"
		"Find and call binder services through the service manager.\n"
		"\n"
		"Commands:\n"
		"  list                 list the registered services and their interfaces\n"
		"  check NAME           tell whether NAME is registered (no waiting)\n"
		"  ping NAME            look NAME up and ping it\n"
		"  wait NAME [SECONDS]  wait until NAME is registered (default: forever)\n"
		"  call [--oneway] [--no-token] NAME CODE [ARG]...\n"
		"                       send transaction CODE (a number, or 4 characters such as\n"
		"                       _PNG) to NAME and print the reply, decoded and in hex.\n"
		"                       Unless --no-token, the request starts with the interface\n"
		"                       token of the service's own descriptor.  ARGs:\n"
		"                         i32 N   i64 N   f N (float)   d N (double)   b N (bool)\n"
		"                         s16 STR (String16)   s8 STR (String8)   null (null binder)\n"
		"                         fd PATH (the file opened read-write, else read-only;\n"
		"                                  PATH - is this process's stdout)\n"
		"  mkdev MOUNT NAME...  create binder devices MOUNT/NAME on a binderfs mount\n"
		"                       (through MOUNT/binder-control; no service manager needed)\n"
		"  monitor [--json] [--family binder|binderc] [--count N] [--timeout SECONDS]\n"
		"                       print every failed transaction as it happens (who called\n"
		"                       whom, code, size, the reason), from the kernel's transaction\n"
		"                       reports; --json: one JSON object per line\n"
		"  freeze [--timeout MS] PID...\n"
		"                       freeze these processes' binder (calls to them fail with\n"
		"                       BR_FROZEN_REPLY, oneway calls wait); waits up to MS for\n"
		"                       their calls in progress, else fails and leaves them thawed\n"
		"  thaw PID...          thaw them; queued oneway calls are delivered\n"
		"  frozen PID...        what they were sent while frozen (BINDER_GET_FROZEN_INFO)\n"
		"  rpc ping [--plain-tcp | TLS] ADDR\n"
		"                       ping the root object of the RPC binder server at ADDR\n"
		"  rpc call [--oneway] [--no-token] [--plain-tcp | TLS] ADDR CODE [ARG]...\n"
		"                       as call, on the root object of the RPC server at ADDR\n"
		"  rpc serve NAME --listen ADDR [--plain-tcp | TLS] [--max-sessions N] [--max-threads N]\n"
		"            [--allow-cid CID]...\n"
		"                       serve the registered service NAME over RPC binder at ADDR\n"
		"                       until killed (calls of plain data only: no binders or fds)\n"
		"                       ADDR: unix:PATH, unix-abstract:NAME, tcp:HOST:PORT (with\n"
		"                       TLS, or --plain-tcp: no encryption, no authentication),\n"
		"                       vsock:CID:PORT (--allow-cid: serve only those CIDs)\n"
		"                       TLS: --tls-cert FILE --tls-key FILE --tls-trust FILE...\n"
		"                       (ours, and the peers' certificates accepted; TLS 1.3)\n"
		"  rpc tls-keygen CERT KEY [--days N]\n"
		"                       write a self-signed certificate and its key (PEM) for TLS\n"
		"\n"
		"Options:\n"
		"  -d, --device PATH    binder device (default: $BINDER_DEVICE, else /dev/binderc,\n"
		"                       else /dev/binder)\n"
		"  -l, --legacy         speak the legacy (Android <= 10) service-manager dialect\n"
		"  -a, --android N      speak the AIDL dialect with Android N's method codes\n"
		"                       (11-16; default 14, or $BINDERC_SM_DIALECT=android-N)\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit status: 0 ok, 1 not found / timed out / call failed, 2 usage error,\n"
		"3 device or service manager unreachable.\n");
}

int binder_usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'binder --help'.\n");
	return EXIT_USAGE;
}

int binder_connect_sm(struct ctx *c)
{
	int r = bc_process_open(c->device, &c->proc);

	if (r < 0) {
		fprintf(stderr, "%s: cannot open %s: %s\n", prog, c->device ? c->device : "the binder device",
			strerror(-r));
		if (r == -EACCES)
			fprintf(stderr, "%s: binder devices are 0600 root by default; to share one, load "
					"binderc with group=GID mode=0660 (see README, Access control)\n",
				prog);
		return EXIT_UNREACHABLE;
	}
	r = bc_sm_new(c->proc, c->dialect, &c->sm);
	if (r == 0)
		r = bc_sm_ping(c->sm);
	if (r < 0) {
		fprintf(stderr, "%s: no service manager on %s: %s\n", prog, bc_process_get_device(c->proc),
			strerror(-r));
		return EXIT_UNREACHABLE;
	}
	return 0;
}

/* A failed call's status in words (<binderc/status.h>). */
const char *binder_call_error(int r)
{
	switch (r) {
	case -EPIPE:
		return "the service's process has died";
	case -EAGAIN:
		return "the service's process is frozen";
	case -ECOMM:
		return "the driver failed the call (see 'binder monitor')";
	case -EBADMSG:
		return "unknown transaction";
	default:
		return strerror(-r);
	}
}

/* Look @name up; prints the reason and returns the exit status on failure. */
int binder_find(struct ctx *c, const char *name, bc_binder **ret)
{
	int r = bc_sm_check(c->sm, name, ret);

	if (r == -ENOENT) {
		fprintf(stderr, "%s: service '%s' not found\n", prog, name);
		return EXIT_NOTFOUND;
	}
	if (r < 0) {
		fprintf(stderr, "%s: looking up '%s': %s\n", prog, name, strerror(-r));
		return r == -EPIPE || r == -ECOMM ? EXIT_UNREACHABLE : EXIT_NOTFOUND;
	}
	return 0;
}

static int cmd_list(struct ctx *c)
{
	char **v = NULL;
	size_t n = 0;
	int r = bc_sm_list(c->sm, BINDERC_SM_DUMP_ALL, &v, &n);

	if (r < 0) {
		fprintf(stderr, "%s: listing: %s\n", prog, strerror(-r));
		return EXIT_UNREACHABLE;
	}
	printf("Found %zu service%s:\n", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		bc_binder *b = NULL;
		char *desc = NULL;

		if (bc_sm_check(c->sm, v[i], &b) == 0)
			bc_binder_get_interface(b, &desc);
		printf("%zu\t%s: [%s]\n", i, v[i], desc ? desc : "");
		free(desc);
		bc_binder_unref(b);
	}
	bc_strv_free(v, n);
	return 0;
}

static int cmd_check(struct ctx *c, const char *name)
{
	bc_binder *b = NULL;
	int r = bc_sm_check(c->sm, name, &b);

	if (r == 0) {
		printf("Service %s: found\n", name);
		bc_binder_unref(b);
		return 0;
	}
	if (r == -ENOENT) {
		printf("Service %s: not found\n", name);
		return EXIT_NOTFOUND;
	}
	fprintf(stderr, "%s: looking up '%s': %s\n", prog, name, strerror(-r));
	return EXIT_NOTFOUND;
}

static int cmd_ping(struct ctx *c, const char *name)
{
	bc_binder *b = NULL;
	int r = binder_find(c, name, &b);

	if (r)
		return r;
	r = bc_binder_ping(b);
	bc_binder_unref(b);
	if (r < 0) {
		printf("Service %s: ping failed: %s\n", name, strerror(-r));
		return EXIT_NOTFOUND;
	}
	printf("Service %s: alive\n", name);
	return 0;
}

static int cmd_wait(struct ctx *c, const char *name, const char *secs)
{
	bc_binder *b = NULL;
	long ms = -1;
	int r;

	if (secs) {
		char *end;
		double s = strtod(secs, &end);

		if (*end || s < 0 || s > 86400.0 * 365)
			return binder_usage_error("bad number of seconds '%s'", secs);
		ms = (long)(s * 1000);
	}
	r = bc_sm_wait(c->sm, name, (int)ms, &b);
	if (r == -ETIMEDOUT) {
		printf("Service %s: not registered after %s s\n", name, secs);
		return EXIT_NOTFOUND;
	}
	if (r < 0) {
		fprintf(stderr, "%s: waiting for '%s': %s\n", prog, name, strerror(-r));
		return EXIT_NOTFOUND;
	}
	printf("Service %s: registered\n", name);
	bc_binder_unref(b);
	return 0;
}

/* ---- call ------------------------------------------------------------- */

int binder_parse_code(const char *s, uint32_t *ret)
{
	char *end;
	unsigned long v;

	if (strlen(s) == 4 && !(s[0] >= '0' && s[0] <= '9')) {
		*ret = (uint32_t)(unsigned char)s[0] << 24 | (uint32_t)(unsigned char)s[1] << 16 |
		       (uint32_t)(unsigned char)s[2] << 8 | (unsigned char)s[3];
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || !*s || v > UINT32_MAX || s[0] == '-')
		return -EINVAL;
	*ret = (uint32_t)v;
	return 0;
}

static int parse_ll(const char *s, long long lo, long long hi, long long *ret)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || *end || !*s || v < lo || v > hi)
		return -EINVAL;
	*ret = v;
	return 0;
}

static int parse_dbl(const char *s, double *ret)
{
	char *end;

	errno = 0;
	*ret = strtod(s, &end);
	return errno || *end || !*s ? -EINVAL : 0;
}

/* Append the ARGs to @p.  Returns 0 or the exit status (message printed). */
static int write_args(bc_parcel *p, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *t = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		long long ll;
		double d;
		int r;

		if (strcmp(t, "null") == 0) {
			r = bc_parcel_write_binder(p, NULL);
			goto written;
		}
		if (!v)
			return binder_usage_error("'%s' needs a value", t);
		i++;
		if (strcmp(t, "i32") == 0) {
			if (parse_ll(v, INT32_MIN, UINT32_MAX, &ll) < 0)
				return binder_usage_error("bad i32 '%s'", v);
			r = bc_parcel_write_int32(p, (int32_t)(uint32_t)ll);
		} else if (strcmp(t, "i64") == 0) {
			if (parse_ll(v, INT64_MIN, INT64_MAX, &ll) < 0)
				return binder_usage_error("bad i64 '%s'", v);
			r = bc_parcel_write_int64(p, ll);
		} else if (strcmp(t, "b") == 0) {
			if (parse_ll(v, 0, 1, &ll) < 0)
				return binder_usage_error("bad bool '%s' (0 or 1)", v);
			r = bc_parcel_write_bool(p, ll != 0);
		} else if (strcmp(t, "f") == 0) {
			if (parse_dbl(v, &d) < 0)
				return binder_usage_error("bad float '%s'", v);
			r = bc_parcel_write_float(p, (float)d);
		} else if (strcmp(t, "d") == 0) {
			if (parse_dbl(v, &d) < 0)
				return binder_usage_error("bad double '%s'", v);
			r = bc_parcel_write_double(p, d);
		} else if (strcmp(t, "s16") == 0) {
			r = bc_parcel_write_string16(p, v);
		} else if (strcmp(t, "s8") == 0) {
			r = bc_parcel_write_string8(p, v);
		} else if (strcmp(t, "fd") == 0) {
			int fd = strcmp(v, "-") == 0 ? fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
						     : open(v, O_RDWR | O_CLOEXEC | O_NOCTTY);

			if (fd < 0 && strcmp(v, "-") != 0 && (errno == EACCES || errno == EISDIR || errno == EROFS))
				fd = open(v, O_RDONLY | O_CLOEXEC | O_NOCTTY);
			if (fd < 0) {
				fprintf(stderr, "%s: %s: %s\n", prog, v, strerror(errno));
				return EXIT_NOTFOUND;
			}
			r = bc_parcel_write_fd(p, fd, true);
			if (r < 0)
				close(fd);
		} else {
			return binder_usage_error("unknown argument type '%s' (i32 i64 b f d s16 s8 fd null)", t);
		}
	written:
		if (r < 0) {
			fprintf(stderr, "%s: writing '%s': %s\n", prog, t, strerror(-r));
			return EXIT_USAGE;
		}
	}
	return 0;
}

static const char *object_type(uint32_t t)
{
	switch (t) {
	case 0x73622a85:
		return "binder";
	case 0x77622a85:
		return "weak binder";
	case 0x73682a85:
		return "handle";
	case 0x77682a85:
		return "weak handle";
	case 0x66642a85:
		return "fd";
	}
	return "object";
}

/* A String16 at @pos? Printable characters only (no surrogates), NUL. */
static bool string16_at(const uint8_t *d, size_t size, size_t pos, int32_t len, size_t *ret_end)
{
	size_t bytes;

	if (len < 1 || (size_t)len > (size - pos - 4) / 2)
		return false;
	bytes = ((size_t)len + 1) * 2;
	if (pos + 4 + bytes > size)
		return false;
	for (int32_t i = 0; i <= len; i++) {
		uint16_t ch = (uint16_t)(d[pos + 4 + 2 * i] | d[pos + 5 + 2 * i] << 8);

		if (i == len)
			return ch == 0 && (*ret_end = pos + 4 + ((bytes + 3) & ~(size_t)3), *ret_end <= size);
		if (ch < 0x20 || ch == 0x7f || (ch >= 0xd800 && ch <= 0xdfff))
			return false;
	}
	return false;
}

static void print_hex(const uint8_t *d, size_t size)
{
	for (size_t row = 0; row < size; row += 16) {
		printf("  %04zx:", row);
		for (size_t i = row; i < row + 16; i += 4) {
			if (i < size) {
				printf(" ");
				for (size_t j = i; j < i + 4; j++)
					if (j < size)
						printf("%02x", d[j]);
					else
						printf("  ");
			} else {
				printf("         ");
			}
		}
		printf("  '");
		for (size_t i = row; i < row + 16 && i < size; i++)
			putchar(d[i] >= 0x20 && d[i] < 0x7f ? d[i] : '.');
		printf("'\n");
	}
}

/* Best-effort decoding of a parcel without its schema: objects where the
 * offsets say, String16s where the bytes look like one, int32s else. */
static void print_decoded(bc_parcel *p)
{
	const uint8_t *d = bc_parcel_data(p);
	size_t size = bc_parcel_size(p), n_offs, oi = 0, pos = 0;
	const uint64_t *offs = bc_parcel_offsets(p, &n_offs);

	while (pos < size) {
		size_t end;
		int32_t w;

		if (oi < n_offs && offs[oi] == pos && pos + 24 <= size) {
			uint32_t type, handle;
			uint64_t cookie;

			memcpy(&type, d + pos, 4);
			memcpy(&handle, d + pos + 8, 4);
			memcpy(&cookie, d + pos + 16, 8);
			if (type == 0x66642a85)
				printf("  0x%04zx  fd %u\n", pos, handle);
			else if (type == 0x73682a85 || type == 0x77682a85)
				printf("  0x%04zx  %s %u\n", pos, object_type(type), handle);
			else
				printf("  0x%04zx  %s (cookie 0x%llx)\n", pos, object_type(type),
				       (unsigned long long)cookie);
			pos += 24;
			oi++;
			continue;
		}
		if (pos + 4 > size) {
			printf("  0x%04zx  %zu trailing byte(s)\n", pos, size - pos);
			break;
		}
		memcpy(&w, d + pos, 4);
		if (string16_at(d, size, pos, w, &end) && !(oi < n_offs && offs[oi] < end)) {
			printf("  0x%04zx  s16 \"", pos);
			for (int32_t i = 0; i < w; i++) {
				uint16_t ch = (uint16_t)(d[pos + 4 + 2 * i] | d[pos + 5 + 2 * i] << 8);

				if (ch == '"' || ch == '\\')
					printf("\\%c", ch);
				else if (ch < 0x80)
					putchar(ch);
				else
					printf("\\u%04x", ch);
			}
			printf("\"\n");
			pos = end;
			continue;
		}
		if (w == 0x5f504e47 || w == -1)
			printf("  0x%04zx  i32 %d\n", pos, w);
		else
			printf("  0x%04zx  i32 %d (0x%08x)\n", pos, w, (uint32_t)w);
		pos += 4;
	}
}

int binder_call_object(bc_binder *b, const char *what, bool oneway, bool token, uint32_t code, int argc,
		       char **argv)
{
	bc_parcel *req = NULL, *reply = NULL;
	int r = bc_binder_new_parcel(b, &req);

	if (r == 0 && token) {
		char *desc = NULL;

		r = bc_binder_get_interface(b, &desc);
		if (r < 0) {
			fprintf(stderr, "%s: asking '%s' for its interface: %s%s\n", prog, what, binder_call_error(r),
				r == -EAGAIN || r == -EPIPE ? "" : " (try --no-token)");
			bc_parcel_unref(req);
			return EXIT_NOTFOUND;
		}
		r = bc_parcel_write_interface_token(req, desc);
		free(desc);
	}
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", prog, strerror(-r));
		bc_parcel_unref(req);
		return EXIT_UNREACHABLE;
	}
	r = write_args(req, argc, argv);
	if (r) {
		bc_parcel_unref(req);
		return r;
	}
	r = bc_binder_transact(b, code, req, oneway ? NULL : &reply,
			       oneway ? BINDERC_FLAG_ONEWAY | BINDERC_FLAG_TELL_FROZEN : 0, NULL);
	bc_parcel_unref(req);
	if (r < 0) {
		printf("Call failed: %s (%d)\n", binder_call_error(r), r);
		return EXIT_NOTFOUND;
	}
	if (oneway) {
		printf(r == BINDERC_QUEUED_FROZEN ? "Queued (oneway): the service's process is frozen; it gets the call when thawed.\n"
						  : "Sent (oneway).\n");
		return 0;
	}
	{
		size_t n_offs;

		bc_parcel_offsets(reply, &n_offs);
		printf("Reply: %zu bytes, %zu object%s\n", bc_parcel_size(reply), n_offs, n_offs == 1 ? "" : "s");
		print_decoded(reply);
		print_hex(bc_parcel_data(reply), bc_parcel_size(reply));
	}
	bc_parcel_unref(reply);
	return 0;
}

int binder_call_options(int argc, char **argv, bool *oneway, bool *token, bool *plain_tcp)
{
	int i = 0;

	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		if (strcmp(argv[i], "--oneway") == 0)
			*oneway = true;
		else if (strcmp(argv[i], "--no-token") == 0)
			*token = false;
		else if (plain_tcp && strcmp(argv[i], "--plain-tcp") == 0)
			*plain_tcp = true;
		else
			return -binder_usage_error("unknown call option '%s'", argv[i]);
	}
	return i;
}

static int cmd_call(struct ctx *c, int argc, char **argv)
{
	bool oneway = false, token = true;
	bc_binder *b = NULL;
	uint32_t code;
	int i = binder_call_options(argc, argv, &oneway, &token, NULL), r;

	if (i < 0)
		return -i;
	if (argc - i < 2)
		return binder_usage_error("%s", "call: NAME and CODE needed");
	if (binder_parse_code(argv[i + 1], &code) < 0)
		return binder_usage_error("bad code '%s'", argv[i + 1]);
	r = binder_find(c, argv[i], &b);
	if (r)
		return r;
	r = binder_call_object(b, argv[i], oneway, token, code, argc - i - 2, argv + i + 2);
	bc_binder_unref(b);
	return r;
}

/* BINDER_CTL_ADD on the mount's binder-control, once per name. */
static int cmd_mkdev(const char *mount, int argc, char **argv)
{
	char control[4096];
	int fd, i, r = 0;

	snprintf(control, sizeof(control), "%s/binder-control", mount);
	fd = open(control, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: cannot open %s: %s (is %s a binderfs mount?)\n", prog, control,
			strerror(errno), mount);
		return EXIT_UNREACHABLE;
	}
	for (i = 0; i < argc; i++) {
		struct binderfs_device dev = { .name = "" };
		const char *why = NULL;

		if (strlen(argv[i]) > BINDERFS_MAX_NAME) {
			fprintf(stderr, "%s: %s: longer than %d bytes\n", prog, argv[i], BINDERFS_MAX_NAME);
			r = EXIT_NOTFOUND;
			continue;
		}
		memcpy(dev.name, argv[i], strlen(argv[i]));
		if (ioctl(fd, BINDER_CTL_ADD, &dev) == 0) {
			printf("created %s/%s (device %u:%u)\n", mount, argv[i], dev.major, dev.minor);
			continue;
		}
		switch (errno) {
		case EEXIST: why = "a device of that name exists"; break;
		case ENOSPC: why = "the mount's max= limit of devices is reached"; break;
		case EINVAL: why = "not a valid device name"; break;
		case EPERM: why = "not allowed (only the mount's root user may add devices)"; break;
		default: why = strerror(errno); break;
		}
		fprintf(stderr, "%s: cannot create %s/%s: %s\n", prog, mount, argv[i], why);
		r = EXIT_NOTFOUND;
	}
	close(fd);
	return r;
}

static int run_list(struct ctx *c, const char *cmd, int argc, char **argv)
{
	(void)cmd, (void)argc, (void)argv;
	return cmd_list(c);
}

static int run_check(struct ctx *c, const char *cmd, int argc, char **argv)
{
	(void)cmd, (void)argc;
	return cmd_check(c, argv[0]);
}

static int run_ping(struct ctx *c, const char *cmd, int argc, char **argv)
{
	(void)cmd, (void)argc;
	return cmd_ping(c, argv[0]);
}

static int run_wait(struct ctx *c, const char *cmd, int argc, char **argv)
{
	(void)cmd;
	return cmd_wait(c, argv[0], argc > 1 ? argv[1] : NULL);
}

static int run_call(struct ctx *c, const char *cmd, int argc, char **argv)
{
	(void)cmd;
	return cmd_call(c, argc, argv);
}

static int run_mkdev(struct ctx *c, const char *cmd, int argc, char **argv)
{
	(void)c, (void)cmd;
	return cmd_mkdev(argv[0], argc - 1, argv + 1);
}

static int run_monitor(struct ctx *c, const char *cmd, int argc, char **argv)
{
	(void)c, (void)cmd;
	return binder_monitor(prog, argc, argv);
}

static int run_freeze(struct ctx *c, const char *cmd, int argc, char **argv)
{
	return binder_freeze(prog, c->device, cmd, argc, argv);
}

static int run_rpc(struct ctx *c, const char *cmd, int argc, char **argv)
{
	(void)cmd;
	return binder_rpc(c, argc, argv);
}

/* The commands, once: their names (for the errors too), how many
 * arguments each takes, and whether it talks to the service manager
 * (mkdev needs a binderfs mount, monitor netlink, freezing the device). */
static const struct command {
	const char *name;
	int min, max;
	bool needs_sm;
	int (*run)(struct ctx *c, const char *cmd, int argc, char **argv);
} commands[] = {
	{ "list", 0, 0, true, run_list },
	{ "check", 1, 1, true, run_check },
	{ "ping", 1, 1, true, run_ping },
	{ "wait", 1, 2, true, run_wait },
	{ "call", 2, 1 << 20, true, run_call },
	{ "mkdev", 2, 1 << 20, false, run_mkdev },
	{ "monitor", 0, 8, false, run_monitor },
	{ "freeze", 1, 1 << 20, false, run_freeze },
	{ "thaw", 1, 1 << 20, false, run_freeze },
	{ "frozen", 1, 1 << 20, false, run_freeze },
	/* only rpc serve needs the device: it opens it itself */
	{ "rpc", 1, 1 << 20, false, run_rpc },
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* "(list, check, ...)" for the errors that list the commands. */
static const char *command_names(void)
{
	static char buf[128];
	size_t n = 0;

	for (size_t k = 0; k < N_COMMANDS && n < sizeof(buf); k++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s%s", k ? ", " : "(", commands[k].name,
				      k + 1 == N_COMMANDS ? ")" : "");
	return buf;
}

int main(int argc, char **argv)
{
	const struct command *command = NULL;
	static const struct option lo[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "legacy", no_argument, NULL, 'l' },
		{ "android", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ctx c = { .dialect = BINDERC_SM_DIALECT_DEFAULT };
	const char *cmd;
	int o, r;

	/* '+': stop at the command, so its own options (call --oneway) stay. */
	while ((o = getopt_long(argc, argv, "+a:d:lh", lo, NULL)) != -1) {
		switch (o) {
		case 'd':
			c.device = optarg;
			break;
		case 'l':
			c.dialect = BINDERC_SM_DIALECT_LEGACY;
			break;
		case 'a': {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || v < BINDERC_SM_DIALECT_ANDROID_11 || v > BINDERC_SM_DIALECT_ANDROID_16)
				return binder_usage_error("--android takes 11..16, not '%s'", optarg);
			c.dialect = (int)v;
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'binder --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return binder_usage_error("no command %s", command_names());
	cmd = argv[optind++];
	argc -= optind;
	argv += optind;

	for (size_t k = 0; k < N_COMMANDS && !command; k++)
		if (strcmp(commands[k].name, cmd) == 0)
			command = &commands[k];
	if (!command) {
		fprintf(stderr, "%s: unknown command '%s' %s\nTry 'binder --help'.\n", prog, cmd, command_names());
		return EXIT_USAGE;
	}
	if (argc < command->min || argc > command->max)
		return binder_usage_error("wrong number of arguments for '%s'", cmd);
	if (!command->needs_sm)
		return command->run(&c, cmd, argc, argv);
	r = binder_connect_sm(&c);
	if (r == 0)
		r = command->run(&c, cmd, argc, argv);
	fflush(stdout);
	bc_sm_unref(c.sm);
	bc_process_unref(c.proc);
	return r;
}
