// SPDX-License-Identifier: MIT
/*
 * The pipeline for one input: parse, resolve (loading imports), check,
 * generate.  The setjmp here is where every error lands; the arena is
 * freed on both paths.
 */
#include <string.h>

#include "aidl.h"

static void add_doc(struct aidl_ctx *ctx, struct aidl_doc *doc)
{
	ctx->docs = aidl_alloc(ctx, 8 * sizeof(*ctx->docs));
	ctx->cap_docs = 8;
	ctx->docs[0] = doc;
	ctx->n_docs = 1;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static void check_file_name(struct aidl_ctx *ctx, struct aidl_doc *doc)
{
	const char *b = base_name(doc->path);
	size_t n = strlen(doc->decl->name);

	/* Android's rule: IFoo is declared in IFoo.aidl. */
	if (strncmp(b, doc->decl->name, n) != 0 || strcmp(b + n, ".aidl") != 0)
		aidl_fail(ctx, &doc->decl->loc, "%s %s must be declared in a file named %s.aidl",
			  doc->decl->kind == K_INTERFACE ? "interface"
			  : doc->decl->kind == K_ENUM	 ? "enum"
			  : doc->decl->is_union		 ? "union"
							 : "parcelable",
			  doc->decl->name, doc->decl->name);
}

static int run(const struct aidl_opts *opts, const char *path, const char *src, size_t len, bool generate,
	       char *err, size_t errlen)
{
	struct aidl_ctx ctx = { .opts = opts };
	/* volatile: read after longjmp */
	volatile int rc = -1;

	if (setjmp(ctx.fail) == 0) {
		struct aidl_doc *doc = src ? aidl_parse(&ctx, path, src, len) : aidl_parse_file(&ctx, path, NULL);

		add_doc(&ctx, doc);
		aidl_resolve(&ctx, doc->decl);
		if (generate && !src) /* a buffer has no file name to check */
			check_file_name(&ctx, doc);
		if (generate)
			aidl_generate(&ctx, doc->decl, base_name(path));
		rc = 0;
	}
	if (rc != 0 && err && errlen)
		snprintf(err, errlen, "%s", ctx.err);
	aidl_arena_free(&ctx);
	return rc;
}

int aidl_compile(const struct aidl_opts *opts, const char *path, char *err, size_t errlen)
{
	return run(opts, path, NULL, 0, true, err, errlen);
}

int aidl_check_buffer(const struct aidl_opts *opts, const char *path, const char *src, size_t len, char *err,
		      size_t errlen)
{
	return run(opts, path, src, len, false, err, errlen);
}

int aidl_check_file(const struct aidl_opts *opts, const char *path, char *err, size_t errlen)
{
	return run(opts, path, NULL, 0, false, err, errlen);
}

int aidl_generate_buffer(const struct aidl_opts *opts, const char *path, const char *src, size_t len, char *err,
			 size_t errlen)
{
	return run(opts, path, src, len, true, err, errlen);
}
