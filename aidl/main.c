// SPDX-License-Identifier: MIT
/*
 * bc-aidl: compile AIDL files into C on libbinder-c.
 *
 *   bc-aidl [-I DIR]... [-o OUTDIR] [--version N] [--hash H] FILE.aidl...
 *
 * For each FILE declaring package.Name it writes OUTDIR/package_Name.h
 * and OUTDIR/package_Name.c.  Imports (and same-package types) are found
 * in the -I directories as DIR/package/path/Name.aidl.  Exit status 0, or
 * 1 after printing "file:line:col: error: message" for the first error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aidl.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: bc-aidl [-I DIR]... [-o OUTDIR] [--version N] [--hash HASH] FILE.aidl...\n"
		   "Compile AIDL interfaces, parcelables and enums into C for libbinder-c.\n");
}

int main(int argc, char **argv)
{
	struct aidl_opts o = { 0 };
	const char **inc = calloc((size_t)argc + 1, sizeof(*inc));
	const char **files = calloc((size_t)argc + 1, sizeof(*files));
	size_t n_files = 0;
	char err[1024];
	int rc = 0;

	if (!inc || !files) {
		fprintf(stderr, "bc-aidl: out of memory\n");
		return 1;
	}
	o.incdirs = inc;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			free(inc), free(files);
			return 0;
		}
		if (!strncmp(a, "-I", 2) || !strcmp(a, "-o") || !strcmp(a, "--version") || !strcmp(a, "--hash")) {
			if (!strncmp(a, "-I", 2) && a[2])
				val = a + 2;
			else if (i + 1 < argc)
				val = argv[++i];
			if (!val) {
				fprintf(stderr, "bc-aidl: %s needs a value\n", a);
				free(inc), free(files);
				return 2;
			}
			if (!strncmp(a, "-I", 2)) {
				inc[o.n_incdirs++] = val;
			} else if (!strcmp(a, "-o")) {
				o.outdir = val;
			} else if (!strcmp(a, "--version")) {
				char *end;
				long v;
				errno = 0;
				v = strtol(val, &end, 10);
				if (errno || *end || v < 1 || v > INT32_MAX) {
					fprintf(stderr, "bc-aidl: --version wants a positive integer\n");
					free(inc), free(files);
					return 2;
				}
				o.version = (int)v;
			} else {
				for (const char *p = val; *p; p++)
					if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\') {
						fprintf(stderr, "bc-aidl: --hash wants printable ASCII\n");
						free(inc), free(files);
						return 2;
					}
				o.hash = val;
			}
			continue;
		}
		if (a[0] == '-' && a[1]) {
			fprintf(stderr, "bc-aidl: unknown option %s\n", a);
			usage(stderr);
			free(inc), free(files);
			return 2;
		}
		files[n_files++] = a;
	}
	if (!n_files) {
		usage(stderr);
		free(inc), free(files);
		return 2;
	}
	for (size_t i = 0; i < n_files; i++) {
		if (aidl_compile(&o, files[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "%s\n", err);
			rc = 1;
		}
	}
	free(inc), free(files);
	return rc;
}
