// SPDX-License-Identifier: MIT
/*
 * Constant expressions: constants, enumerators and field defaults.
 * Integers are computed as Java and Android's aidl do: in 32 bits
 * (wrapping) when both operands are ints, in 64 when one is a long, never
 * undefined; the result is then checked against the declared type.  A
 * hexadecimal literal may fill the type's width (0xffffffff is the int -1,
 * 0x80000000 | 1 is INT_MIN + 1, as in Android's aidl).  Names
 * refer to constants or enumerators of the same type, or Type.NAME of a
 * type in scope; circular definitions are errors.
 */
#include <math.h>
#include <string.h>

#include "aidl.h"

static struct aidl_value eval(struct aidl_ctx *ctx, struct aidl_decl *scope, struct aidl_expr *e);

static void eval_enumerator(struct aidl_ctx *ctx, struct aidl_decl *d, size_t i);
static void eval_const(struct aidl_ctx *ctx, struct aidl_decl *d, struct aidl_const *c);

static struct aidl_value const_value(struct aidl_ctx *ctx, struct aidl_decl *d, size_t i)
{
	if (d->kind == K_ENUM)
		eval_enumerator(ctx, d, i);
	else
		eval_const(ctx, d, &d->consts[i]);
	return d->consts[i].val;
}

static struct aidl_value lookup_name(struct aidl_ctx *ctx, struct aidl_decl *scope, struct aidl_expr *e)
{
	const char *dot = strrchr(e->name, '.');
	struct aidl_decl *d = scope;
	const char *name = e->name;

	if (dot) {
		const char *tname = aidl_strndup(ctx, e->name, (size_t)(dot - e->name));
		d = aidl_lookup(ctx, scope, tname, &e->loc);
		if (!d)
			aidl_fail(ctx, &e->loc, "unknown type %s in '%s'", tname, e->name);
		name = dot + 1;
	}
	for (size_t i = 0; i < d->n_consts; i++)
		if (strcmp(d->consts[i].name, name) == 0)
			return const_value(ctx, d, i);
	aidl_fail(ctx, &e->loc, "unknown constant '%s'", e->name);
}

static bool truth(struct aidl_ctx *ctx, const struct aidl_expr *e, struct aidl_value v)
{
	if (v.kind == V_BOOL || v.kind == V_INT)
		return v.i != 0;
	aidl_fail(ctx, &e->loc, "expected a boolean or integer operand");
}

static double as_double(struct aidl_value v)
{
	return v.kind == V_FLOAT ? v.d : (double)v.i;
}

static struct aidl_value mk_int(int64_t i, enum aidl_vkind k)
{
	return (struct aidl_value){ .kind = k, .i = i };
}

/* The int holding the low 32 bits of @i (two's complement). */
static int64_t s32(int64_t i)
{
	uint32_t u = (uint32_t)(uint64_t)i;

	return u >= 0x80000000u ? (int64_t)u - 0x100000000 : (int64_t)u;
}

/* An integer result of width @wide: int results wrap in 32 bits. */
static struct aidl_value mk_num(uint64_t i, bool wide)
{
	struct aidl_value v = { .kind = V_INT, .i = wide ? (int64_t)i : s32((int64_t)i), .wide = wide };

	return v;
}

static struct aidl_value binary(struct aidl_ctx *ctx, struct aidl_expr *e, struct aidl_value a, struct aidl_value b)
{
	const char *op = e->oper;
	bool w = a.wide || b.wide;
	uint64_t x, y;

