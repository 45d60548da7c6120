// SPDX-License-Identifier: MIT
/*
 * Instantiations of generic parcelables whose fields use their type
 * parameters (parcelable P<T, U> { T value; T[] list; U other; }).
 *
 * Android's C++/NDK backends make P a template; the wire of P<int, String>
 * is P's fields in order, each written as its concrete type.  C has no
 * templates, so each distinct P<A, B> becomes a parcelable of its own: a
 * copy of P whose fields have T and U replaced by A and B, resolved and
 * checked like any field, named P's C name + "__" + one token per argument
 * (a_b_P__int__String, a_b_P__a_b_Q__IBinder; an argument that is itself
 * such an instantiation is its whole name).  Type C names may not contain
 * "__" nor end in "_", and member names may not contain "__" (resolve.c),
 * so such a name never equals another generated one; with P's arity fixed
 * the tokens read back unambiguously.  The generator writes an instance
 * into every file that uses it (gen_header.c says how they stay single).
 */
#include <string.h>

#include "aidl.h"

static const char *const basic_names[] = {
	[B_BOOLEAN] = "boolean", [B_BYTE] = "byte", [B_CHAR] = "char", [B_INT] = "int", [B_LONG] = "long",
	[B_FLOAT] = "float", [B_DOUBLE] = "double", [B_STRING] = "String", [B_IBINDER] = "IBinder",
	[B_FD] = "FileDescriptor", [B_PFD] = "ParcelFileDescriptor",
};

/* Does @t name a type parameter of @g (before substitution)? */
static bool is_param(const struct aidl_decl *g, const struct aidl_type *t)
{
	return t->basic == B_USER && !t->decl && aidl_is_type_param(g, t->name);
}

static bool uses_param(const struct aidl_decl *g, const struct aidl_type *t)
{
	if (is_param(g, t))
		return true;
	for (size_t i = 0; i < t->n_targs; i++)
		if (uses_param(g, &t->targs[i]))
			return true;
	return false;
}

bool aidl_templated(const struct aidl_decl *d)
{
	if (d->kind != K_PARCELABLE || !d->n_type_params || d->inst_of)
		return false;
	for (size_t i = 0; i < d->n_fields; i++)
		if (uses_param(d, &d->fields[i].type))
			return true;
	return false;
}

/* An argument's part of the instance's C name, and of its AIDL name. */
static const char *token(struct aidl_ctx *ctx, const struct aidl_type *a, bool c)
{
	/* an array or @nullable argument would need more than a name to
	 * keep instance names apart; not needed by any HAL yet */
	if (a->array || a->nullable)
		aidl_unsupported(ctx, &a->loc, "an array or @nullable type argument of a generic parcelable whose fields use its parameters");
	if (a->basic == B_USER)
		return c ? a->decl->cname : a->decl->qname;
	if (a->basic >= sizeof(basic_names) / sizeof(basic_names[0]) || !basic_names[a->basic])
		aidl_unsupported(ctx, &a->loc, aidl_printf(ctx, "%s as the type argument of a generic parcelable whose fields use its parameters", a->name));
	return basic_names[a->basic];
}

/* @ft, a field type of @g, with @g's parameters replaced by @t's
 * arguments (the copy shares nothing it would change with @ft). */
static struct aidl_type subst(struct aidl_ctx *ctx, const struct aidl_decl *g, const struct aidl_type *ft,
			      const struct aidl_type *t)
{
	struct aidl_type r = *ft;

	if (is_param(g, ft)) {
		size_t i = 0;

		while (strcmp(g->type_params[i], ft->name) != 0)
			i++;
		r = t->targs[i]; /* a plain type: token() refused the rest */
		r.loc = ft->loc;
		r.array = ft->array;
		r.list = ft->list;
		r.fixed = ft->fixed, r.fixed_expr = ft->fixed_expr;
		r.fixed2 = ft->fixed2, r.fixed2_expr = ft->fixed2_expr;
		r.nullable = ft->nullable;
		r.utf8 |= ft->utf8;
		return r;
	}
	if (ft->n_targs && uses_param(g, ft)) { /* Q<T>: becomes Q<A> */
		r.targs = aidl_alloc(ctx, ft->n_targs * sizeof(*r.targs));
		for (size_t i = 0; i < ft->n_targs; i++)
			r.targs[i] = subst(ctx, g, &ft->targs[i], t);
	}
	return r;
}

