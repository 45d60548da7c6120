// SPDX-License-Identifier: MIT
/*
 * The AIDL parser: one document (package, imports, one type) into the AST
 * of aidl.h.  Recursive descent with one token of look-ahead.  Every
 * construct of the AIDL language that the generator does not implement
 * yet is recognised here and refused by name at its position, so it can
 * never be half-parsed into something that compiles to the wrong wire
 * layout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aidl.h"

struct parser {
	struct aidl_ctx *ctx;
	struct aidl_lexer lx;
	struct aidl_token t;
	int expr_depth;
};

static void next(struct parser *ps)
{
	aidl_lex(&ps->lx, &ps->t);
}

static bool is_punct(const struct parser *ps, const char *op)
{
	return ps->t.kind == TK_PUNCT && strcmp(ps->t.text, op) == 0;
}

static bool is_word(const struct parser *ps, const char *w)
{
	return ps->t.kind == TK_IDENT && strcmp(ps->t.text, w) == 0;
}

static const char *describe(const struct aidl_token *t)
{
	switch (t->kind) {
	case TK_EOF: return "end of file";
	case TK_IDENT: return "an identifier";
	case TK_INT: case TK_FLOAT: return "a number";
	case TK_STRING: return "a string literal";
	case TK_CHAR: return "a character literal";
	default: return "an operator";
	}
}

static _Noreturn void expected(struct parser *ps, const char *what)
{
	if (ps->t.kind == TK_PUNCT || ps->t.kind == TK_IDENT)
		aidl_fail(ps->ctx, &ps->t.loc, "expected %s, found '%s'", what, ps->t.text);
	aidl_fail(ps->ctx, &ps->t.loc, "expected %s, found %s", what, describe(&ps->t));
}

static void expect_punct(struct parser *ps, const char *op)
{
	if (!is_punct(ps, op))
		expected(ps, aidl_printf(ps->ctx, "'%s'", op));
	next(ps);
}

static const char *expect_ident(struct parser *ps, const char *what)
{
	const char *s;

	if (ps->t.kind != TK_IDENT)
		expected(ps, what);
	s = ps->t.text;
	next(ps);
	return s;
}

/* Make room for element @n of an arena array; returns the (new) array.
 * Capacity doubles at powers of two, so it is implied by n. */
static void *grow(struct aidl_ctx *ctx, void *arr, size_t n, size_t elem)
{
	void *na;

	if (n & (n - 1))
		return arr;
	na = aidl_alloc(ctx, (n ? n * 2 : 1) * elem);
	if (n)
		memcpy(na, arr, n * elem);
	return na;
}
#define PUSH(ctx, arr, n) ((arr) = grow((ctx), (arr), (n), sizeof(*(arr))), &(arr)[(n)++])

static const char *parse_qname(struct parser *ps, const char *what)
{
	const char *s = expect_ident(ps, what);

	while (is_punct(ps, ".")) {
		next(ps);
		s = aidl_printf(ps->ctx, "%s.%s", s, expect_ident(ps, "an identifier after '.'"));
	}
	return s;
}

/* ---- constant expressions ------------------------------------------------ */

static struct aidl_expr *parse_expr(struct parser *ps);

static struct aidl_expr *new_expr(struct parser *ps, char op)
{
	struct aidl_expr *e = aidl_alloc(ps->ctx, sizeof(*e));

	e->loc = ps->t.loc;
	e->op = op;
	return e;
}

static struct aidl_expr *parse_primary(struct parser *ps);

/* { a, b, ... } (Android: an array field's default; a trailing comma and
 * {} are accepted).  Only meaningful as a whole default: evaluating one
 * where a single value is expected is an error. */
static struct aidl_expr *parse_array_literal(struct parser *ps)
{
	struct aidl_expr *e = new_expr(ps, '{');
	size_t cap = 0;

	next(ps);
	while (!is_punct(ps, "}")) {
		if (e->n_elems == cap) {
			struct aidl_expr **n;

			cap = cap ? cap * 2 : 8;
			n = aidl_alloc(ps->ctx, cap * sizeof(*n));
			if (e->n_elems)
				memcpy(n, e->elems, e->n_elems * sizeof(*n));
			e->elems = n;
		}
		e->elems[e->n_elems++] = parse_expr(ps);
		if (!is_punct(ps, ","))
			break;
		next(ps);
	}
	expect_punct(ps, "}");
	return e;
}

static struct aidl_expr *parse_primary(struct parser *ps)
{
	struct aidl_expr *e;