	if (!strcmp(op, "&&"))
		return mk_int(truth(ctx, e->a, a) && truth(ctx, e->b, b), V_BOOL);
	if (!strcmp(op, "||"))
		return mk_int(truth(ctx, e->a, a) || truth(ctx, e->b, b), V_BOOL);
	if (a.kind == V_STRING || b.kind == V_STRING) {
		if (a.kind == V_STRING && b.kind == V_STRING && !strcmp(op, "+")) {
			char *s = aidl_alloc(ctx, a.slen + b.slen + 1);
			memcpy(s, a.s, a.slen);
			memcpy(s + a.slen, b.s, b.slen);
			return (struct aidl_value){ .kind = V_STRING, .s = s, .slen = a.slen + b.slen };
		}
		if (a.kind == V_STRING && b.kind == V_STRING && (!strcmp(op, "==") || !strcmp(op, "!=")))
			return mk_int((a.slen == b.slen && !memcmp(a.s, b.s, a.slen)) == !strcmp(op, "=="), V_BOOL);
		aidl_fail(ctx, &e->loc, "operator '%s' cannot be applied to strings", op);
	}
	if (a.kind == V_FLOAT || b.kind == V_FLOAT) {
		double p = as_double(a), q = as_double(b);
		if (!strcmp(op, "+")) return (struct aidl_value){ .kind = V_FLOAT, .d = p + q };
		if (!strcmp(op, "-")) return (struct aidl_value){ .kind = V_FLOAT, .d = p - q };
		if (!strcmp(op, "*")) return (struct aidl_value){ .kind = V_FLOAT, .d = p * q };
		if (!strcmp(op, "/")) return (struct aidl_value){ .kind = V_FLOAT, .d = p / q };
		if (!strcmp(op, "==")) return mk_int(p == q, V_BOOL);
		if (!strcmp(op, "!=")) return mk_int(p != q, V_BOOL);
		if (!strcmp(op, "<")) return mk_int(p < q, V_BOOL);
		if (!strcmp(op, ">")) return mk_int(p > q, V_BOOL);
		if (!strcmp(op, "<=")) return mk_int(p <= q, V_BOOL);
		if (!strcmp(op, ">=")) return mk_int(p >= q, V_BOOL);
		aidl_fail(ctx, &e->loc, "operator '%s' cannot be applied to floating values", op);
	}
	/* int operands are ints (0xffffffff is -1) unless the other is a long */
	if (a.kind == V_INT && !w)
		a.i = s32(a.i);
	if (b.kind == V_INT && !w)
		b.i = s32(b.i);
	x = (uint64_t)a.i, y = (uint64_t)b.i;
	if (!strcmp(op, "==")) return mk_int(a.i == b.i, V_BOOL);
	if (!strcmp(op, "!=")) return mk_int(a.i != b.i, V_BOOL);
	if (a.kind == V_BOOL || b.kind == V_BOOL)
		aidl_fail(ctx, &e->loc, "operator '%s' cannot be applied to booleans", op);
	if (!strcmp(op, "<")) return mk_int(a.i < b.i, V_BOOL);
	if (!strcmp(op, ">")) return mk_int(a.i > b.i, V_BOOL);
	if (!strcmp(op, "<=")) return mk_int(a.i <= b.i, V_BOOL);
	if (!strcmp(op, ">=")) return mk_int(a.i >= b.i, V_BOOL);
	if (!strcmp(op, "+")) return mk_num(x + y, w);
	if (!strcmp(op, "-")) return mk_num(x - y, w);
	if (!strcmp(op, "*")) return mk_num(x * y, w);
	if (!strcmp(op, "&")) return mk_num(x & y, w);
	if (!strcmp(op, "|")) return mk_num(x | y, w);
	if (!strcmp(op, "^")) return mk_num(x ^ y, w);
	if (!strcmp(op, "/") || !strcmp(op, "%")) {
		if (b.i == 0)
			aidl_fail(ctx, &e->loc, "division by zero in a constant expression");
		if (a.i == INT64_MIN && b.i == -1)
			aidl_fail(ctx, &e->loc, "overflow in a constant expression");
		return mk_num((uint64_t)(op[0] == '/' ? a.i / b.i : a.i % b.i), w);
	}
	if (!strcmp(op, "<<") || !strcmp(op, ">>")) {
		/* the result has the left operand's width, as in C and Java */
		if (b.i < 0 || b.i > (a.wide ? 63 : 31))
			aidl_fail(ctx, &e->loc, "shift count %lld is out of range", (long long)b.i);
		if (!a.wide)
			a.i = s32(a.i), x = (uint64_t)a.i;
		if (op[0] == '<')
			return mk_num(x << b.i, a.wide);
		/* arithmetic shift, written without implementation-defined >> */
		return mk_num(a.i < 0 ? ~(~x >> b.i) : x >> b.i, a.wide);
	}
	aidl_fail(ctx, &e->loc, "unknown operator '%s'", op);
}

static struct aidl_value eval(struct aidl_ctx *ctx, struct aidl_decl *scope, struct aidl_expr *e)
{
	struct aidl_value a, b;