/* The rules the substituted field must keep that resolve checks only
 * when it first meets a type (Android's words where it has them). */
static void check_field(struct aidl_ctx *ctx, const struct aidl_decl *inst, const struct aidl_field *f)
{
	const struct aidl_type *t = &f->type;

	if (t->nullable && !t->array && t->basic >= B_BOOLEAN && t->basic <= B_DOUBLE)
		aidl_fail(ctx, &t->loc, "Primitive type cannot get nullable annotation");
	if (t->fixed2 && (t->basic == B_IBINDER || t->basic == B_FD || t->basic == B_PFD ||
			  (t->basic == B_USER && t->decl->kind != K_ENUM)))
		aidl_unsupported(ctx, &t->loc, "a multi-dimensional array of binders, file descriptors or parcelables");
	if (t->basic == B_USER && t->decl == inst && !t->array && !t->nullable)
		aidl_fail(ctx, &t->loc, "parcelable %s cannot contain itself", inst->qname);
}

static void remember(struct aidl_ctx *ctx, struct aidl_decl *inst)
{
	if (ctx->n_insts == ctx->cap_insts) {
		size_t cap = ctx->cap_insts ? ctx->cap_insts * 2 : 8;
		struct aidl_decl **n = aidl_alloc(ctx, cap * sizeof(*n));

		if (ctx->n_insts)
			memcpy(n, ctx->insts, ctx->n_insts * sizeof(*n));
		ctx->insts = n, ctx->cap_insts = cap;
	}
	ctx->insts[ctx->n_insts++] = inst;
}

struct aidl_decl *aidl_instantiate(struct aidl_ctx *ctx, struct aidl_type *t)
{
	struct aidl_decl *g = t->decl, *inst;
	const char *cname = g->cname, *qname;

	if (!g->resolved)
		aidl_resolve(ctx, g); /* an imported generic: its own fields first */
	if (g->resolved != 2)
		aidl_unsupported(ctx, &t->loc, "a generic parcelable whose fields use its parameters, instantiated in its own declaration");
	qname = aidl_printf(ctx, "%s<", g->qname);
	for (size_t i = 0; i < t->n_targs; i++) {
		cname = aidl_printf(ctx, "%s__%s", cname, token(ctx, &t->targs[i], true));
		qname = aidl_printf(ctx, "%s%s%s", qname, i ? ", " : "", token(ctx, &t->targs[i], false));
	}
	for (size_t i = 0; i < ctx->n_insts; i++)
		if (strcmp(ctx->insts[i]->cname, cname) == 0)
			return ctx->insts[i];
	inst = aidl_alloc(ctx, sizeof(*inst));
	*inst = *g;
	inst->cname = cname;
	inst->qname = aidl_printf(ctx, "%s>", qname);
	inst->inst_of = g;
	inst->type_params = NULL, inst->n_type_params = 0;
	inst->consts = NULL, inst->n_consts = 0; /* P's own: in P's header */
	inst->visit = 0;
	inst->fields = aidl_alloc(ctx, (g->n_fields ? g->n_fields : 1) * sizeof(*inst->fields));
	remember(ctx, inst); /* before the fields: P<T> { P<T>[] more; } */
	for (size_t i = 0; i < g->n_fields; i++) {
		struct aidl_field *f = &inst->fields[i];

		*f = g->fields[i];
		if (!uses_param(g, &f->type))
			continue;
		f->type = subst(ctx, g, &g->fields[i].type, t);
		aidl_resolve_type(ctx, g, &f->type);
		check_field(ctx, inst, f);
	}
	aidl_check_fixed_size(ctx, inst);
	return inst;
}