	if (++ps->expr_depth > 64)
		aidl_fail(ps->ctx, &ps->t.loc, "expression nested too deeply");
	switch (ps->t.kind) {
	case TK_INT:
		e = new_expr(ps, 0);
		e->lit.kind = V_INT;
		e->lit.i = (int64_t)ps->t.ival;
		e->lit_hex = ps->t.len > 1 && (ps->t.text[1] == 'x' || ps->t.text[1] == 'X');
		e->lit_long = ps->t.is_long;
		if (!e->lit_hex && ps->t.ival > (uint64_t)INT64_MAX + 1)
			aidl_fail(ps->ctx, &ps->t.loc, "integer literal too large");
		/* an int unless it needs more: 0x80000000 is an int (INT_MIN
		 * once used in arithmetic), 0x100000000 a long */
		e->lit.wide = e->lit_long || ps->t.ival > (e->lit_hex ? 0xffffffffu : (uint64_t)INT32_MAX);
		if (ps->t.is_u8) { /* 0xffu8 is the byte -1 */
			e->lit.i = ps->t.ival > 0x7f ? (int64_t)ps->t.ival - 0x100 : (int64_t)ps->t.ival;
			e->lit_hex = false;
		}
		next(ps);
		break;
	case TK_FLOAT:
		e = new_expr(ps, 0);
		e->lit.kind = V_FLOAT;
		e->lit.d = ps->t.dval;
		next(ps);
		break;
	case TK_STRING:
		e = new_expr(ps, 0);
		e->lit.kind = V_STRING;
		e->lit.s = ps->t.text;
		e->lit.slen = ps->t.len;
		next(ps);
		break;
	case TK_CHAR:
		e = new_expr(ps, 0);
		e->lit.kind = V_INT;
		e->lit.i = (int64_t)ps->t.ival;
		e->lit.is_char = true;
		next(ps);
		break;
	case TK_IDENT:
		if (is_word(ps, "true") || is_word(ps, "false")) {
			e = new_expr(ps, 0);
			e->lit.kind = V_BOOL;
			e->lit.i = is_word(ps, "true");
			next(ps);
			break;
		}
		e = new_expr(ps, 'n');
		e->name = parse_qname(ps, "a name");
		break;
	default:
		if (is_punct(ps, "(")) {
			next(ps);
			e = parse_expr(ps);
			expect_punct(ps, ")");
			break;
		}
		if (is_punct(ps, "{")) {
			e = parse_array_literal(ps);
			break;
		}
		if (is_punct(ps, "-") || is_punct(ps, "+") || is_punct(ps, "~") || is_punct(ps, "!")) {
			e = new_expr(ps, 'u');
			e->oper = ps->t.text;
			next(ps);
			e->a = parse_primary(ps);
			break;
		}
		expected(ps, "a constant expression");
	}
	ps->expr_depth--;
	return e;
}

/* Binary operators by precedence (C's, which AIDL follows). */
static int prec(const struct parser *ps)
{
	static const char *const levels[][4] = {
		{ "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" },
		{ "<", ">", "<=", ">=" }, { "<<", ">>" }, { "+", "-" }, { "*", "/", "%" },
	};

	if (ps->t.kind != TK_PUNCT)
		return -1;
	for (size_t l = 0; l < sizeof(levels) / sizeof(levels[0]); l++)
		for (size_t i = 0; i < 4 && levels[l][i]; i++)
			if (strcmp(ps->t.text, levels[l][i]) == 0)
				return (int)l;
	return -1;
}

static struct aidl_expr *parse_binary(struct parser *ps, int min)
{
	struct aidl_expr *lhs = parse_primary(ps);
	int p;

	while ((p = prec(ps)) >= min) {
		struct aidl_expr *e = new_expr(ps, 'b');
		e->oper = ps->t.text;
		next(ps);
		e->a = lhs;
		if (++ps->expr_depth > 64)
			aidl_fail(ps->ctx, &e->loc, "expression nested too deeply");
		e->b = parse_binary(ps, p + 1);
		ps->expr_depth--;
		lhs = e;
	}
	return lhs;
}

static struct aidl_expr *parse_expr(struct parser *ps)
{
	struct aidl_expr *c = parse_binary(ps, 0);

	if (is_punct(ps, "?")) {
		struct aidl_expr *e = new_expr(ps, '?');
		next(ps);
		if (++ps->expr_depth > 64)
			aidl_fail(ps->ctx, &e->loc, "expression nested too deeply");
		e->a = c;
		e->b = parse_expr(ps);
		expect_punct(ps, ":");
		e->c = parse_expr(ps);
		ps->expr_depth--;
		return e;
	}
	return c;
}

/* ---- annotations and types ------------------------------------------------ */

/* Whether an annotation's parameter starts "name =" (else it is the one
 * unnamed value, as in @EnforcePermission("X"), which Android names
 * "value").  One token of lookahead on a copy of the lexer. */