	switch (e->op) {
	case 0:
		return e->lit;
	case '{':
		aidl_fail(ctx, &e->loc, "an array {...} cannot be used where a single value is expected");
	case 'n':
		return lookup_name(ctx, scope, e);
	case 'u':
		a = eval(ctx, scope, e->a);
		if (a.kind == V_STRING)
			aidl_fail(ctx, &e->loc, "operator '%s' cannot be applied to a string", e->oper);
		if (!strcmp(e->oper, "!"))
			return mk_int(!truth(ctx, e->a, a), V_BOOL);
		if (a.kind == V_BOOL)
			aidl_fail(ctx, &e->loc, "operator '%s' cannot be applied to a boolean", e->oper);
		if (!strcmp(e->oper, "+"))
			return a;
		if (a.kind == V_FLOAT) {
			if (!strcmp(e->oper, "-"))
				return (struct aidl_value){ .kind = V_FLOAT, .d = -a.d };
			aidl_fail(ctx, &e->loc, "operator '~' cannot be applied to a floating value");
		}
		if (!a.wide)
			a.i = s32(a.i);
		if (!strcmp(e->oper, "-"))
			return mk_num(0 - (uint64_t)a.i, a.wide);
		return mk_num(~(uint64_t)a.i, a.wide);
	case 'b':
		a = eval(ctx, scope, e->a);
		b = eval(ctx, scope, e->b);
		return binary(ctx, e, a, b);
	case '?':
		a = eval(ctx, scope, e->a);
		return truth(ctx, e->a, a) ? eval(ctx, scope, e->b) : eval(ctx, scope, e->c);
	}
	aidl_fail(ctx, &e->loc, "invalid constant expression");
}

/* Check @v against an integer type of @bits; hex literals may wrap. */
static int64_t fit_int(struct aidl_ctx *ctx, const struct aidl_expr *e, struct aidl_value v, int bits,
		       const char *tname)
{
	int64_t lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
	int64_t hi = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;

	if (v.kind != V_INT || v.is_char)
		aidl_fail(ctx, &e->loc, "expected an integer constant for type %s", tname);
	if (bits == 64 && e->op == 0 && e->lit_hex)
		return v.i;
	if (bits == 32 && !(e->op == 0 && e->lit_hex) && e->op == 0 && e->lit_long)
		aidl_fail(ctx, &e->loc, "a long literal cannot initialise an int");
	if (e->op == 0 && e->lit_hex && bits < 64 && v.i >= 0 && v.i <= (int64_t)((((uint64_t)1) << bits) - 1))
		return (int64_t)((uint64_t)v.i << (64 - bits)) >> (64 - bits) == v.i ? v.i
		       : v.i - ((int64_t)1 << bits);
	if (v.i < lo || v.i > hi)
		aidl_fail(ctx, &e->loc, "value %lld is out of range for type %s", (long long)v.i, tname);
	return v.i;
}

struct aidl_value aidl_eval(struct aidl_ctx *ctx, struct aidl_decl *scope, const struct aidl_type *t,
			    struct aidl_expr *e)
{
	struct aidl_value v = eval(ctx, scope, e), r = { 0 };

	switch (t->basic) {
	case B_BOOLEAN:
		if (v.kind != V_BOOL)
			aidl_fail(ctx, &e->loc, "expected true or false for type boolean");
		return v;
	case B_BYTE:
		r.kind = V_INT, r.i = fit_int(ctx, e, v, 8, "byte");
		return r;
	case B_INT:
		r.kind = V_INT, r.i = fit_int(ctx, e, v, 32, "int");
		return r;
	case B_LONG:
		r.kind = V_INT, r.i = fit_int(ctx, e, v, 64, "long");
		r.wide = true;
		return r;
	case B_CHAR:
		if (v.kind != V_INT || !v.is_char)
			aidl_fail(ctx, &e->loc, "expected a character literal for type char");
		return v;
	case B_FLOAT:
	case B_DOUBLE:
		if (v.kind != V_FLOAT && v.kind != V_INT)
			aidl_fail(ctx, &e->loc, "expected a number for type %s", t->name);
		if (v.kind == V_INT && v.is_char)
			aidl_fail(ctx, &e->loc, "expected a number for type %s", t->name);
		r.kind = V_FLOAT, r.d = as_double(v);
		if (!isfinite(r.d) || (t->basic == B_FLOAT && fabs(r.d) > 3.4028234663852886e38))
			aidl_fail(ctx, &e->loc, "value is out of range for type %s", t->name);
		return r;
	case B_STRING:
		if (v.kind != V_STRING)
			aidl_fail(ctx, &e->loc, "expected a string constant");
		if (memchr(v.s, 0, v.slen))
			aidl_unsupported(ctx, &e->loc, "a string constant containing NUL");
		return v;
	case B_USER:
		/* no decl: a constant of an unresolved (imported) type, refused below */
		if (t->decl && t->decl->kind == K_ENUM) {
			/* Only an enumerator of that very enum. */
			const char *dot = e->op == 'n' ? strrchr(e->name, '.') : NULL;
			struct aidl_decl *d = dot ? aidl_lookup(ctx, scope,
								aidl_strndup(ctx, e->name, (size_t)(dot - e->name)),
								&e->loc)
						  : NULL;
			if (d != t->decl)
				aidl_fail(ctx, &e->loc, "the default of an enum field must be one of %s's enumerators (%s.NAME)",
					  t->decl->name, t->decl->name);
			return v;
		}
		break;
	default:
		break;
	}
	aidl_unsupported(ctx, &e->loc, aidl_printf(ctx, "a constant of type %s", t->name));
}

