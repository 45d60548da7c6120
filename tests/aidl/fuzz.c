/* SPDX-License-Identifier: MIT */
/*
 * A quick fuzz of bc-aidl's front end (lexer, parser, resolver, constant
 * evaluation) under ASan/UBSan: the good corpus mutated a few thousand
 * times (byte changes, deletions, duplications, truncations, inserted
 * AIDL tokens) must always end in success or exactly one clean
 * "file:line:col: error: ..." message, with no crash, leak or undefined
 * behaviour.  Deterministic (fixed seeds), so a failure reproduces.
 */
#include <dirent.h>
#include <stdlib.h>

#include "at.h"
#include "aidl.h"

#define GOOD_DIR AIDLT_DIR "/good"
#define PKG_DIR GOOD_DIR "/org/binderc/test"

static const char *incdirs[] = { GOOD_DIR };
static struct aidl_opts opts = { .incdirs = incdirs, .n_incdirs = 1, .version = 2, .hash = "h" };

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static size_t pick(size_t n)
{
	return n ? (size_t)(next_rand() % n) : 0;
}

static const char *const dict[] = {
	"{", "}", "(", ")", "<", ">", "[", "]", ";", ",", "=", "@", ".", "-", "~", "!", "?", ":", "<<", ">>",
	"oneway", "in", "out", "inout", "const", "\"", "'", "/*", "*/", "//", "0x", "0x7fffffffffffffff", "1L",
	"interface", "parcelable", "enum", "union", "import", "package", "@nullable", "@utf8InCpp",
	"@Backing(type=\"long\")", "@Backing(type=", "String", "int[]", "IBinder", "void", "byte", "char", "'x'",
	"99999999999999999999", "-9223372036854775808", "1.5e400", "\n", "\\", "\xff", "\xc3", "\0", " ", "=", "= 5",
	"Color.", "Color.RED", "Point", "ICallback", "List<String>", "int[3]", "1 << 63", "1 / 0", "(((((",
	/* this branch's syntax: fds out and in arrays, unstructured parcelables */
	"ParcelFileDescriptor", "FileDescriptor[]", "out @nullable", "parcelable P;", " cpp_header \"a.h\"",
	" ndk_header \"b\nc\"", "rust_type",
	/* issue 32's last constructs: @SensitiveData, @nullable out T[N],
	 * T[N][M] defaults (rows), generic parameters used by fields */
	"@SensitiveData", "out @nullable int[3]", "inout @nullable String[1]", "int[2][3] m = {{1, 2, 3}, {4, 5, 6}}",
	"{{", "}}", "}, {", "[2][3]", "= {{\"a\"}}", "<T>", "T value;", "T[] list;", "P<int>", "Generic<String>",
	/* instantiations of generics whose fields use their parameters */
	"Pair<int, String>", "Pair<Point, IBinder>", "Pair<Pair<int, String>, long>", "T<int>", "@nullable T",
	"U other;", "<T, U>", "Pair<int[], String>", "__",
};

static size_t load_corpus(char ***bufs, size_t **lens)
{
	DIR *d = opendir(PKG_DIR);
	struct dirent *e;
	size_t n = 0;

	cr_assert_not_null(d);
	*bufs = NULL, *lens = NULL;
	while ((e = readdir(d))) {
		char path[512];
		FILE *f;
		size_t l = strlen(e->d_name);

		if (l < 6 || strcmp(e->d_name + l - 5, ".aidl") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", PKG_DIR, e->d_name);
		f = fopen(path, "rb");
		cr_assert_not_null(f);
		*bufs = realloc(*bufs, (n + 1) * sizeof(**bufs));
		*lens = realloc(*lens, (n + 1) * sizeof(**lens));
		(*bufs)[n] = malloc(65536);
		(*lens)[n] = fread((*bufs)[n], 1, 65536, f);
		fclose(f);
		n++;
	}
	closedir(d);
	return n;
}

static size_t mutate(char *buf, size_t len, size_t cap)
{
	int rounds = 1 + (int)pick(4);

	while (rounds--) {
		size_t at = pick(len + 1), n;
		const char *tok;

		switch (pick(6)) {
		case 0: /* change a byte */
			if (len)
				buf[pick(len)] = (char)next_rand();
			break;
		case 1: /* delete a span */
			n = pick(16) + 1;
			if (at + n > len)
				n = len - at;
			memmove(buf + at, buf + at + n, len - at - n);
			len -= n;
			break;
		case 2: /* duplicate a span */
			n = pick(32) + 1;
			if (at + n > len)
				n = len - at;
			if (len + n <= cap) {
				memmove(buf + at + n, buf + at, len - at);
				len += n;
			}
			break;
		case 3: /* truncate */
			len = at;
			break;
		default: { /* insert a token */
			size_t tl;
			tok = dict[pick(sizeof(dict) / sizeof(dict[0]))];
			tl = tok[0] ? strlen(tok) : 1;
			if (len + tl <= cap) {
				memmove(buf + at + tl, buf + at, len - at);
				memcpy(buf + at, tok, tl);
				len += tl;
			}
			break;
		}
		}
	}
	return len;
}

Test(aidl_fuzz, mutated_corpus, .timeout = 240)
{
	char **bufs;
	size_t *lens, n = load_corpus(&bufs, &lens);
	char *work = malloc(65536);
	char outdir[] = "/tmp/bc-aidl-fuzz.XXXXXX";
	int ok = 0, refused = 0;

	/* what is accepted also goes through the generator */
	cr_assert_not_null(mkdtemp(outdir));
	opts.outdir = outdir;

	cr_assert_geq(n, 5);
	/* the unmutated corpus is accepted */
	for (size_t i = 0; i < n; i++) {
		char err[1024] = "";
		cr_assert_eq(aidl_check_buffer(&opts, "seed.aidl", bufs[i], lens[i], err, sizeof(err)), 0, "%s", err);
	}
	for (int iter = 0; iter < 20000; iter++) {
		size_t k = pick(n), len;
		char err[1024] = "";

		memcpy(work, bufs[k], lens[k]);
		len = mutate(work, lens[k], 65536);
		if (aidl_generate_buffer(&opts, "fuzz.aidl", work, len, err, sizeof(err)) == 0) {
			ok++;
			continue;
		}
		refused++;
		/* one clean message: located in the input or in a file it imports */
		cr_assert(strstr(err, ": error: ") != NULL, "iteration %d: %s", iter, err);
		cr_assert(strchr(err, '\n') == NULL, "iteration %d: multi-line error: %s", iter, err);
		cr_assert(strncmp(err, "fuzz.aidl:", 10) == 0 || strncmp(err, GOOD_DIR, strlen(GOOD_DIR)) == 0 ||
				  strncmp(err, "bc-aidl: error: cannot ", 23) == 0, /* e.g. a name too long for a file */
			  "iteration %d: error without a location: %s", iter, err);
	}
	cr_log_info("fuzz: %d accepted, %d refused", ok, refused);
	{
		char cmd[256];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", outdir);
		cr_assert_eq(system(cmd), 0);
	}
	cr_assert_gt(refused, 1000);
	cr_assert_gt(ok, 10);
	for (size_t i = 0; i < n; i++)
		free(bufs[i]);
	free(bufs), free(lens), free(work);
}