static bool named_param(const struct parser *ps)
{
	struct aidl_lexer lx = ps->lx;
	struct aidl_token t;

	if (ps->t.kind != TK_IDENT)
		return false;
	aidl_lex(&lx, &t);
	return t.kind == TK_PUNCT && strcmp(t.text, "=") == 0;
}

/* Annotations before a declaration, member, parameter or type.  Any of
 * Android's is read (annot.c's table checks its parameters); where it was
 * written is checked by whoever receives the list. */
static void parse_annots(struct parser *ps, struct aidl_annot **ret, size_t *n)
{
	while (is_punct(ps, "@")) {
		struct aidl_annot *a = PUSH(ps->ctx, *ret, *n);

		a->loc = ps->t.loc;
		next(ps);
		if (is_word(ps, "interface"))
			aidl_unsupported(ps->ctx, &a->loc, "declaring an annotation (@interface)");
		a->name = expect_ident(ps, "an annotation name");
		a->schema = aidl_annot_schema(a->name);
		if (!a->schema)
			aidl_fail(ps->ctx, &a->loc, "unknown annotation @%s (Android's aidl has none of that name)",
				  a->name);
		if (is_punct(ps, "(")) {
			bool first = true;

			next(ps);
			while (!is_punct(ps, ")")) {
				struct aidl_loc at = ps->t.loc;
				bool named = !first || named_param(ps);
				const char *key = named ? expect_ident(ps, "an annotation parameter name") : "value";
				struct aidl_expr *v;
				bool list = false;

				first = false;
				if (named)
					expect_punct(ps, "=");
				if (is_punct(ps, "{")) { /* {"a", "b"}: a string list */
					list = true;
					v = new_expr(ps, 0);
					next(ps);
					while (!is_punct(ps, "}")) {
						struct aidl_expr *e = parse_expr(ps);

						if (e->op != 0 || e->lit.kind != V_STRING)
							aidl_fail(ps->ctx, &e->loc, "@%s(%s={...}) takes strings", a->name,
								  key);
						if (!is_punct(ps, ","))
							break;
						next(ps);
					}
					expect_punct(ps, "}");
				} else {
					v = parse_expr(ps);
				}
				aidl_annot_param(ps->ctx, a, &at, key, v, list);
				if (!named)
					break; /* the unnamed value is the only one */
				if (!is_punct(ps, ","))
					break;
				next(ps);
			}
			expect_punct(ps, ")");
		}
		aidl_annot_done(ps->ctx, a);
	}
}

static const struct {
	const char *name;
	enum aidl_basic basic;
} basics[] = {
	{ "void", B_VOID }, { "boolean", B_BOOLEAN }, { "byte", B_BYTE }, { "char", B_CHAR },
	{ "int", B_INT }, { "long", B_LONG }, { "float", B_FLOAT }, { "double", B_DOUBLE },
	{ "String", B_STRING }, { "IBinder", B_IBINDER }, { "FileDescriptor", B_FD },
	{ "ParcelFileDescriptor", B_PFD }, { "android.os.ParcelFileDescriptor", B_PFD },
	{ "ParcelableHolder", B_HOLDER }, { "android.os.ParcelableHolder", B_HOLDER },
};

/* Types Android's C++ and NDK backends refuse (Java-only), in its words. */
static const char *const refused_types[][2] = {
	{ "CharSequence", "Currently, only Java backend supports CharSequence." },
	{ "List", "Currently, only the Java backend supports non-generic List." },
	{ "Map", "Currently, only Java backend supports Map." },
};

/* The ">" closing type arguments; in Foo<A, Bar<B>> the lexer sees ">>",
 * which is split (the second ">" stays the current token). */
static void expect_close_angle(struct parser *ps)
{
	if (ps->t.kind == TK_PUNCT && ps->t.text[0] == '>' && ps->t.text[1]) {
		ps->t.text++;
		ps->t.len--;
		ps->t.loc.col++;
		return;
	}
	expect_punct(ps, ">");
}

static void parse_type_args(struct parser *ps, struct aidl_type *ty);

static const char list_usage[] =
	"List<T> supports interface/parcelable/union, String, IBinder, and ParcelFileDescriptor.";

/*
 * List<T> (the "<" is next): T[] on the wire in Android's C++ and NDK
 * backends (std::vector<T> either way), so it becomes T[] here, with
 * Android's rules on T: a parcelable, union, interface, String, IBinder or
 * ParcelFileDescriptor (enums are refused in resolve, as Android does).
 */