static void eval_const(struct aidl_ctx *ctx, struct aidl_decl *d, struct aidl_const *c)
{
	if (c->state == 2)
		return;
	if (c->state == 1)
		aidl_fail(ctx, &c->loc, "constant '%s' is defined in terms of itself", c->name);
	c->state = 1;
	c->val = aidl_eval(ctx, d, &c->type, c->expr);
	c->state = 2;
}

static void eval_enumerator(struct aidl_ctx *ctx, struct aidl_decl *d, size_t i)
{
	struct aidl_const *c = &d->consts[i];
	struct aidl_type bt = { .basic = d->backing, .loc = d->loc };
	int bits = d->backing == B_BYTE ? 8 : d->backing == B_INT ? 32 : 64;

	bt.name = bits == 8 ? "byte" : bits == 32 ? "int" : "long";
	if (c->state == 2)
		return;
	if (c->state == 1)
		aidl_fail(ctx, &c->loc, "enumerator '%s' is defined in terms of itself", c->name);
	c->state = 1;
	if (c->expr) {
		c->val = aidl_eval(ctx, d, &bt, c->expr);
	} else if (i == 0) {
		c->val = mk_int(0, V_INT);
	} else {
		struct aidl_expr one = { .loc = c->loc, .op = 0, .lit = mk_int(0, V_INT) };
		struct aidl_value prev;

		eval_enumerator(ctx, d, i - 1);
		prev = d->consts[i - 1].val;
		if (prev.i == (bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1))
			aidl_fail(ctx, &c->loc, "enumerator '%s' overflows the backing type %s", c->name, bt.name);
		one.lit.i = prev.i + 1;
		c->val = one.lit;
	}
	c->val.wide = bits == 64;
	c->state = 2;
}

/* T[N][M] = {{...}, ...}: N rows of exactly M values each (Android's
 * std::array<std::array<T, M>, N> is filled by them), kept row-major as
 * the field's C array is. */
static void eval_2d_default(struct aidl_ctx *ctx, struct aidl_decl *d, struct aidl_field *f,
			    const struct aidl_type *et)
{
	uint32_t rows = f->type.fixed, cols = f->type.fixed2;

	f->n_defvals = (size_t)rows * cols;
	f->defvals = aidl_alloc(ctx, f->n_defvals * sizeof(*f->defvals));
	for (uint32_t r = 0; r < rows; r++) {
		const struct aidl_expr *row = f->def->elems[r];

		if (row->op != '{')
			aidl_fail(ctx, &row->loc, "row %u of %s's default must be an array {...}", r, f->name);
		if (row->n_elems != cols)
			aidl_fail(ctx, &row->loc, "row %u of %s needs %u values, not %zu", r, f->name, cols,
				  row->n_elems);
		for (uint32_t c = 0; c < cols; c++)
			f->defvals[(size_t)r * cols + c] = aidl_eval(ctx, d, et, row->elems[c]);
	}
}

void aidl_eval_decl(struct aidl_ctx *ctx, struct aidl_decl *d)
{
	for (size_t i = 0; i < d->n_consts; i++)
		(void)const_value(ctx, d, i);
	for (size_t i = 0; i < d->n_fields; i++) {
		struct aidl_field *f = &d->fields[i];
		struct aidl_type et = f->type;

		if (!f->def)
			continue;
		if (!f->type.array) {
			f->defval = aidl_eval(ctx, d, &f->type, f->def);
			continue;
		}
		/* an array default: { elements }, each of the element type;
		 * T[N] needs exactly N (Android's std::array is filled by it) */
		if (f->def->op != '{')
			aidl_fail(ctx, &f->def->loc, "the default of an array field must be an array {...}");
		if (f->type.fixed && f->def->n_elems != f->type.fixed)
			aidl_fail(ctx, &f->def->loc, "%s needs %u %s, not %zu", f->name, f->type.fixed,
				  f->type.fixed2 ? "rows" : "values", f->def->n_elems);
		et.array = false, et.list = false, et.fixed = 0, et.fixed_expr = NULL;
		et.fixed2 = 0, et.fixed2_expr = NULL;
		if (f->type.fixed2) {
			eval_2d_default(ctx, d, f, &et);
			continue;
		}
		f->n_defvals = f->def->n_elems;
		f->defvals = aidl_alloc(ctx, (f->n_defvals ? f->n_defvals : 1) * sizeof(*f->defvals));
		for (size_t j = 0; j < f->n_defvals; j++)
			f->defvals[j] = aidl_eval(ctx, d, &et, f->def->elems[j]);
	}
}
