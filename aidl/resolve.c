// SPDX-License-Identifier: MIT
/*
 * Type resolution and semantic checks.  Imports and same-package types are
 * found through the -I search path (a.b.C in DIR/a/b/C.aidl), each file
 * parsed once.  The checks are Android's aidl rules that the generated
 * code relies on (directions, oneway, transaction ids, unique names) plus
 * the refusal of every type combination the generator cannot encode yet.
 */
#include <string.h>
#include <unistd.h>

#include "aidl.h"

static void set_cname(struct aidl_ctx *ctx, struct aidl_decl *d)
{
	char *c = aidl_strdup(ctx, d->qname);

	for (char *p = c; *p; p++)
		if (*p == '.')
			*p = '_';
	d->cname = c;
}

static struct aidl_decl *load(struct aidl_ctx *ctx, const char *qname, const struct aidl_loc *loc)
{
	struct aidl_doc *doc = NULL;

	for (size_t i = 0; i < ctx->n_docs; i++)
		if (strcmp(ctx->docs[i]->decl->qname, qname) == 0)
			return ctx->docs[i]->decl;
	for (size_t i = 0; i < ctx->opts->n_incdirs && !doc; i++) {
		char *path = aidl_printf(ctx, "%s/%s.aidl", ctx->opts->incdirs[i], qname);

		for (char *p = path + strlen(ctx->opts->incdirs[i]) + 1; *p; p++)
			if (*p == '.' && strcmp(p, ".aidl") != 0)
				*p = '/';
		if (access(path, R_OK) != 0)
			continue;
		if (++ctx->depth > 64)
			aidl_fail(ctx, loc, "imports nested too deeply");
		doc = aidl_parse_file(ctx, path, loc);
		ctx->depth--;
		if (strcmp(doc->decl->qname, qname) != 0)
			aidl_fail(ctx, &doc->decl->loc, "%s declares %s, but was found as %s", path, doc->decl->qname,
				  qname);
	}
	if (!doc)
		return NULL;
	if (ctx->n_docs == ctx->cap_docs) {
		size_t cap = ctx->cap_docs ? ctx->cap_docs * 2 : 8;
		struct aidl_doc **nd = aidl_alloc(ctx, cap * sizeof(*nd));
		if (ctx->n_docs)
			memcpy(nd, ctx->docs, ctx->n_docs * sizeof(*nd));
		ctx->docs = nd, ctx->cap_docs = cap;
	}
	ctx->docs[ctx->n_docs++] = doc;
	set_cname(ctx, doc->decl);
	return doc->decl;
}

static const char *last_part(const char *q)
{
	const char *s = strrchr(q, '.');
	return s ? s + 1 : q;
}

struct aidl_decl *aidl_root(struct aidl_decl *d)
{
	while (d->parent)
		d = d->parent;
	return d;
}

static bool name_is(const char *name, const char *s, size_t n)
{
	return strlen(name) == n && strncmp(name, s, n) == 0;
}

/* Follow the dotted names of @rest (NULL: none) down @d's nested types. */
static struct aidl_decl *descend(struct aidl_decl *d, const char *rest)
{
	while (d && rest) {
		const char *dot = strchr(rest, '.');
		size_t n = dot ? (size_t)(dot - rest) : strlen(rest);
		struct aidl_decl *found = NULL;

		for (size_t i = 0; i < d->n_nested && !found; i++)
			if (name_is(d->nested[i]->name, rest, n))
				found = d->nested[i];
		d = found;
		rest = dot ? dot + 1 : NULL;
	}
	return d;
}

/* A fully qualified name, maybe of a nested type: a.b.Outer.Inner is
 * looked for as a/b/Outer/Inner.aidl, then Inner inside a/b/Outer.aidl,
 * and so on up (Android's import resolver does the same). */
static struct aidl_decl *find_qualified(struct aidl_ctx *ctx, const char *qname, const struct aidl_loc *loc)
{
	const char *prefix = qname;

	for (;;) {
		struct aidl_decl *d = load(ctx, prefix, loc);
		const char *dot;

		if (d)
			return descend(d, prefix == qname ? NULL : qname + strlen(prefix) + 1);
		dot = strrchr(prefix, '.');
		if (!dot)
			return NULL;
		prefix = aidl_strndup(ctx, qname, (size_t)(dot - prefix));
	}
}