static void parse_list(struct parser *ps, struct aidl_type *ty)
{
	struct aidl_loc at = ps->t.loc;
	const char *inner;

	next(ps);
	inner = parse_qname(ps, "a type");
	ty->basic = B_USER;
	for (size_t i = 0; i < sizeof(basics) / sizeof(basics[0]); i++)
		if (strcmp(inner, basics[i].name) == 0)
			ty->basic = basics[i].basic;
	if (is_punct(ps, "<") && ty->basic == B_USER && strcmp(inner, "List") != 0 && strcmp(inner, "Map") != 0)
		parse_type_args(ps, ty); /* List<Generic<A, B>> */
	if (is_punct(ps, "<") || is_punct(ps, ","))
		aidl_fail(ps->ctx, &at, "List<%s...> is not supported. %s", inner, list_usage);
	if (is_punct(ps, "["))
		aidl_fail(ps->ctx, &at, "List of arrays is not supported. %s", list_usage);
	expect_close_angle(ps);
	if (ty->basic != B_USER && ty->basic != B_STRING && ty->basic != B_IBINDER && ty->basic != B_PFD) {
		if (ty->basic != B_FD && ty->basic != B_VOID && ty->basic != B_HOLDER)
			aidl_fail(ps->ctx, &at, "A generic type cannot have any primitive type parameters.");
		aidl_fail(ps->ctx, &at, "List<%s> is not supported. %s", inner, list_usage);
	}
	for (size_t i = 0; i < sizeof(refused_types) / sizeof(refused_types[0]); i++)
		if (strcmp(inner, refused_types[i][0]) == 0)
			aidl_fail(ps->ctx, &at, "List<%s> is not supported. %s", inner, list_usage);
	ty->name = inner;
	ty->list = true;
	ty->array = true;
	if (is_punct(ps, "["))
		aidl_fail(ps->ctx, &ps->t.loc, "Arrays of List are not supported.");
}

static void parse_type(struct parser *ps, struct aidl_type *ty, struct aidl_annot *a, size_t n, unsigned member);

/* Foo<A, B> (the "<" is next): the type arguments of a generic
 * parcelable, checked against its parameters in resolve. */
static void parse_type_args(struct parser *ps, struct aidl_type *ty)
{
	size_t cap = 0;

	ty->targs_loc = ps->t.loc;
	next(ps);
	for (;;) {
		if (ty->n_targs == cap) {
			struct aidl_type *n;

			cap = cap ? cap * 2 : 4;
			n = aidl_alloc(ps->ctx, cap * sizeof(*n));
			if (ty->n_targs)
				memcpy(n, ty->targs, ty->n_targs * sizeof(*n));
			ty->targs = n;
		}
		if (++ps->expr_depth > 64)
			aidl_fail(ps->ctx, &ps->t.loc, "type arguments nested too deeply");
		parse_type(ps, &ty->targs[ty->n_targs++], NULL, 0, 0);
		ps->expr_depth--;
		if (!is_punct(ps, ","))
			break;
		next(ps);
	}
	expect_close_angle(ps);
}

/* A type, with the annotations already read before it in @a; @member
 * (AC_METHOD, AC_FIELD, AC_CONST or 0) is what the type is part of, whose
 * annotations may be in @a too. */
