/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of FileDescriptor and ParcelFileDescriptor (Fds.aidl,
 * IFiles.aidl).  Generated code writes a duplicate the parcel owns (as
 * Android's writeDupFileDescriptor does), so the fd numbers in the bytes
 * differ from a hand-written parcel's: they are compared with the fd
 * word masked, and the fds themselves by inode.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "at.h"

#include "org_binderc_test_FdBag.h"
#include "org_binderc_test_Fds.h"
#include "org_binderc_test_IFiles.h"

Test(aidl_fds, parcelable_fields)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Fds f, r;
	int a = at_temp_file("aa"), b = at_temp_file("bbb");
	size_t tok;

	cr_assert_eq(org_binderc_test_Fds_init(&f), 0);
	cr_assert_eq(f.fd, -1);
	cr_assert_eq(f.maybe, -1);
	cr_assert_eq(org_binderc_test_Fds_write(p, &f), -EINVAL); /* non-nullable fds missing */
	bc_parcel_unref(p);
	p = at_parcel();
	f.fd = a, f.pfd = b;
	cr_assert_eq(org_binderc_test_Fds_write(p, &f), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_fd(q, dup(a), true); /* Android: writeDupFileDescriptor */
	bc_parcel_write_int32(q, 1); /* ParcelFileDescriptor: non-null, */
	bc_parcel_write_int32(q, 0); /* no comm channel, */
	bc_parcel_write_fd(q, dup(b), true); /* the fd */
	bc_parcel_write_int32(q, 0); /* a null ParcelFileDescriptor */
	bc_parcel_write_int32(q, 9);
	bc_parcel_end_parcelable(q, tok);
	at_same_but_fds(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Fds_read(p, &r), 0);
	cr_assert(r.fd >= 0 && r.fd != a && at_same_file(r.fd, a));
	cr_assert(r.pfd >= 0 && at_same_file(r.pfd, b));
	cr_assert_eq(r.maybe, -1);
	cr_assert_eq(r.after, 9);
	org_binderc_test_Fds_clear(&r);
	cr_assert_eq(r.fd, -1);
	org_binderc_test_Fds_clear(&f); /* closes a and b */
	cr_assert_eq(fcntl(a, F_GETFD), -1);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

static int f_open(void *self, const char *path, int *ret)
{
	(void)self;
	*ret = open(path, O_RDONLY | O_CLOEXEC);
	return *ret < 0 ? -errno : 0;
}

static int f_sizes(void *self, int pfd, int fd, int maybe, int64_t *ret)
{
	struct stat a, b;

	(void)self;
	cr_assert_eq(maybe, -1);
	cr_assert_eq(fstat(pfd, &a), 0);
	cr_assert_eq(fstat(fd, &b), 0);
	*ret = a.st_size + b.st_size;
	return 0;
}

static int f_dup(void *self, int fd, int *ret)
{
	(void)self;
	*ret = dup(fd); /* the stub closes it after writing the reply */
	return 0;
}

static int f_swap(void *self, const org_binderc_test_Fds *f, org_binderc_test_Fds *ret)
{
	(void)self;
	ret->fd = dup(f->pfd);
	ret->pfd = dup(f->fd);
	ret->maybe = dup(f->fd);
	ret->after = f->after + 1;
	return 0;
}

static const struct org_binderc_test_IFiles_ops fops = {
	.openFile = f_open, .sizes = f_sizes, .dupOf = f_dup, .swap = f_swap,
};

Test(aidl_fds, loopback)
{
	bc_binder *svc = NULL;
	int a = at_temp_file("12345"), b = at_temp_file("67"), got = -1;
	int64_t total = 0;
	char buf[8] = "";
	org_binderc_test_Fds f, r;

	cr_assert_eq(org_binderc_test_IFiles_stub_new(&fops, NULL, NULL, &svc), 0);
	cr_assert_eq(org_binderc_test_IFiles_openFile(svc, "/proc/self/stat", &got), 0);
	cr_assert_gt(read(got, buf, 3), 0);
	close(got);
	cr_assert_eq(org_binderc_test_IFiles_openFile(svc, "/nonexistent", &got), -ENOENT);
	cr_assert_eq(org_binderc_test_IFiles_sizes(svc, a, b, -1, &total), 0);
	cr_assert_eq(total, 7);
	cr_assert_eq(org_binderc_test_IFiles_sizes(svc, -1, b, -1, &total), -EINVAL);
	cr_assert_eq(org_binderc_test_IFiles_dupOf(svc, a, &got), 0);
	cr_assert(got != a && at_same_file(got, a));
	close(got);
	org_binderc_test_Fds_init(&f);
	f.fd = a, f.pfd = b;
	cr_assert_eq(org_binderc_test_IFiles_swap(svc, &f, &r), 0);
	cr_assert(at_same_file(r.fd, b) && at_same_file(r.pfd, a) && at_same_file(r.maybe, a));
	cr_assert_eq(r.after, 10);
	org_binderc_test_Fds_clear(&r);
	org_binderc_test_Fds_clear(&f);
	bc_binder_unref(svc);
}

/* ---- out and inout ParcelFileDescriptor (and arrays) ---------------------- */

/* Android writes a ParcelFileDescriptor as a parcelable: int32 1, then its
 * body, int32 0 (no comm channel) and the fd object (Parcel's
 * writeParcelable + writeDupParcelFileDescriptor; NDK
 * AParcel_writeRequiredParcelFileDescriptor). */
static void pfd_by_hand(bc_parcel *q, int fd)
{
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 0);
	bc_parcel_write_fd(q, dup(fd), true);
}

static bc_parcel *files_request(void)
{
	bc_parcel *q = at_parcel();

	cr_assert_eq(bc_parcel_write_interface_token(q, org_binderc_test_IFiles_DESCRIPTOR), 0);
	return q;
}

/* What the proxy must send and what the fake service answers. */
static struct {
	bc_parcel *want;
	int reply_a, reply_b;
	uint32_t code;
} fx;

static int fx_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)ud;
	cr_assert_eq(code, fx.code);
	at_same_but_fds(in, fx.want);
	bc_parcel_write_status(reply, NULL);
	if (code == org_binderc_test_IFiles_CODE_reopen) {
		pfd_by_hand(reply, fx.reply_a);
		pfd_by_hand(reply, fx.reply_b);
	} else if (code == org_binderc_test_IFiles_CODE_dupAll) {
		bc_parcel_write_int32(reply, 1); /* the return value: one fd */
		bc_parcel_write_fd(reply, dup(fx.reply_a), true);
		bc_parcel_write_int32(reply, 1); /* outs */
		bc_parcel_write_fd(reply, dup(fx.reply_b), true);
		bc_parcel_write_int32(reply, 2); /* io */
		bc_parcel_write_fd(reply, dup(fx.reply_b), true);
		bc_parcel_write_fd(reply, dup(fx.reply_a), true);
	} else {
		bc_parcel_write_int32(reply, 7); /* the return value */
		bc_parcel_write_int32(reply, 1); /* fds: one */
		pfd_by_hand(reply, fx.reply_a);
		bc_parcel_write_int32(reply, 2); /* io: two */
		pfd_by_hand(reply, fx.reply_b);
		pfd_by_hand(reply, fx.reply_a);
		bc_parcel_write_int32(reply, 2); /* two: exactly two */
		pfd_by_hand(reply, fx.reply_b);
		pfd_by_hand(reply, fx.reply_b);
	}
	return 0;
}