static struct aidl_decl *import_decl(struct aidl_ctx *ctx, struct aidl_import *im)
{
	if (!im->decl)
		im->decl = find_qualified(ctx, im->qname, &im->loc);
	if (!im->decl)
		aidl_fail(ctx, &im->loc, "couldn't find import for class %s (search path: -I)", im->qname);
	return im->decl;
}

/* A simple name at file level: an import, else a type of the package. */
static struct aidl_decl *file_level(struct aidl_ctx *ctx, struct aidl_doc *doc, const char *name,
				    const struct aidl_loc *loc)
{
	for (size_t i = 0; i < doc->n_imports; i++)
		if (strcmp(last_part(doc->imports[i].qname), name) == 0)
			return import_decl(ctx, &doc->imports[i]);
	if (doc->package[0])
		return load(ctx, aidl_printf(ctx, "%s.%s", doc->package, name), loc);
	return load(ctx, name, loc);
}

struct aidl_decl *aidl_lookup(struct aidl_ctx *ctx, struct aidl_decl *scope, const char *name,
			      const struct aidl_loc *loc)
{
	const char *dot = strchr(name, '.');
	size_t n = dot ? (size_t)(dot - name) : strlen(name);
	const char *rest = dot ? dot + 1 : NULL;
	struct aidl_doc *doc = scope->doc;
	struct aidl_decl *d;

	/* Inside a type: itself, its enclosing types and their nested types
	 * by simple name (Inner, or Inner.Deeper). */
	for (struct aidl_decl *s = scope; s; s = s->parent) {
		if (name_is(s->name, name, n))
			return descend(s, rest);
		for (size_t i = 0; i < s->n_nested; i++)
			if (name_is(s->nested[i]->name, name, n))
				return descend(s->nested[i], rest);
	}
	if (!dot)
		return file_level(ctx, doc, name, loc);
	/* Outer.Inner with Outer imported or of the same package... */
	for (size_t i = 0; i < doc->n_imports; i++) {
		struct aidl_import *im = &doc->imports[i];
		if (strcmp(im->qname, name) == 0)
			return import_decl(ctx, im);
		if (name_is(last_part(im->qname), name, n))
			return descend(import_decl(ctx, im), rest);
	}
	d = load(ctx, aidl_printf(ctx, "%s%s%s", doc->package, doc->package[0] ? "." : "", aidl_strndup(ctx, name, n)),
		 loc);
	if (d)
		return descend(d, rest);
	/* ...or a fully qualified a.b.Type (maybe a.b.Outer.Inner). */
	return find_qualified(ctx, name, loc);
}

/* A name the generated C cannot use as it is: a C keyword, or one of the
 * generated functions' own parameters (binder, self). */
static bool reserved_name(const char *name)
{
	static const char *const kw[] = {
		"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
		"extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
		"short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
		"volatile", "while", "bool", "true", "false", "self", "binder", "NULL",
	};

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (strcmp(name, kw[i]) == 0)
			return true;
	return false;
}

/* Type and constant names are refused when C reserves them (they name
 * things other code refers to by the AIDL name). */
static void check_name(struct aidl_ctx *ctx, const struct aidl_loc *loc, const char *name)
{
	if (reserved_name(name))
		aidl_fail(ctx, loc, "'%s' cannot be used as a name: it is reserved in the generated C", name);
	if (name[0] == '_')
		aidl_fail(ctx, loc, "'%s': names starting with '_' are reserved in the generated C", name);
}

/* Methods, parameters and fields get a trailing '_' instead (a parameter
 * named `binder`, a field named `default`): their names are not on the
 * wire, so only the C changes.  A rename that meets another member of
 * that name is then reported as a duplicate. */
static const char *c_member_name(struct aidl_ctx *ctx, const struct aidl_loc *loc, const char *name)
{
	if (name[0] == '_')
		aidl_fail(ctx, loc, "'%s': names starting with '_' are reserved in the generated C", name);
	return reserved_name(name) ? aidl_printf(ctx, "%s_", name) : name;
}