static void parse_type(struct parser *ps, struct aidl_type *ty, struct aidl_annot *a, size_t n, unsigned member)
{
	memset(ty, 0, sizeof(*ty));
	parse_annots(ps, &a, &n);
	for (size_t i = 0; i < n; i++) {
		/* before a member, the member's own annotations come first
		 * in the same list (@UnsupportedAppUsage @nullable String f();) */
		if (!(a[i].schema->contexts & AC_TYPE) && member)
			aidl_annot_check_context(ps->ctx, &a[i], member);
		else
			aidl_annot_check_context(ps->ctx, &a[i], AC_TYPE);
		if (a[i].schema->effect == A_UTF8)
			ty->utf8 = true;
		else if (a[i].schema->effect == A_NULLABLE)
			ty->nullable = true;
	}
	ty->loc = ps->t.loc;
	ty->name = parse_qname(ps, "a type");
	if ((strcmp(ty->name, "List") == 0 || strcmp(ty->name, "java.util.List") == 0) && is_punct(ps, "<")) {
		parse_list(ps, ty);
		goto check;
	}
	ty->basic = B_USER;
	for (size_t i = 0; i < sizeof(basics) / sizeof(basics[0]); i++)
		if (strcmp(ty->name, basics[i].name) == 0)
			ty->basic = basics[i].basic;
	for (size_t i = 0; i < sizeof(refused_types) / sizeof(refused_types[0]); i++)
		if (strcmp(ty->name, refused_types[i][0]) == 0 ||
		    (strncmp(ty->name, "java.util.", 10) == 0 && strcmp(ty->name + 10, refused_types[i][0]) == 0))
			aidl_fail(ps->ctx, &ty->loc, "%s", refused_types[i][1]);
	if (is_punct(ps, "<"))
		parse_type_args(ps, ty);
	if (is_punct(ps, "[")) {
		next(ps);
		if (!is_punct(ps, "]")) {
			/* T[N] (Android 13): T[]'s wire format, N elements
			 * exactly; N is a constant expression (T[SIZE], T[2 * N])
			 * that resolve evaluates once constants are known */
			ty->fixed_expr = parse_expr(ps);
		}
		expect_punct(ps, "]");
		ty->array = true;
		if (is_punct(ps, "[")) {
			/* T[N][M] only: Android writes it as N arrays of M */
			struct aidl_loc at = ps->t.loc;

			next(ps);
			if (!ty->fixed_expr || is_punct(ps, "]"))
				aidl_unsupported(ps->ctx, &at, "a multi-dimensional array that is not fixed-size");
			ty->fixed2_expr = parse_expr(ps);
			expect_punct(ps, "]");
			if (is_punct(ps, "["))
				aidl_unsupported(ps->ctx, &ps->t.loc, "an array of more than two dimensions");
		}
	}
check:
	if (ty->utf8 && ty->basic != B_STRING)
		aidl_fail(ps->ctx, &ty->loc, "@utf8InCpp can only be used on String and String[]");
	if (ty->nullable && !ty->array && ty->basic != B_STRING && ty->basic != B_IBINDER && ty->basic != B_USER &&
	    ty->basic != B_HOLDER && /* Android's own message, in resolve */
	    ty->basic != B_PFD)
		aidl_fail(ps->ctx, &ty->loc,
			  "@nullable cannot be used on %s (only on String, IBinder, ParcelFileDescriptor, interfaces and arrays)",
			  ty->name);
}

/* ---- members ------------------------------------------------------------ */

static bool at_decl(const struct parser *ps)
{
	return is_word(ps, "parcelable") || is_word(ps, "enum") || is_word(ps, "union") || is_word(ps, "interface");
}

static struct aidl_decl *parse_decl(struct parser *ps, struct aidl_doc *doc, struct aidl_decl *parent,
				    struct aidl_annot *a, size_t na);

/* A type declared inside @d (Android 13's nested types): a parcelable,
 * union, enum or interface, named Outer.Inner (@oneway: "oneway" was read
 * already).  A nested type may not be named like an enclosing one (Java's
 * rule, which AIDL follows). */
static void parse_nested(struct parser *ps, struct aidl_decl *d, struct aidl_annot *a, size_t na, bool oneway)
{
	struct aidl_decl *n;
	int depth = 0;

	for (const struct aidl_decl *up = d; up; up = up->parent)
		if (++depth > 16) /* bounds the recursion (and the C names) */
			aidl_fail(ps->ctx, &ps->t.loc, "types nested too deeply");
	n = parse_decl(ps, d->doc, d, a, na);
	n->oneway |= oneway;
	for (const struct aidl_decl *up = d; up; up = up->parent)
		if (strcmp(up->name, n->name) == 0)
			aidl_fail(ps->ctx, &n->loc, "nested type '%s' has the same name as its enclosing type", n->name);
	for (size_t i = 0; i < d->n_nested; i++)
		if (strcmp(d->nested[i]->name, n->name) == 0)
			aidl_fail(ps->ctx, &n->loc, "type '%s' is declared twice in %s", n->name, d->name);
	*PUSH(ps->ctx, d->nested, d->n_nested) = n;
}

static void parse_const(struct parser *ps, struct aidl_decl *d, struct aidl_annot *a, size_t na)
{
	struct aidl_const *c = PUSH(ps->ctx, d->consts, d->n_consts);

	c->loc = ps->t.loc;
	next(ps); /* const */
	parse_type(ps, &c->type, a, na, AC_CONST);
	c->name = expect_ident(ps, "a constant name");
	expect_punct(ps, "=");
	c->expr = parse_expr(ps);
	expect_punct(ps, ";");
}

