/* SPDX-License-Identifier: MIT */
/*
 * The malformed-AIDL corpus: every tests/aidl/bad/NAME.aidl says on its
 * second line "// expect: LINE:COL: error: MESSAGE".  Each must be refused
 * with exactly that message at exactly that place, in-process (under
 * ASan/UBSan) and by the bc-aidl binary (exit status 1, one line on
 * stderr, no file written).
 */
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "at.h"
#include "aidl.h"

#define BAD_DIR AIDLT_DIR "/bad"

static const char *incdirs[] = { BAD_DIR, AIDLT_DIR "/good" };
static const struct aidl_opts opts = { .incdirs = incdirs, .n_incdirs = 2, .version = 1, .hash = "x" };

/* The expectation of one file, or NULL. */
static char *expectation(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");
	char *exp = NULL;

	cr_assert_not_null(f, "%s", path);
	for (int i = 0; i < 2 && fgets(line, sizeof(line), f); i++) {
		if (strncmp(line, "// expect: ", 11) == 0) {
			line[strcspn(line, "\n")] = '\0';
			exp = strdup(line + 11);
		}
	}
	fclose(f);
	return exp;
}

static size_t list_bad(char ***ret)
{
	DIR *d = opendir(BAD_DIR);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".aidl") != 0)
			continue;
		v = realloc(v, (n + 1) * sizeof(*v));
		v[n] = malloc(strlen(BAD_DIR) + l + 2);
		sprintf(v[n++], "%s/%s", BAD_DIR, e->d_name);
	}
	closedir(d);
	*ret = v;
	return n;
}

Test(aidl_bad, corpus_in_process)
{
	char **files;
	size_t n = list_bad(&files);

	cr_assert_geq(n, 40, "the corpus has %zu files", n);
	for (size_t i = 0; i < n; i++) {
		char err[1024] = "", want[1200];
		char *exp = expectation(files[i]);

		cr_assert_not_null(exp, "%s has no '// expect:' line", files[i]);
		snprintf(want, sizeof(want), "%s:%s", files[i], exp);
		cr_assert_neq(aidl_check_file(&opts, files[i], err, sizeof(err)), 0, "%s was accepted", files[i]);
		cr_expect_str_eq(err, want, "%s:\n got:  %s\n want: %s", files[i], err, want);
		free(exp);
		free(files[i]);
	}
	free(files);
}

Test(aidl_bad, corpus_through_the_binary)
{
	char **files;
	size_t n = list_bad(&files);
	char outdir[] = "/tmp/bc-aidl-bad.XXXXXX";

	cr_assert_not_null(mkdtemp(outdir));
	for (size_t i = 0; i < n; i++) {
		char cmd[2048], got[1200] = "", want[1200];
		char *exp = expectation(files[i]);
		FILE *p;
		int st;

		snprintf(cmd, sizeof(cmd), "%s -I %s -I %s/good -o %s --version 1 --hash x %s 2>&1", BC_AIDL_BIN, BAD_DIR,
			 AIDLT_DIR, outdir, files[i]);
		p = popen(cmd, "r");
		cr_assert_not_null(p);
		if (!fgets(got, sizeof(got), p))
			got[0] = '\0';
		got[strcspn(got, "\n")] = '\0';
		st = pclose(p);
		cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s: exit status %d", files[i], st);
		snprintf(want, sizeof(want), "%s:%s", files[i], exp);
		cr_expect_str_eq(got, want, "%s:\n got:  %s\n want: %s", files[i], got, want);
		free(exp);
		free(files[i]);
	}
	free(files);
	cr_assert_eq(rmdir(outdir), 0, "bc-aidl wrote files for refused input");
}

/* Android's rule: the type IFoo lives in IFoo.aidl (checked when generating). */
Test(aidl_bad, file_name_must_match)
{
	char dir[] = "/tmp/bc-aidl-name.XXXXXX", path[256], cmd[1024], got[512] = "";
	FILE *f, *p;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/IBar.aidl", dir);
	f = fopen(path, "w");
	fputs("package x;\ninterface IFoo {\n}\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s -o %s %s 2>&1", BC_AIDL_BIN, dir, path);
	p = popen(cmd, "r");
	if (!fgets(got, sizeof(got), p))
		got[0] = '\0';
	cr_assert_neq(pclose(p), 0);
	cr_assert(strstr(got, "IBar.aidl:2:1: error: interface IFoo must be declared in a file named IFoo.aidl"),
		  "got: %s", got);
	unlink(path);
	cr_assert_eq(rmdir(dir), 0);
}

Test(aidl_bad, command_line)
{
	cr_assert_eq(WEXITSTATUS(system(BC_AIDL_BIN " 2>/dev/null")), 2);
	cr_assert_eq(WEXITSTATUS(system(BC_AIDL_BIN " --version 0 x.aidl 2>/dev/null")), 2);
	cr_assert_eq(WEXITSTATUS(system(BC_AIDL_BIN " --bogus x.aidl 2>/dev/null")), 2);
	cr_assert_eq(WEXITSTATUS(system(BC_AIDL_BIN " /nonexistent/IX.aidl 2>/dev/null")), 1);
	cr_assert_eq(WEXITSTATUS(system(BC_AIDL_BIN " --help >/dev/null")), 0);
}

/* An interface using an unstructured parcelable is refused at the
 * parcelable's own declaration: the message names the file to change. */
Test(aidl_bad, unstructured_import)
{
	static const char src[] = "package q;\nimport p.Opaque;\ninterface I {\n    void f(in Opaque o);\n}\n";
	const char *dirs[] = { BAD_DIR "/unstructured" };
	const struct aidl_opts o = { .incdirs = dirs, .n_incdirs = 1 };
	char err[1024] = "";

	cr_assert_neq(aidl_check_buffer(&o, "q/I.aidl", src, sizeof(src) - 1, err, sizeof(err)), 0);
	cr_expect_str_eq(err, BAD_DIR "/unstructured/p/Opaque.aidl:4:1: error: unstructured parcelable Opaque has no C "
				  "form: its wire format is defined by hand-written code in \"aidl/p/Opaque.h\", which "
				  "bc-aidl cannot read; declare it as a structured parcelable with the same fields");
}