/* Whether TYPE_@name is also a name the generator emits for @d. */
static bool generated_name(const struct aidl_decl *d, const char *name, bool is_const)
{
	static const char *const iface[] = { "DESCRIPTOR", "VERSION", "HASH", "ops", "stub_new", "dispatch" };
	static const char *const parc[] = { "zero",	  "init",	   "clear",	    "write_array",
					    "read_array", "new_array",	   "free_array",    "write_nullable",
					    "read_nullable", "free", "write", "read" };
	const char *const *names = d->kind == K_INTERFACE ? iface : parc;
	size_t n = d->kind == K_INTERFACE ? sizeof(iface) / sizeof(iface[0])
		   : d->kind == K_PARCELABLE ? 12
					     : 2; /* an enum has write and read */
	bool clash = d->kind == K_INTERFACE && is_const && strncmp(name, "CODE_", 5) == 0;

	for (size_t j = 0; j < n && !clash; j++)
		clash = strcmp(name, names[j + (d->kind == K_ENUM ? 10 : 0)]) == 0;
	return clash;
}

/* A member whose C name (TYPE_name) is also one the generator emits. */
static void check_generated_names(struct aidl_ctx *ctx, const struct aidl_decl *d)
{
	for (size_t i = 0; i < d->n_consts + d->n_methods; i++) {
		const char *name = i < d->n_consts ? d->consts[i].name : d->methods[i - d->n_consts].name;
		const struct aidl_loc *loc = i < d->n_consts ? &d->consts[i].loc : &d->methods[i - d->n_consts].loc;

		if (generated_name(d, name, i < d->n_consts))
			aidl_fail(ctx, loc, "'%s' would clash with the generated %s_%s", name, d->cname, name);
		/* TYPE_a__b could be the name of an instantiation (instance.c) */
		if (strstr(name, "__") && !d->union_tag)
			aidl_fail(ctx, loc, "'%s': names containing '__' are reserved in the generated C (generic instantiations)",
				  name);
	}
	/* a nested type's C name is Outer_Inner too ("CODE" would start
	 * Outer_CODE_x, the name of the nested interface's method x) */
	for (size_t i = 0; i < d->n_nested; i++)
		if (generated_name(d, d->nested[i]->name, true) ||
		    (d->kind == K_INTERFACE && strcmp(d->nested[i]->name, "CODE") == 0))
			aidl_fail(ctx, &d->nested[i]->loc, "nested type '%s' would clash with the generated %s_%s",
				  d->nested[i]->name, d->cname, d->nested[i]->name);
}

static const char *type_str(struct aidl_ctx *ctx, const struct aidl_type *t)
{
	if (t->list)
		return aidl_printf(ctx, "List<%s>", t->name);
	return t->array ? aidl_printf(ctx, "%s[]", t->name) : t->name;
}

/* T[EXPR]: an int constant expression in the scope of @d, 1..2^20. */
static void resolve_fixed_size(struct aidl_ctx *ctx, struct aidl_decl *d, struct aidl_type *t)
{
	static const struct aidl_type int_type = { .name = "int", .basic = B_INT };
	struct aidl_value v;

	if (!t->fixed_expr || t->fixed)
		return;
	v = aidl_eval(ctx, d, &int_type, t->fixed_expr);
	if (v.i < 1 || v.i > (1 << 20))
		aidl_fail(ctx, &t->fixed_expr->loc, "the size of a fixed-size array must be 1..1048576 (it is %lld)",
			  (long long)v.i);
	t->fixed = (uint32_t)v.i;
	if (!t->fixed2_expr)
		return;
	v = aidl_eval(ctx, d, &int_type, t->fixed2_expr);
	if (v.i < 1 || v.i > (1 << 20) || (uint64_t)v.i * t->fixed > (1u << 20))
		aidl_fail(ctx, &t->fixed2_expr->loc,
			  "a fixed-size array must have 1..1048576 elements in all (it has %u * %lld)", t->fixed,
			  (long long)v.i);
	t->fixed2 = (uint32_t)v.i;
	if (t->nullable)
		aidl_unsupported(ctx, &t->loc, "@nullable on a multi-dimensional array");
	if (t->basic == B_IBINDER || t->basic == B_FD || t->basic == B_PFD ||
	    (t->basic == B_USER && t->decl && t->decl->kind != K_ENUM))
		aidl_unsupported(ctx, &t->fixed2_expr->loc,
				 "a multi-dimensional array of binders, file descriptors or parcelables");
}

/* @name is a type parameter of @d or of a type enclosing it. */
bool aidl_is_type_param(const struct aidl_decl *d, const char *name)
{
	for (; d; d = d->parent)
		for (size_t i = 0; i < d->n_type_params; i++)
			if (strcmp(d->type_params[i], name) == 0)
				return true;
	return false;
}