static void parse_method(struct parser *ps, struct aidl_decl *d, struct aidl_annot *a, size_t na)
{
	struct aidl_method *m = PUSH(ps->ctx, d->methods, d->n_methods);

	m->loc = ps->t.loc;
	if (is_word(ps, "oneway")) {
		m->oneway = true;
		next(ps);
		if (is_word(ps, "interface")) { /* not a method: a nested oneway interface */
			d->n_methods--;
			parse_nested(ps, d, a, na, true);
			return;
		}
	}
	parse_type(ps, &m->ret, a, na, AC_METHOD);
	m->name = expect_ident(ps, "a method name");
	expect_punct(ps, "(");
	while (!is_punct(ps, ")")) {
		struct aidl_param *p = PUSH(ps->ctx, m->params, m->n_params);
		struct aidl_annot *pa = NULL;
		size_t npa = 0;

		p->loc = ps->t.loc;
		parse_annots(ps, &pa, &npa);
		if (is_word(ps, "in"))
			p->dir = D_IN;
		else if (is_word(ps, "out"))
			p->dir = D_OUT;
		else if (is_word(ps, "inout"))
			p->dir = D_INOUT;
		if (p->dir != D_NONE)
			next(ps);
		parse_type(ps, &p->type, pa, npa, 0);
		p->name = expect_ident(ps, "a parameter name");
		if (!is_punct(ps, ","))
			break;
		next(ps);
	}
	expect_punct(ps, ")");
	if (is_punct(ps, "=")) {
		next(ps);
		if (ps->t.kind != TK_INT)
			expected(ps, "a transaction id (an integer)");
		m->has_id = true;
		m->id = ps->t.ival > INT32_MAX ? INT32_MAX : (int64_t)ps->t.ival;
		next(ps);
	}
	expect_punct(ps, ";");
}

static void parse_interface(struct parser *ps, struct aidl_decl *d)
{
	expect_punct(ps, "{");
	while (!is_punct(ps, "}")) {
		struct aidl_annot *a = NULL;
		size_t na = 0;

		if (ps->t.kind == TK_EOF)
			expected(ps, "'}' to close the interface");
		parse_annots(ps, &a, &na);
		if (at_decl(ps))
			parse_nested(ps, d, a, na, false);
		else if (is_word(ps, "const"))
			parse_const(ps, d, a, na);
		else
			parse_method(ps, d, a, na);
	}
	next(ps);
}

/*
 * An unstructured parcelable (`parcelable Foo;`, optionally with
 * cpp_header/ndk_header/rust_type) is refused, for good: its bytes are
 * whatever a hand-written C++/Java/Rust class writes, and bc-aidl cannot
 * read that class to write the same bytes in C.  Android's NDK backend
 * needs the class too (ndk_header).  The message names the header Android
 * would use, so the user knows where the field order is defined.
 */
static _Noreturn void unstructured(struct parser *ps, const struct aidl_decl *d)
{
	const char *hdr = NULL;

	while (is_word(ps, "cpp_header") || is_word(ps, "ndk_header") || is_word(ps, "rust_type")) {
		bool ndk = is_word(ps, "ndk_header");

		next(ps);
		if (ps->t.kind != TK_STRING)
			expected(ps, "a header name (a string literal)");
		if (ndk || !hdr)
			hdr = aidl_printf(ps->ctx, "\"%.*s\"", (int)ps->t.len, ps->t.text);
		next(ps);
	}
	if (!is_punct(ps, ";"))
		expected(ps, "'{' or ';'");
	aidl_fail(ps->ctx, &d->loc,
		  "unstructured parcelable %s has no C form: its wire format is defined by hand-written code%s%s, "
		  "which bc-aidl cannot read; declare it as a structured parcelable with the same fields",
		  d->name, hdr ? " in " : "", hdr ? hdr : "");
}

static void parse_parcelable(struct parser *ps, struct aidl_decl *d)
{
	if (is_punct(ps, "<") && d->is_union)
		aidl_fail(ps->ctx, &ps->t.loc, "only a parcelable can have type parameters");
	if (is_punct(ps, "<")) { /* parcelable Foo<T, U>: the names of its type parameters */
		size_t cap = 0;

		do {
			next(ps);
			if (d->n_type_params == cap) {
				const char **n;

				cap = cap ? cap * 2 : 4;
				n = aidl_alloc(ps->ctx, cap * sizeof(*n));
				if (d->n_type_params)
					memcpy(n, d->type_params, d->n_type_params * sizeof(*n));
				d->type_params = n;
			}
			if (ps->t.kind != TK_IDENT)
				expected(ps, "a type parameter name");
			for (size_t i = 0; i < d->n_type_params; i++)
				if (strcmp(d->type_params[i], ps->t.text) == 0)
					aidl_fail(ps->ctx, &ps->t.loc, "type parameter '%s' is declared twice", ps->t.text);
			d->type_params[d->n_type_params++] = aidl_strdup(ps->ctx, ps->t.text);
			next(ps);
		} while (is_punct(ps, ","));
		expect_punct(ps, ">");
	}
	if (!is_punct(ps, "{") && !d->is_union)
		unstructured(ps, d);
	if (!is_punct(ps, "{"))
		aidl_unsupported(ps->ctx, &d->loc, "a union without a body");
	next(ps);
	while (!is_punct(ps, "}")) {
		struct aidl_annot *a = NULL;
		size_t na = 0;
		struct aidl_field *f;

		if (ps->t.kind == TK_EOF)
			expected(ps, "'}' to close the parcelable");
		parse_annots(ps, &a, &na);
		if (is_word(ps, "oneway")) {
			next(ps);
			if (!is_word(ps, "interface"))
				expected(ps, "'interface' after 'oneway'");
			parse_nested(ps, d, a, na, true);
			continue;
		}
		if (at_decl(ps)) {
			parse_nested(ps, d, a, na, false);
			continue;
		}
		if (is_word(ps, "const")) {
			parse_const(ps, d, a, na);
			continue;
		}
		f = PUSH(ps->ctx, d->fields, d->n_fields);
		f->loc = ps->t.loc;
		parse_type(ps, &f->type, a, na, AC_FIELD);
		f->name = expect_ident(ps, "a field name");
		if (is_punct(ps, "=")) {
			next(ps);
			f->def = parse_expr(ps);
		}
		expect_punct(ps, ";");
	}
	next(ps);
}

