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
