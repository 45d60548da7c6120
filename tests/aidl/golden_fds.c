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

/* Same bytes except the fd numbers of fd objects; same files behind them. */
static void same_but_fds(const bc_parcel *got, const bc_parcel *want)
{
	size_t n = bc_parcel_size(got), ng, nw;
	const uint64_t *og = bc_parcel_offsets(got, &ng), *ow = bc_parcel_offsets(want, &nw);
	unsigned char *a = malloc(n + 1), *b = malloc(n + 1);

	cr_assert_eq(n, bc_parcel_size(want), "size %zu, want %zu", n, bc_parcel_size(want));
	cr_assert_eq(ng, nw);
	memcpy(a, bc_parcel_data(got), n);
	memcpy(b, bc_parcel_data(want), n);
	for (size_t i = 0; i < ng; i++) {
		int32_t fa, fb;
		struct stat sa, sb;

		cr_assert_eq(og[i], ow[i]);
		memcpy(&fa, a + og[i] + 8, 4);
		memcpy(&fb, b + ow[i] + 8, 4);
		cr_assert_eq(fstat(fa, &sa), 0);
		cr_assert_eq(fstat(fb, &sb), 0);
		cr_assert(sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev, "object %zu: another file", i);
		memset(a + og[i] + 8, 0, 8);
		memset(b + ow[i] + 8, 0, 8);
	}
	cr_assert_eq(memcmp(a, b, n), 0, "bytes differ");
	free(a), free(b);
}

static int temp_file(const char *content)
{
	char path[] = "/tmp/bc-aidl-fd.XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	unlink(path);
	cr_assert_eq(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	return fd;
}

static bool same_file(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev;
}

Test(aidl_fds, parcelable_fields)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Fds f, r;
	int a = temp_file("aa"), b = temp_file("bbb");
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
	same_but_fds(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Fds_read(p, &r), 0);
	cr_assert(r.fd >= 0 && r.fd != a && same_file(r.fd, a));
	cr_assert(r.pfd >= 0 && same_file(r.pfd, b));
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
	int a = temp_file("12345"), b = temp_file("67"), got = -1;
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
	cr_assert(got != a && same_file(got, a));
	close(got);
	org_binderc_test_Fds_init(&f);
	f.fd = a, f.pfd = b;
	cr_assert_eq(org_binderc_test_IFiles_swap(svc, &f, &r), 0);
	cr_assert(same_file(r.fd, b) && same_file(r.pfd, a) && same_file(r.maybe, a));
	cr_assert_eq(r.after, 10);
	org_binderc_test_Fds_clear(&r);
	org_binderc_test_Fds_clear(&f);
	bc_binder_unref(svc);
}