static void parse_enum(struct parser *ps, struct aidl_decl *d)
{
	expect_punct(ps, "{");
	while (!is_punct(ps, "}")) {
		struct aidl_const *c = PUSH(ps->ctx, d->consts, d->n_consts);

		c->loc = ps->t.loc;
		c->name = expect_ident(ps, "an enumerator");
		if (is_punct(ps, "=")) {
			next(ps);
			c->expr = parse_expr(ps);
		}
		if (!is_punct(ps, ","))
			break;
		next(ps);
	}
	expect_punct(ps, "}");
	if (d->n_consts == 0)
		aidl_fail(ps->ctx, &d->loc, "enum %s has no enumerators", d->name);
}

/* Android gives every union U a nested enum U.Tag, backed by int, with
 * one enumerator per field, named like it and numbered from 0: the
 * union's tag on the wire.  HALs use it as a type (audio's effect
 * parameters: `union Id { Equalizer.Tag commonTag; }`).  Declared here
 * as if written, unless the union declares a type named Tag itself. */
static void add_union_tag(struct parser *ps, struct aidl_decl *u)
{
	struct aidl_decl *t;

	for (size_t i = 0; i < u->n_nested; i++)
		if (strcmp(u->nested[i]->name, "Tag") == 0)
			return;
	t = aidl_alloc(ps->ctx, sizeof(*t));
	t->doc = u->doc;
	t->parent = u;
	t->loc = u->loc;
	t->kind = K_ENUM;
	t->union_tag = true;
	t->name = "Tag";
	t->qname = aidl_printf(ps->ctx, "%s.Tag", u->qname);
	t->cname = aidl_printf(ps->ctx, "%s_Tag", u->cname);
	t->descriptor = t->qname;
	t->backing = B_INT;
	t->vintf = u->vintf;
	for (size_t i = 0; i < u->n_fields; i++) {
		struct aidl_const *c = PUSH(ps->ctx, t->consts, t->n_consts);

		c->loc = u->fields[i].loc;
		c->name = u->fields[i].name; /* no value: the previous one + 1 */
	}
	*PUSH(ps->ctx, u->nested, u->n_nested) = t;
}

/* A declaration, its annotations @a already read; @parent encloses it. */
static struct aidl_decl *parse_decl(struct parser *ps, struct aidl_doc *doc, struct aidl_decl *parent,
				    struct aidl_annot *a, size_t na)
{
	struct aidl_decl *d = aidl_alloc(ps->ctx, sizeof(*d));
	char *cname;