/* Does @t (or one of its type arguments) name a type parameter of @d? */
static bool uses_param(const struct aidl_decl *d, const struct aidl_type *t)
{
	if (t->basic == B_USER && !t->decl && aidl_is_type_param(d, t->name))
		return true;
	for (size_t i = 0; i < t->n_targs; i++)
		if (uses_param(d, &t->targs[i]))
			return true;
	return false;
}

/* Foo<A, B>: Android's checks, in its words; then, when Foo's fields use
 * its parameters, the instantiation Foo<A, B> becomes t->decl. */
static void resolve_targs(struct aidl_ctx *ctx, struct aidl_decl *d, struct aidl_type *t)
{
	bool concrete = true;

	if (t->basic != B_USER || t->decl->kind != K_PARCELABLE || !t->decl->n_type_params)
		aidl_fail(ctx, &t->targs_loc, "%s is not a generic type.", t->name);
	if (t->n_targs != t->decl->n_type_params)
		aidl_fail(ctx, &t->targs_loc, "%s must have %zu type parameters, but got %zu", t->name,
			  t->decl->n_type_params, t->n_targs);
	for (size_t i = 0; i < t->n_targs; i++) {
		if (t->targs[i].basic == B_VOID)
			aidl_fail(ctx, &t->targs[i].loc, "void is not a valid type argument");
		aidl_resolve_type(ctx, d, &t->targs[i]);
		concrete &= !uses_param(d, &t->targs[i]);
	}
	/* Q<T> inside a generic P stays Q until P<int> substitutes T */
	if (concrete && aidl_templated(t->decl))
		t->decl = aidl_instantiate(ctx, t);
}

void aidl_resolve_type(struct aidl_ctx *ctx, struct aidl_decl *d, struct aidl_type *t)
{
	/* A type parameter (T t; T[] v;) has no decl: it is substituted in
	 * each instantiation (instance.c).  T<int> is Android's error. */
	if (t->basic == B_USER && !t->decl && aidl_is_type_param(d, t->name)) {
		if (t->n_targs)
			aidl_fail(ctx, &t->targs_loc, "%s is not a generic type.", t->name);
		resolve_fixed_size(ctx, d, t);
		return;
	}
	if (t->basic == B_USER && !t->decl) {
		t->decl = aidl_lookup(ctx, d, t->name, &t->loc);
		if (!t->decl)
			aidl_fail(ctx, &t->loc, "unknown type %s (not declared, imported or found with -I)", t->name);
	}
	/* Android's rule: what a VINTF-stable type uses must be VINTF-stable
	 * too (an interface of another partition could not be relied on) */
	if (t->basic == B_USER && aidl_root(d)->vintf && !aidl_root(t->decl)->vintf && !t->decl->vintf)
		aidl_fail(ctx, &t->loc, "%s is @VintfStability but uses %s, which is not", d->qname, t->decl->qname);
	if (t->n_targs && !(t->decl && t->decl->inst_of)) /* an instance's arguments are done */
		resolve_targs(ctx, d, t);
	resolve_fixed_size(ctx, d, t);
	if (t->nullable && !t->array && t->basic == B_USER && t->decl->kind == K_ENUM)
		aidl_fail(ctx, &t->loc, "@nullable cannot be used on an enum");
	/* ParcelableHolder: a parcelable's field only, in Android's words */
	if (t->basic == B_HOLDER && t->array)
		aidl_fail(ctx, &t->loc, "Arrays of ParcelableHolder are not supported.");
	if (t->basic == B_HOLDER && t->nullable)
		aidl_fail(ctx, &t->loc, "ParcelableHolder cannot be nullable.");
	if (t->list && t->basic == B_USER && t->decl->kind == K_ENUM)
		aidl_fail(ctx, &t->loc, "A generic type cannot have any primitive type parameters.");
	if (t->array && t->basic == B_VOID)
		aidl_fail(ctx, &t->loc, "void[] is not a valid type");
}

static bool only_in(const struct aidl_type *t)
{
	if (t->array || t->basic == B_PFD) /* ParcelFileDescriptor is a parcelable */
		return false;
	return t->basic != B_USER || t->decl->kind != K_PARCELABLE;
}