static bc_binder *fx_new(void)
{
	bc_class *cls = NULL;
	bc_binder *b = NULL;

	cr_assert_eq(bc_class_new(org_binderc_test_IFiles_DESCRIPTOR, fx_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
	bc_class_unref(cls);
	return b;
}

/* An out ParcelFileDescriptor sends nothing, an inout one is sent as an
 * in one; both come back in the reply, in declaration order.  The
 * caller's inout fd is closed and replaced by the received one. */
Test(aidl_fds, out_inout_pfd_proxy_bytes)
{
	int a = at_temp_file("a"), b = at_temp_file("b"), mine = at_temp_file("mine");
	int fd = -1, io = mine;
	bc_binder *svc = fx_new();

	fx.want = files_request();
	pfd_by_hand(fx.want, mine);
	fx.code = org_binderc_test_IFiles_CODE_reopen;
	fx.reply_a = a, fx.reply_b = b;
	cr_assert_eq(org_binderc_test_IFiles_reopen(svc, &fd, &io), 0);
	cr_assert(fd >= 0 && at_same_file(fd, a));
	cr_assert(io >= 0 && io != mine && at_same_file(io, b));
	cr_assert_eq(fcntl(mine, F_GETFD), -1, "the inout fd given was closed");
	close(fd), close(io);
	cr_assert_eq(org_binderc_test_IFiles_reopen(svc, NULL, &io), -EINVAL);
	bc_parcel_unref(fx.want);
	bc_binder_unref(svc);
	close(a), close(b);
}

/* An out ParcelFileDescriptor[] sends the size asked for, an inout one
 * its elements, an out [N] nothing; the reply holds the return value,
 * then each array (int32 count, each as a ParcelFileDescriptor). */
Test(aidl_fds, out_inout_pfd_arrays_proxy_bytes)
{
	int a = at_temp_file("a"), b = at_temp_file("b"), m = at_temp_file("m");
	int *fds = NULL, *two = NULL, *io = malloc(sizeof(int));
	size_t fds_len = 3, io_len = 1, two_len = 0;
	int32_t ret = 0;
	bc_binder *svc = fx_new();

	io[0] = m;
	fx.want = files_request();
	bc_parcel_write_int32(fx.want, 3); /* out fds: the size asked for */
	bc_parcel_write_int32(fx.want, 1); /* inout io: its elements */
	pfd_by_hand(fx.want, m);
	fx.code = org_binderc_test_IFiles_CODE_fill;
	fx.reply_a = a, fx.reply_b = b;
	cr_assert_eq(org_binderc_test_IFiles_fill(svc, &fds, &fds_len, &io, &io_len, &two, &two_len, &ret), 0);
	cr_assert_eq(ret, 7);
	cr_assert_eq(fds_len, 1);
	cr_assert(at_same_file(fds[0], a));
	cr_assert_eq(io_len, 2);
	cr_assert(at_same_file(io[0], b) && at_same_file(io[1], a));
	cr_assert_eq(fcntl(m, F_GETFD), -1, "the inout array given was freed, its fds closed");
	cr_assert_eq(two_len, 2);
	cr_assert(at_same_file(two[0], b) && at_same_file(two[1], b));
	for (size_t i = 0; i < 2; i++)
		close(io[i]), close(two[i]);
	close(fds[0]);
	free(fds), free(io), free(two);
	bc_parcel_unref(fx.want);
	bc_binder_unref(svc);
	close(a), close(b);
}

static int s_reopen(void *self, int *fd, int *io)
{
	int *files = self;

	cr_assert_eq(*fd, -1, "an out fd starts empty");
	cr_assert(*io >= 0 && at_same_file(*io, files[0]));
	*fd = dup(files[1]);
	close(*io); /* replaced: the stub closes what is left after the reply */
	*io = dup(files[0]);
	return 0;
}

static int s_fill(void *self, int **fds, size_t *fds_len, int **io, size_t *io_len, int **two, size_t *two_len,
		  int32_t *ret)
{
	int *files = self;

	cr_assert_eq(*fds_len, 2);
	cr_assert(fds[0][0] == -1 && fds[0][1] == -1, "an out array starts as fds -1");
	cr_assert_eq(*io_len, 1);
	cr_assert(at_same_file(io[0][0], files[1]));
	cr_assert_eq(*two_len, 2);
	cr_assert(two[0][0] == -1 && two[0][1] == -1);
	fds[0][0] = dup(files[0]);
	fds[0][1] = dup(files[1]);
	two[0][0] = dup(files[1]);
	two[0][1] = dup(files[0]);
	*ret = (int32_t)*io_len;
	return 0;
}

static int s_leave(void *self, int *fd, int *io)
{
	(void)self, (void)fd, (void)io;
	return 0;
}

/* The stub (dispatch takes the request after its interface token): an
 * out fd the implementation sets, an inout one it may replace, written
 * back in Android's bytes. */
Test(aidl_fds, out_inout_pfd_stub_bytes)
{
	int files[2] = { at_temp_file("x"), at_temp_file("y") };
	const struct org_binderc_test_IFiles_ops ops = { .reopen = s_reopen, .fill = s_fill };
	bc_parcel *in = at_parcel(), *reply = at_parcel(), *want = at_parcel();

	pfd_by_hand(in, files[0]);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IFiles_dispatch(&ops, files, org_binderc_test_IFiles_CODE_reopen, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	pfd_by_hand(want, files[1]);
	pfd_by_hand(want, files[0]);
	at_same_but_fds(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(reply), bc_parcel_unref(want);

	in = at_parcel(), reply = at_parcel(), want = at_parcel();
	bc_parcel_write_int32(in, 2); /* out fds: two asked for */
	bc_parcel_write_int32(in, 1); /* inout io: one */
	pfd_by_hand(in, files[1]);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IFiles_dispatch(&ops, files, org_binderc_test_IFiles_CODE_fill, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 1);
	bc_parcel_write_int32(want, 2);
	pfd_by_hand(want, files[0]);
	pfd_by_hand(want, files[1]);
	bc_parcel_write_int32(want, 1);
	pfd_by_hand(want, files[1]);
	bc_parcel_write_int32(want, 2);
	pfd_by_hand(want, files[1]);
	pfd_by_hand(want, files[0]);
	at_same_but_fds(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(reply), bc_parcel_unref(want);

	/* an out fd left unset is refused, as Android's non-null rule */
	in = at_parcel(), reply = at_parcel();
	pfd_by_hand(in, files[0]);
	at_rewind(in);
	{
		const struct org_binderc_test_IFiles_ops none = { .reopen = s_leave };
		cr_assert_eq(org_binderc_test_IFiles_dispatch(&none, files, org_binderc_test_IFiles_CODE_reopen, in, reply),
			     -EINVAL);
	}
	bc_parcel_unref(in), bc_parcel_unref(reply);
	close(files[0]), close(files[1]);
}

/* ---- FileDescriptor[] --------------------------------------------------------- */

/* Android's writeUniqueFileDescriptorVector: int32 count, then each fd
 * object (a duplicate), with no marker before each as a
 * ParcelFileDescriptor[] has; int32 -1 for a null @nullable array. */
Test(aidl_fds, fd_array_proxy_bytes)
{
	int a = at_temp_file("a"), b = at_temp_file("b"), m = at_temp_file("m");
	int in[2] = { a, b }, *outs = NULL, *io = malloc(sizeof(int)), *ret = NULL;
	size_t outs_len = 1, io_len = 1, ret_len = 0;
	bc_binder *svc = fx_new();

	io[0] = m;
	fx.want = files_request();
	bc_parcel_write_int32(fx.want, 2);
	bc_parcel_write_fd(fx.want, dup(a), true);
	bc_parcel_write_fd(fx.want, dup(b), true);
	bc_parcel_write_int32(fx.want, -1); /* maybe: null */
	bc_parcel_write_int32(fx.want, 1);  /* outs: the size asked for */
	bc_parcel_write_int32(fx.want, 1);  /* io */
	bc_parcel_write_fd(fx.want, dup(m), true);
	fx.code = org_binderc_test_IFiles_CODE_dupAll;
	fx.reply_a = a, fx.reply_b = b;
	cr_assert_eq(org_binderc_test_IFiles_dupAll(svc, in, 2, NULL, 0, &outs, &outs_len, &io, &io_len, &ret, &ret_len),
		     0);
	cr_assert_eq(ret_len, 1);
	cr_assert(at_same_file(ret[0], a));
	cr_assert_eq(outs_len, 1);
	cr_assert(at_same_file(outs[0], b));
	cr_assert_eq(io_len, 2);
	cr_assert(at_same_file(io[0], b) && at_same_file(io[1], a));
	cr_assert_eq(fcntl(m, F_GETFD), -1, "the inout array's fds were closed");
	close(ret[0]), close(outs[0]), close(io[0]), close(io[1]);
	free(ret), free(outs), free(io);
	/* no -1 element in a FileDescriptor[], nullable or not */
	in[1] = -1;
	io = NULL, io_len = 0;
	cr_assert_eq(org_binderc_test_IFiles_dupAll(svc, in, 2, NULL, 0, &outs, &outs_len, &io, &io_len, NULL, NULL),
		     -EINVAL);
	cr_assert_eq(org_binderc_test_IFiles_dupAll(svc, &a, 1, in, 2, &outs, &outs_len, &io, &io_len, NULL, NULL),
		     -EINVAL);
	bc_parcel_unref(fx.want);
	bc_binder_unref(svc);
	close(a), close(b);
}

static int s_dup_all(void *self, const int *fds, size_t fds_len, const int *maybe, size_t maybe_len, int **outs,
		     size_t *outs_len, int **io, size_t *io_len, int **ret, size_t *ret_len)
{
	(void)self;
	cr_assert_eq(fds_len, 1);
	cr_assert_not_null(maybe);
	cr_assert_eq(maybe_len, 1);
	cr_assert(at_same_file(fds[0], maybe[0]));
	cr_assert_eq(*outs_len, 2);
	cr_assert(outs[0][0] == -1 && outs[0][1] == -1);
	cr_assert_eq(*io_len, 0);
	cr_assert_not_null(*io, "an empty array is not NULL");
	outs[0][0] = dup(fds[0]);
	outs[0][1] = dup(fds[0]);
	*ret = malloc(sizeof(int));
	**ret = dup(maybe[0]);
	*ret_len = 1;
	return 0;
}

Test(aidl_fds, fd_array_stub_bytes)
{
	int a = at_temp_file("a");
	const struct org_binderc_test_IFiles_ops ops = { .dupAll = s_dup_all };
	bc_parcel *in = at_parcel(), *reply = at_parcel(), *want = at_parcel();

	bc_parcel_write_int32(in, 1);
	bc_parcel_write_fd(in, dup(a), true);
	bc_parcel_write_int32(in, 1); /* maybe: one */
	bc_parcel_write_fd(in, dup(a), true);
	bc_parcel_write_int32(in, 2); /* outs: two asked for */
	bc_parcel_write_int32(in, 0); /* io: empty */
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IFiles_dispatch(&ops, NULL, org_binderc_test_IFiles_CODE_dupAll, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 1);
	bc_parcel_write_fd(want, dup(a), true);
	bc_parcel_write_int32(want, 2);
	bc_parcel_write_fd(want, dup(a), true);
	bc_parcel_write_fd(want, dup(a), true);
	bc_parcel_write_int32(want, 0);
	at_same_but_fds(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(reply), bc_parcel_unref(want);

	/* a null where a FileDescriptor[] is required: a malformed request */
	in = at_parcel(), reply = at_parcel();
	bc_parcel_write_int32(in, -1);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IFiles_dispatch(&ops, NULL, org_binderc_test_IFiles_CODE_dupAll, in, reply),
		     -EINVAL);
	bc_parcel_unref(in), bc_parcel_unref(reply);
	close(a);
}

/* As fields: a FileDescriptor[2] starts as two fds -1 (Android's
 * std::array<unique_fd, 2>), which cannot be written until set; a
 * @nullable one starts null. */
Test(aidl_fds, fd_array_fields)
{
	int a = at_temp_file("a");
	org_binderc_test_FdBag v, r;
	bc_parcel *p = at_parcel(), *q = at_parcel();
	size_t tok;

	cr_assert_eq(org_binderc_test_FdBag_init(&v), 0);
	cr_assert_null(v.maybe);
	cr_assert_eq(v.two_len, 2);
	cr_assert(v.two[0] == -1 && v.two[1] == -1);
	cr_assert_eq(org_binderc_test_FdBag_write(p, &v), -EINVAL);
	bc_parcel_unref(p);
	p = at_parcel();
	v.two[0] = dup(a), v.two[1] = dup(a);
	cr_assert_eq(org_binderc_test_FdBag_write(p, &v), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 0);  /* fds: empty */
	bc_parcel_write_int32(q, -1); /* maybe: null */
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_fd(q, dup(a), true);
	bc_parcel_write_fd(q, dup(a), true);
	bc_parcel_end_parcelable(q, tok);
	at_same_but_fds(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_FdBag_read(p, &r), 0);
	cr_assert_eq(r.fds_len, 0);
	cr_assert_null(r.maybe);
	cr_assert_eq(r.two_len, 2);
	cr_assert(at_same_file(r.two[0], a) && at_same_file(r.two[1], a));
	org_binderc_test_FdBag_clear(&r);
	org_binderc_test_FdBag_clear(&v);
	bc_parcel_unref(p), bc_parcel_unref(q);
	close(a);
}
