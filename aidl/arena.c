// SPDX-License-Identifier: MIT
/*
 * The compilation's arena and its error exit.  A compilation is short and
 * its AST lives until the end, so every allocation goes into one list of
 * blocks freed together; an error formats its message and jumps back to
 * aidl_compile(), which frees the arena.  Nothing leaks on any path.
 */
#include <stdlib.h>
#include <string.h>

#include "aidl.h"

struct aidl_block {
	struct aidl_block *next;
	max_align_t data[];
};

void *aidl_alloc(struct aidl_ctx *ctx, size_t size)
{
	struct aidl_block *b;

	if (size > SIZE_MAX / 2)
		aidl_fail(ctx, NULL, "out of memory");
	b = calloc(1, sizeof(*b) + size);
	if (!b)
		aidl_fail(ctx, NULL, "out of memory");
	b->next = ctx->arena;
	ctx->arena = b;
	return b->data;
}

char *aidl_strndup(struct aidl_ctx *ctx, const char *s, size_t n)
{
	char *d = aidl_alloc(ctx, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *aidl_strdup(struct aidl_ctx *ctx, const char *s)
{
	return aidl_strndup(ctx, s, strlen(s));
}

char *aidl_printf(struct aidl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		aidl_fail(ctx, NULL, "cannot format a string");
	s = aidl_alloc(ctx, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void aidl_fail(struct aidl_ctx *ctx, const struct aidl_loc *loc, const char *fmt, ...)
{
	va_list ap;
	size_t n = 0;

	if (loc && loc->file)
		n = (size_t)snprintf(ctx->err, sizeof(ctx->err), "%s:%d:%d: error: ", loc->file, loc->line,
				     loc->col);
	else
		n = (size_t)snprintf(ctx->err, sizeof(ctx->err), "bc-aidl: error: ");
	if (n < sizeof(ctx->err)) {
		va_start(ap, fmt);
		vsnprintf(ctx->err + n, sizeof(ctx->err) - n, fmt, ap);
		va_end(ap);
	}
	/* One line, whatever the input's string literals quoted in the
	 * message hold (a newline would split the error in two). */
	for (char *c = ctx->err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	longjmp(ctx->fail, 1);
}

void aidl_unsupported(struct aidl_ctx *ctx, const struct aidl_loc *loc, const char *what)
{
	aidl_fail(ctx, loc, "%s is not supported yet", what);
}

/* Free every block (called by the driver after success or failure). */
void aidl_arena_free(struct aidl_ctx *ctx)
{
	while (ctx->arena) {
		struct aidl_block *b = ctx->arena;
		ctx->arena = b->next;
		free(b);
	}
}