static void resolve_method(struct aidl_ctx *ctx, struct aidl_decl *d, struct aidl_method *m)
{
	m->name = c_member_name(ctx, &m->loc, m->name);
	aidl_resolve_type(ctx, d, &m->ret);
	if (m->ret.basic == B_HOLDER)
		aidl_fail(ctx, &m->ret.loc, "ParcelableHolder cannot be a return type");
	if ((m->oneway || d->oneway) && (m->ret.basic != B_VOID || m->ret.array))
		aidl_fail(ctx, &m->ret.loc, "oneway method '%s' cannot return a value", m->name);
	for (size_t i = 0; i < m->n_params; i++) {
		struct aidl_param *p = &m->params[i];

		p->name = c_member_name(ctx, &p->loc, p->name);
		for (size_t j = 0; j < i; j++)
			if (strcmp(m->params[j].name, p->name) == 0)
				aidl_fail(ctx, &p->loc, "parameter '%s' is declared twice", p->name);
		if (p->type.basic == B_VOID && !p->type.array)
			aidl_fail(ctx, &p->type.loc, "void is not a valid parameter type");
		aidl_resolve_type(ctx, d, &p->type);
		if (p->type.basic == B_HOLDER)
			aidl_fail(ctx, &p->type.loc, "ParcelableHolder cannot be an argument type");
		if (only_in(&p->type) && (p->dir == D_OUT || p->dir == D_INOUT))
			aidl_fail(ctx, &p->loc, "'%s %s' can only be an in parameter", type_str(ctx, &p->type),
				  p->name);
		if (!only_in(&p->type) && p->dir == D_NONE)
			aidl_fail(ctx, &p->loc, "'%s %s' can be an out type, so you must declare it as in, out or inout",
				  type_str(ctx, &p->type), p->name);
		if ((m->oneway || d->oneway) && (p->dir == D_OUT || p->dir == D_INOUT))
			aidl_fail(ctx, &p->loc, "oneway method '%s' cannot have out parameters", m->name);
		if (p->dir == D_NONE)
			p->dir = D_IN;
	}
}

static void resolve_interface(struct aidl_ctx *ctx, struct aidl_decl *d)
{
	size_t with_id = 0;

	for (size_t i = 0; i < d->n_methods; i++) {
		struct aidl_method *m = &d->methods[i];

		resolve_method(ctx, d, m);
		for (size_t j = 0; j < i; j++)
			if (strcmp(d->methods[j].name, m->name) == 0)
				aidl_fail(ctx, &m->loc, "method '%s' is declared twice (AIDL has no overloading)",
					  m->name);
		if ((ctx->opts->version > 0 && strcmp(m->name, "getInterfaceVersion") == 0) ||
		    (ctx->opts->hash && strcmp(m->name, "getInterfaceHash") == 0))
			aidl_fail(ctx, &m->loc, "'%s' is generated by --version/--hash and cannot be declared", m->name);
		with_id += m->has_id;
	}
	if (with_id && with_id != d->n_methods)
		aidl_fail(ctx, &d->loc, "either all methods must have explicitly assigned transaction IDs or none of them");
	for (size_t i = 0; i < d->n_methods; i++) {
		struct aidl_method *m = &d->methods[i];

		if (!m->has_id)
			m->id = (int64_t)i;
		if (m->id < 0 || m->id > 16777114)
			aidl_fail(ctx, &m->loc, "transaction id %lld of method '%s' is out of range (0..16777114)",
				  (long long)m->id, m->name);
		for (size_t j = 0; j < i; j++)
			if (d->methods[j].id == m->id)
				aidl_fail(ctx, &m->loc, "method '%s' has the same transaction id (%lld) as '%s'", m->name,
					  (long long)m->id, d->methods[j].name);
		m->code = (uint32_t)(1 + m->id);
	}
}