	d->doc = doc;
	d->parent = parent;
	d->loc = ps->t.loc;
	if (is_word(ps, "oneway")) {
		d->oneway = true;
		next(ps);
		if (!is_word(ps, "interface"))
			expected(ps, "'interface' after 'oneway'");
	}
	if (is_word(ps, "interface")) {
		d->kind = K_INTERFACE;
	} else if (is_word(ps, "parcelable")) {
		d->kind = K_PARCELABLE;
	} else if (is_word(ps, "enum")) {
		d->kind = K_ENUM;
	} else if (is_word(ps, "union")) {
		d->kind = K_PARCELABLE;
		d->is_union = true;
	} else {
		expected(ps, "'interface', 'parcelable', 'union' or 'enum'");
	}
	next(ps);
	d->name = expect_ident(ps, "a type name");
	if (parent)
		d->qname = aidl_printf(ps->ctx, "%s.%s", parent->qname, d->name);
	else
		d->qname = doc->package[0] ? aidl_printf(ps->ctx, "%s.%s", doc->package, d->name) : d->name;
	/* The C prefix: every '.' of the qualified name becomes '_'
	 * (a.b.Outer.Inner is a_b_Outer_Inner). */
	cname = aidl_strdup(ps->ctx, d->qname);
	for (char *p = cname; *p; p++)
		if (*p == '.')
			*p = '_';
	d->cname = cname;
	d->backing = B_BYTE; /* AIDL's default backing type of an enum */
	d->descriptor = d->qname;
	/* @VintfStability on an enclosing type covers its nested types
	 * (Android looks the annotation up through the parents) */
	d->vintf = parent && parent->vintf;
	for (size_t i = 0; i < na; i++) {
		unsigned context = d->kind == K_INTERFACE ? AC_INTERFACE
				   : d->kind == K_ENUM	  ? AC_ENUM
				   : d->is_union	  ? AC_UNION
							  : AC_PARCELABLE;

		if (!is_punct(ps, "{") && d->kind == K_PARCELABLE && !d->is_union)
			context = AC_UNSTRUCTURED; /* parcelable Foo; (refused below) */
		aidl_annot_check_context(ps->ctx, &a[i], context);
		switch (a[i].schema->effect) {
		case A_BACKING:
			if (strcmp(a[i].value, "byte") == 0)
				d->backing = B_BYTE;
			else if (strcmp(a[i].value, "int") == 0)
				d->backing = B_INT;
			else if (strcmp(a[i].value, "long") == 0)
				d->backing = B_LONG;
			else
				aidl_fail(ps->ctx, &a[i].loc, "invalid backing type \"%s\" (byte, int or long)",
					  a[i].value);
			break;
		case A_VINTF:
			d->vintf = true;
			break;
		case A_FIXED_SIZE:
			d->fixed_size = true;
			break;
		case A_DESCRIPTOR:
			d->descriptor = a[i].value;
			break;
		case A_SENSITIVE:
			d->sensitive = true;
			break;
		default:
			break;
		}
	}
	switch (d->kind) {
	case K_INTERFACE:
		parse_interface(ps, d);
		break;
	case K_PARCELABLE:
		parse_parcelable(ps, d);
		if (d->is_union && d->n_fields)
			add_union_tag(ps, d);
		break;
	case K_ENUM:
		parse_enum(ps, d);
		break;
	}
	return d;
}

struct aidl_doc *aidl_parse(struct aidl_ctx *ctx, const char *path, const char *src, size_t len)
{
	struct parser ps = { .ctx = ctx };
	struct aidl_doc *doc = aidl_alloc(ctx, sizeof(*doc));

	doc->path = aidl_strdup(ctx, path);
	doc->package = "";
	aidl_lexer_init(&ps.lx, ctx, doc->path, src, len);
	next(&ps);
	if (is_word(&ps, "package")) {
		next(&ps);
		doc->package = parse_qname(&ps, "a package name");
		expect_punct(&ps, ";");
	}
	while (is_word(&ps, "import")) {
		struct aidl_import *im = PUSH(ctx, doc->imports, doc->n_imports);
		im->loc = ps.t.loc;
		next(&ps);
		im->qname = parse_qname(&ps, "a qualified type name");
		expect_punct(&ps, ";");
	}
	if (ps.t.kind == TK_EOF)
		aidl_fail(ctx, &ps.t.loc, "no type declared in this file");
	{
		struct aidl_annot *a = NULL;
		size_t na = 0;

		parse_annots(&ps, &a, &na);
		doc->decl = parse_decl(&ps, doc, NULL, a, na);
	}
	if (ps.t.kind != TK_EOF) {
		if (is_word(&ps, "interface") || is_word(&ps, "parcelable") || is_word(&ps, "enum") ||
		    is_word(&ps, "union") || is_punct(&ps, "@") || is_word(&ps, "oneway"))
			aidl_fail(ctx, &ps.t.loc, "only one type may be declared per file");
		expected(&ps, "end of file");
	}
	return doc;
}

struct aidl_doc *aidl_parse_file(struct aidl_ctx *ctx, const char *path, const struct aidl_loc *from)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf;

	if (!f)
		aidl_fail(ctx, from, "cannot open %s: %s", path, strerror(errno));
	buf = aidl_alloc(ctx, cap);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb;
			if (cap >= (64u << 20)) {
				fclose(f);
				aidl_fail(ctx, from, "%s is too large", path);
			}
			nb = aidl_alloc(ctx, cap * 2);
			memcpy(nb, buf, n);
			buf = nb, cap *= 2;
		}
	}
	if (ferror(f)) {
		fclose(f);
		aidl_fail(ctx, from, "cannot read %s", path);
	}
	fclose(f);
	return aidl_parse(ctx, path, buf, n);
}
