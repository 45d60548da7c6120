// SPDX-License-Identifier: MIT
/*
 * The generated header: for an enum its typedef, enumerators and
 * read/write functions; for a parcelable its struct, constants and
 * init/clear/read/write functions; for an interface its descriptor,
 * constants, transaction codes, typed proxy functions, the table of C
 * function pointers a service fills in, and the stub constructor.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"

static void include_type(struct gen *g, const struct aidl_type *t, const char **seen, size_t *n)
{
	const struct aidl_decl *u = t->basic == B_USER ? t->decl : NULL;

	if (!u || u->kind == K_INTERFACE)
		return;
	/* An instantiation's struct is in the header of each user; its
	 * generic's (constants, includes) is included. */
	if (u->inst_of)
		u = u->inst_of;
	/* A nested type is declared in the header of its outermost type. */
	u = aidl_root((struct aidl_decl *)u);
	if (u == g->root)
		return;
	for (size_t s = 0; s < *n; s++)
		if (strcmp(seen[s], u->cname) == 0)
			return;
	seen[(*n)++] = u->cname;
	fprintf(g->h, "#include \"%s.h\"\n", u->cname);
}

static void includes(struct gen *g)
{
	size_t total = 1, n = 0;
	const char **seen;

	for (size_t k = 0; k < g->n_all; k++) {
		total += g->all[k]->n_fields;
		for (size_t i = 0; i < g->all[k]->n_methods; i++)
			total += 1 + g->all[k]->methods[i].n_params;
	}
	seen = aidl_alloc(g->ctx, total * sizeof(*seen));
	fprintf(g->h, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n#include <binderc/binderc.h>\n");
	/* Every enum and parcelable named by a field, parameter or return. */
	for (size_t k = 0; k < g->n_all; k++) {
		const struct aidl_decl *d = g->all[k];

		for (size_t i = 0; i < d->n_fields; i++)
			include_type(g, &d->fields[i].type, seen, &n);
		for (size_t i = 0; i < d->n_methods; i++) {
			include_type(g, &d->methods[i].ret, seen, &n);
			for (size_t j = 0; j < d->methods[i].n_params; j++)
				include_type(g, &d->methods[i].params[j].type, seen, &n);
		}
	}
	fprintf(g->h, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
}

static void consts(struct gen *g)
{
	const struct aidl_decl *d = g->d;

	if (d->kind == K_ENUM || !d->n_consts)
		return;
	fprintf(g->h, "/* Constants. */\n");
	for (size_t i = 0; i < d->n_consts; i++)
		fprintf(g->h, "#define %s_%s %s\n", d->cname, d->consts[i].name,
			gen_literal(g->ctx, &d->consts[i].type, &d->consts[i].val));
	fprintf(g->h, "\n");
}

static void header_enum(struct gen *g)
{
	const struct aidl_decl *d = g->d;
	const char *bt = d->backing == B_BYTE ? "int8_t" : d->backing == B_INT ? "int32_t" : "int64_t";
	struct aidl_type self = { .basic = B_USER, .decl = (struct aidl_decl *)d };

	fprintf(g->h, "/* enum %s, backed by %s: written as that type. */\ntypedef %s %s;\n\n", d->qname,
		d->backing == B_BYTE ? "byte" : d->backing == B_INT ? "int" : "long", bt, d->cname);
	for (size_t i = 0; i < d->n_consts; i++)
		fprintf(g->h, "#define %s_%s %s\n", d->cname, d->consts[i].name,
			gen_literal(g->ctx, &self, &d->consts[i].val));
	fprintf(g->h, "\nint %s_write(bc_parcel *p, %s v);\nint %s_read(bc_parcel *p, %s *ret);\n", d->cname, d->cname,
		d->cname, d->cname);
}

static void header_parcelable(struct gen *g)
{
	const struct aidl_decl *d = g->d;

	if (d->is_union)
		fprintf(g->h, "/* union %s: _tag (a %s_TAG_ value) says which member holds the\n"
			      " * value; only that one is written.  The others stay as _init() set them. */\n"
			      "typedef struct %s {\n\tint32_t _tag;\n",
			d->qname, d->cname, d->cname);
	else
		fprintf(g->h, "/* parcelable %s */\ntypedef struct %s {\n", d->qname, d->cname);
	for (size_t i = 0; i < d->n_fields; i++) {
		const struct aidl_field *f = &d->fields[i];
		struct gtype gt = gen_type(&f->type);

		gen_emit(g->ctx, g->h, "\t", &gt, gt.row->member, (struct gvars){ .V = f->name });
		if (gt.row->flags & GK_LEN)
			fprintf(g->h, "\tsize_t %s_len;\n", f->name);
	}
	if (!d->n_fields)
		fprintf(g->h, "\tchar _unused; /* C wants a member */\n");
	fprintf(g->h, "} %s;\n\n", d->cname);
	for (size_t i = 0; d->is_union && i < d->n_fields; i++)
		fprintf(g->h, "#define %s_TAG_%s %zu\n", d->cname, d->fields[i].name, i);
	if (d->is_union)
		fprintf(g->h, "\n");
	consts(g);
	fprintf(g->h,
		"/* The empty state, allocating nothing (fds -1): what _clear() leaves. */\n"
		"void %s_zero(%s *v);\n"
		"/* Set the declared defaults (strings are malloc'd copies): 0 or -ENOMEM. */\n"
		"int %s_init(%s *v);\n"
		"/* Free what the value owns (strings, arrays, binder references) and zero it. */\n"
		"void %s_clear(%s *v);\n"
		"/* Write the body (a parcelable: int32 size, then the fields; a union:\n"
		" * int32 tag, then that field); the int32 1 that precedes a parcelable\n"
		" * argument or field is written by the caller. */\n"
		"int %s_write(bc_parcel *p, const %s *v);\n"
		"/* Read a body into @v (initialised here; cleared on failure).  Fields a\n"
		" * shorter (older) parcelable body lacks keep their defaults; extra ones\n"
		" * are skipped; a union tag this version does not know is -EBADMSG. */\n"
		"int %s_read(bc_parcel *p, %s *v);\n"
		"/* Arrays: int32 count, then each element as int32 1 + body. */\n"
		"int %s_write_array(bc_parcel *p, const %s *v, size_t n);\n"
		"/* Read an array (newly allocated; free with _free_array()). */\n"
		"int %s_read_array(bc_parcel *p, %s **ret, size_t *ret_n);\n"
		"/* n elements set to their defaults (what a stub gives an out array). */\n"
		"int %s_new_array(size_t n, %s **ret);\n"
		"/* Clear every element, free the array. */\n"
		"void %s_free_array(%s *v, size_t n);\n"
		"/* @nullable values: int32 0 for NULL, else int32 1 + body; reading\n"
		" * gives NULL or a malloc'd value that _free() clears and frees. */\n"
		"int %s_write_nullable(bc_parcel *p, const %s *v);\n"
		"int %s_read_nullable(bc_parcel *p, %s **ret);\n"
		"void %s_free(%s *v);\n"
		"/* @nullable arrays: NULL for null (int32 -1), else int32 count and each\n"
		" * element as a @nullable value (a NULL pointer is a null element). */\n"
		"int %s_write_nullable_array(bc_parcel *p, const %s *const *v, size_t n);\n"
		"int %s_read_nullable_array(bc_parcel *p, %s ***ret, size_t *ret_n);\n"
		"void %s_free_nullable_array(%s **v, size_t n);\n",
		d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname,
		d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname,
		d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname, d->cname);
}

/* A generic parcelable whose fields use its parameters has no C of its
 * own: each P<A, B> is a struct in the headers that use it. */
static void header_template(struct gen *g)
{
	fprintf(g->h, "/* parcelable %s<%s", g->d->qname, g->d->type_params[0]);
	for (size_t i = 1; i < g->d->n_type_params; i++)
		fprintf(g->h, ", %s", g->d->type_params[i]);
	fprintf(g->h, ">: its fields use its type parameters, so each use P<A, ...> is\n"
		      " * a parcelable of its own, %s__A__..., in the header of every file\n"
		      " * using it (see bc-aidl's README). */\n\n", g->d->cname);
	consts(g);
}

/* Guarded by its own name: the same instantiation in several headers of
 * one source is declared once. */
static void header_instance(struct gen *g)
{
	fprintf(g->h, "#ifndef BCAIDL_INST_%s\n#define BCAIDL_INST_%s\n", g->d->cname, g->d->cname);
	header_parcelable(g);
	fprintf(g->h, "#endif\n");
}

/* The C parameter list of a method after the first parameter. */
const char *gen_method_params(struct aidl_ctx *ctx, const struct aidl_method *m);
const char *gen_method_params(struct aidl_ctx *ctx, const struct aidl_method *m)
{
	const char *s = "";
	const char *ret = gen_ret_param(ctx, &m->ret);

	for (size_t i = 0; i < m->n_params; i++)
		s = aidl_printf(ctx, "%s, %s", s, gen_param(ctx, &m->params[i].type, m->params[i].dir, m->params[i].name));
	if (ret)
		s = aidl_printf(ctx, "%s, %s", s, ret);
	return s;
}

static void header_interface(struct gen *g)
{
	const struct aidl_decl *d = g->d;
	const struct aidl_opts *o = g->ctx->opts;

	/* @Descriptor(value=...) names the interface on the wire instead */
	fprintf(g->h, "/* interface %s%s%s */\n#define %s_DESCRIPTOR \"%s\"\n", d->oneway ? "(oneway) " : "",
		d->vintf ? "(@VintfStability: its stubs are VINTF-stable) " : "", d->qname, d->cname, d->descriptor);
	if (o->version > 0)
		fprintf(g->h, "#define %s_VERSION %d\n", d->cname, o->version);
	if (o->hash)
		fprintf(g->h, "#define %s_HASH \"%s\"\n", d->cname, o->hash);
	fprintf(g->h, "\n");
	consts(g);
	fprintf(g->h, "/* Transaction codes (FIRST_CALL_TRANSACTION + id). */\n");
	for (size_t i = 0; i < d->n_methods; i++)
		fprintf(g->h, "#define %s_CODE_%s %uu\n", d->cname, d->methods[i].name, d->methods[i].code);
	if (o->version > 0)
		fprintf(g->h, "#define %s_CODE_getInterfaceVersion 16777215u\n", d->cname);
	if (o->hash)
		fprintf(g->h, "#define %s_CODE_getInterfaceHash 16777214u\n", d->cname);
	fprintf(g->h,
		"\n/*\n * Proxy: call a method of the object @binder (a proxy or a local stub).\n"
		" * Returns 0 (outputs set), a positive service-specific error, -EREMOTEIO\n"
		" * for any other AIDL exception, or a negative errno (transport, or\n"
		" * -EINVAL for a NULL where AIDL wants a value, -EBADMSG for a malformed\n"
		" * reply).  Outputs are malloc'd / new references / owned fds / structs\n"
		" * that the caller frees; inout arrays and parcelables are replaced (the\n"
		" * old value freed).  _ret may be NULL to drop the return value.  For an\n"
		" * out array, *NAME_len on entry is the length asked for (the request\n"
		" * carries it, as Android sends the caller's array length); an out T[N]\n"
		" * sends nothing (*NAME_len on entry is ignored) and comes back with\n"
		" * exactly N elements; an inout T[N] must hold N (else -EINVAL).\n"
		" * One-way methods return the send status.\n */\n");
	for (size_t i = 0; i < d->n_methods; i++)
		fprintf(g->h, "int %s_%s(bc_binder *binder%s);\n", d->cname, d->methods[i].name,
			gen_method_params(g->ctx, &d->methods[i]));
	if (o->version > 0)
		fprintf(g->h, "int %s_getInterfaceVersion(bc_binder *binder, int32_t *_ret);\n", d->cname);
	if (o->hash)
		fprintf(g->h, "int %s_getInterfaceHash(bc_binder *binder, char **_ret);\n", d->cname);
	fprintf(g->h,
		"\n/*\n * Service: the implementation's functions, same parameters as the proxy\n"
		" * with @self first.  Return 0 with the outputs set (the stub frees them\n"
		" * after writing the reply), a positive service-specific error, or a\n"
		" * negative errno sent back as the transaction status.  Inputs are\n"
		" * borrowed for the call.  A NULL function answers UNKNOWN_TRANSACTION.\n */\n"
		"struct %s_ops {\n",
		d->cname);
	for (size_t i = 0; i < d->n_methods; i++)
		fprintf(g->h, "\tint (*%s)(void *self%s);\n", d->methods[i].name, gen_method_params(g->ctx, &d->methods[i]));
	if (!d->n_methods)
		fprintf(g->h, "\tchar _unused; /* C wants a member */\n");
	fprintf(g->h,
		"};\n\n"
		"/* A local object serving @ops with @self; @on_destroy(@self) runs when it\n"
		" * dies (may be NULL).  The descriptor is enforced on every call. */\n"
		"int %s_stub_new(const struct %s_ops *ops, void *self, bc_destroy_fn on_destroy, bc_binder **ret);\n"
		"/* Decode and serve one call (for a hand-made bc_class): the request @in is\n"
		" * positioned after the interface token. */\n"
		"int %s_dispatch(const struct %s_ops *ops, void *self, uint32_t code, bc_parcel *in, bc_parcel *reply);\n",
		d->cname, d->cname, d->cname, d->cname);
}

/* The C of ParcelableHolder, in every header with such a field (guarded:
 * one definition however many headers a source includes). */
static void holder_type(struct gen *g)
{
	bool any = false;

	for (size_t k = 0; k < g->n_all; k++)
		for (size_t i = 0; i < g->all[k]->n_fields; i++)
			any |= g->all[k]->fields[i].type.basic == B_HOLDER;
	if (!any)
		return;
	fprintf(g->h, "#ifndef BCAIDL_PARCELABLE_HOLDER\n#define BCAIDL_PARCELABLE_HOLDER\n"
		      "/* ParcelableHolder: the extension as the raw bytes Android carries\n"
		      " * (a String16 descriptor, then the parcelable's body; 4-aligned length,\n"
		      " * no binders or fds).  data NULL (or len 0): empty.  Owned: _clear()\n"
		      " * frees data (malloc'd). */\n"
		      "typedef struct bcaidl_parcelable_holder {\n\tvoid *data;\n\tsize_t len;\n"
		      "} bcaidl_parcelable_holder;\n#endif\n\n");
}

void gen_header(struct gen *g, const char *srcname)
{
	char *guard = aidl_printf(g->ctx, "BCAIDL_%s_H", g->d->cname);

	for (char *p = guard; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	fprintf(g->h, "/* Generated by bc-aidl from %s.  Do not edit. */\n#ifndef %s\n#define %s\n\n", srcname, guard,
		guard);
	includes(g);
	holder_type(g);
	gen_inst_typedefs(g);
	for (size_t k = 0; k < g->n_all; k++) {
		g->d = g->all[k];
		if (k)
			fprintf(g->h, "\n");
		switch (g->d->kind) {
		case K_ENUM:
			header_enum(g);
			break;
		case K_PARCELABLE:
			if (aidl_templated(g->d))
				header_template(g);
			else if (g->d->inst_of)
				header_instance(g);
			else
				header_parcelable(g);
			break;
		case K_INTERFACE:
			header_interface(g);
			break;
		}
	}
	fprintf(g->h, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
}

/* Write to NAME.tmp and rename, so a failed run leaves no half file. */
static FILE *open_out(struct aidl_ctx *ctx, const char *path)
{
	FILE *f = fopen(aidl_printf(ctx, "%s.tmp", path), "w");

	if (!f)
		aidl_fail(ctx, NULL, "cannot create %s.tmp: %s", path, strerror(errno));
	return f;
}

static void close_out(struct aidl_ctx *ctx, FILE *f, const char *path)
{
	const char *tmp = aidl_printf(ctx, "%s.tmp", path);
	bool bad = ferror(f) != 0;

	if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
		unlink(tmp);
		aidl_fail(ctx, NULL, "cannot write %s", path);
	}
}

static size_t count_types(const struct aidl_decl *d)
{
	size_t n = 1;

	for (size_t i = 0; i < d->n_nested; i++)
		n += count_types(d->nested[i]);
	return n;
}

void aidl_generate(struct aidl_ctx *ctx, struct aidl_decl *d, const char *srcname)
{
	const char *dir = ctx->opts->outdir ? ctx->opts->outdir : ".";
	const char *hp = aidl_printf(ctx, "%s/%s.h", dir, d->cname);
	const char *cp = aidl_printf(ctx, "%s/%s.c", dir, d->cname);
	struct gen g = { .ctx = ctx, .d = d, .root = d };

	g.all = aidl_alloc(ctx, (count_types(d) + ctx->n_insts) * sizeof(*g.all));
	gen_place(&g, d);
	g.h = open_out(ctx, hp);
	gen_header(&g, srcname);
	close_out(ctx, g.h, hp);
	g.h = NULL;
	g.c = open_out(ctx, cp);
	fprintf(g.c,
		"/* Generated by bc-aidl from %s.  Do not edit. */\n"
		"#if !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE)\n"
		"#define _POSIX_C_SOURCE 200809L /* F_DUPFD_CLOEXEC */\n#endif\n#include <errno.h>\n#include <fcntl.h>\n"
		"#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n\n#include \"%s.h\"\n\n",
		srcname, d->cname);
	gen_helpers(g.c);
	gen_inst_weak(&g);
	for (size_t k = 0; k < g.n_all; k++) {
		g.d = g.all[k];
		if (k)
			fprintf(g.c, "\n");
		switch (g.d->kind) {
		case K_ENUM:
			gen_source_enum(&g);
			break;
		case K_PARCELABLE:
			if (!aidl_templated(g.d))
				gen_source_parcelable(&g);
			break;
		case K_INTERFACE:
			gen_source_interface(&g);
			break;
		}
	}
	close_out(ctx, g.c, cp);
}