static void resolve_consts(struct aidl_ctx *ctx, struct aidl_decl *d)
{
	for (size_t i = 0; i < d->n_consts; i++) {
		struct aidl_const *c = &d->consts[i];

		if (!d->union_tag) /* U.Tag's are U's field names: C sees them prefixed */
			check_name(ctx, &c->loc, c->name);
		for (size_t j = 0; j < i; j++)
			if (strcmp(d->consts[j].name, c->name) == 0)
				aidl_fail(ctx, &c->loc, "'%s' is declared twice", c->name);
		if (d->kind == K_ENUM)
			continue;
		if (c->type.array || (c->type.basic == B_USER && aidl_is_type_param(d, c->type.name)))
			/* Android's aidl refuses them too, in these words */
			aidl_fail(ctx, &c->type.loc, "Constant of type %s is not supported.", type_str(ctx, &c->type));
		if (c->type.basic == B_USER || c->type.basic == B_HOLDER || c->type.basic == B_IBINDER ||
		    c->type.basic == B_VOID || c->type.basic == B_FD || c->type.basic == B_PFD)
			aidl_unsupported(ctx, &c->type.loc,
					 aidl_printf(ctx, "a constant of type %s", type_str(ctx, &c->type)));
		for (size_t j = 0; j < d->n_methods; j++)
			if (strcmp(d->methods[j].name, c->name) == 0)
				aidl_fail(ctx, &c->loc, "'%s' is both a constant and a method", c->name);
	}
}

static void resolve_parcelable(struct aidl_ctx *ctx, struct aidl_decl *d)
{
	if (d->is_union && d->n_fields == 0)
		aidl_fail(ctx, &d->loc, "union %s has no fields", d->name);
	/* a default on another field than the first is accepted, as
	 * Android's aidl does, and has no effect: a union starts as its
	 * first field, and a field set later gets the value it is set to */
	for (size_t i = 0; d->is_union && i < d->n_consts; i++)
		if (strncmp(d->consts[i].name, "TAG_", 4) == 0)
			aidl_fail(ctx, &d->consts[i].loc, "'%s' would clash with the generated %s_%s", d->consts[i].name,
				  d->cname, d->consts[i].name);
	for (size_t i = 0; i < d->n_fields; i++) {
		struct aidl_field *f = &d->fields[i];

		f->name = c_member_name(ctx, &f->loc, f->name);
		for (size_t j = 0; j < i; j++)
			if (strcmp(d->fields[j].name, f->name) == 0)
				aidl_fail(ctx, &f->loc, "field '%s' is declared twice", f->name);
		for (size_t j = 0; j < d->n_consts; j++)
			if (strcmp(d->consts[j].name, f->name) == 0)
				aidl_fail(ctx, &f->loc, "'%s' is both a field and a constant", f->name);
		if (f->type.basic == B_VOID)
			aidl_fail(ctx, &f->type.loc, "a field cannot be void");
		aidl_resolve_type(ctx, d, &f->type);
		if (f->type.basic == B_USER && !f->type.decl) { /* T t: checked in each instantiation */
			if (f->def) /* its type is known only there */
				aidl_unsupported(ctx, &f->def->loc, "a default value for a field of a type parameter's type");
			continue;
		}
		if (f->type.decl == d && !f->type.array && !f->type.nullable) /* arrays, nullables: pointers */
			aidl_fail(ctx, &f->type.loc, "parcelable %s cannot contain itself", d->name);
		/* {} is the one default an array of parcelables, binders or
		 * fds can have (no constant is of those types): an empty,
		 * non-null array, as for any other array (audio's Range) */
		if (f->def && f->def->op == '{' && f->def->n_elems == 0 && f->type.array)
			continue;
		if (f->def && f->type.array && f->type.basic != B_HOLDER &&
		    (f->type.basic == B_IBINDER || f->type.basic == B_FD || f->type.basic == B_PFD ||
		     (f->type.basic == B_USER && f->type.decl->kind != K_ENUM)))
			aidl_fail(ctx, &f->def->loc, "the default of '%s' (%s) can only be {}: no constant has its element type",
				  f->name, type_str(ctx, &f->type));
		if (f->def && (f->type.basic == B_HOLDER || f->type.basic == B_IBINDER || f->type.basic == B_FD || f->type.basic == B_PFD ||
			       (f->type.basic == B_USER && f->type.decl->kind != K_ENUM)))
			aidl_unsupported(ctx, &f->def->loc,
					 aidl_printf(ctx, "a default value for a field of type %s",
						     type_str(ctx, &f->type)));
	}
}

/* A field type of a @FixedSize parcelable or union (Android's rule: its
 * size is known without reading it; for the Fast Message Queue's
 * backends, the wire format does not change). */
static bool fixed_size_type(const struct aidl_type *t)
{
	if (t->nullable || (t->array && !t->fixed))
		return false;
	switch (t->basic) {
	case B_BOOLEAN: case B_BYTE: case B_CHAR: case B_INT: case B_LONG: case B_FLOAT: case B_DOUBLE:
		return true;
	case B_USER: /* a type parameter: checked in each instantiation */
		return !t->decl || t->decl->kind == K_ENUM || (t->decl->kind == K_PARCELABLE && t->decl->fixed_size);
	default:
		return false;
	}
}

void aidl_check_fixed_size(struct aidl_ctx *ctx, const struct aidl_decl *d)
{
	for (size_t i = 0; d->fixed_size && i < d->n_fields; i++)
		if (!fixed_size_type(&d->fields[i].type))
			aidl_fail(ctx, &d->fields[i].type.loc,
				  "field '%s' of @FixedSize %s is not of a fixed size (%s)", d->fields[i].name, d->name,
				  type_str(ctx, &d->fields[i].type));
}

/* Can @d be reached from @cur through fields held by value (a struct
 * inside a struct)?  Only resolved fields are followed. */
static void find_cycle(struct aidl_ctx *ctx, struct aidl_decl *d, struct aidl_decl *cur, int stamp)
{
	if (cur->visit == stamp)
		return;
	cur->visit = stamp;
	for (size_t i = 0; i < cur->n_fields; i++) {
		struct aidl_type *t = &cur->fields[i].type;

		if (t->basic != B_USER || !t->decl || t->decl->kind != K_PARCELABLE || t->array || t->nullable)
			continue;
		if (t->decl == d)
			aidl_fail(ctx, &t->loc, "parcelable %s cannot contain itself (field '%s' of %s holds it by value)",
				  d->name, cur->fields[i].name, cur->qname);
		find_cycle(ctx, d, t->decl, stamp);
	}
}

/* Nested types make value cycles easy to write (Outer holds Inner holds
 * Outer); C structs cannot contain themselves, so refuse them here. */
static void check_cycles(struct aidl_ctx *ctx, struct aidl_decl *d)
{
	static int stamp;

	if (d->kind == K_PARCELABLE)
		find_cycle(ctx, d, d, ++stamp);
	for (size_t i = 0; i < d->n_nested; i++)
		check_cycles(ctx, d->nested[i]);
}

void aidl_resolve(struct aidl_ctx *ctx, struct aidl_decl *d)
{
	if (d->resolved)
		return;
	d->resolved = 1;
	check_name(ctx, &d->loc, d->name);
	set_cname(ctx, d);
	/* "__" joins an instantiation's name (instance.c): no type has it */
	if (strstr(d->cname, "__") || d->cname[strlen(d->cname) - 1] == '_')
		aidl_fail(ctx, &d->loc, "'%s': a type's C name (%s) may not contain '__' or end in '_' (reserved for generic instantiations)",
			  d->name, d->cname);
	for (size_t i = 0; i < d->doc->n_imports; i++) {
		struct aidl_import *im = &d->doc->imports[i];
		if (strcmp(im->qname, "android.os.ParcelFileDescriptor") == 0)
			continue; /* built in */
		import_decl(ctx, im);
	}
	if (d->n_type_params && d->n_nested) /* Android's rule, in its words */
		aidl_fail(ctx, &d->loc, "Generic types can't have nested types.");
	resolve_consts(ctx, d);
	check_generated_names(ctx, d);
	if (d->kind == K_INTERFACE)
		resolve_interface(ctx, d);
	else if (d->kind == K_PARCELABLE)
		{
		resolve_parcelable(ctx, d);
		aidl_check_fixed_size(ctx, d);
	}
	/* Nested types before the constants: Outer's may use Inner's. */
	for (size_t i = 0; i < d->n_nested; i++) {
		struct aidl_decl *n = d->nested[i];

		/* Outer_Inner is both a member's C name and the nested type's */
		for (size_t j = 0; j < d->n_consts + d->n_methods; j++) {
			const char *m = j < d->n_consts ? d->consts[j].name : d->methods[j - d->n_consts].name;

			if (strcmp(m, n->name) == 0)
				aidl_fail(ctx, &n->loc, "nested type '%s' would clash with the generated %s_%s", n->name,
					  d->cname, m);
		}
		aidl_resolve(ctx, n);
	}
	aidl_eval_decl(ctx, d);
	d->resolved = 2;
	if (!d->parent)
		check_cycles(ctx, d);
}
