// SPDX-License-Identifier: MIT
/*
 * AIDL types in C.  Wire encodings follow Android's C++/NDK backends:
 * scalars as bc_parcel's int32/int64/float/double (boolean, byte and char
 * widened to int32), String as String16 (also with @utf8InCpp, which only
 * changes the C++ type), IBinder and interfaces as binder objects, enums
 * as their backing type, a parcelable value as int32 1 (non-null marker)
 * followed by its body, arrays as int32 count + elements (byte[] packed).
 *
 * The text of each kind is its row of gen_kinds[] (gen_kinds.c); what is
 * here is the same for every kind: filling in a row's templates, and the
 * checks and loops around them (fixed sizes, T[N][M], @nullable).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static const char *gvar(const struct gvars *s, char c)
{
	switch (c) {
	case 'T':
		return s->T;
	case 'F':
		return s->F;
	case 'V':
		return s->V;
	case 'L':
		return s->L;
	case 'P':
		return s->P;
	case 'D':
		return s->D;
	case 'G':
		return s->G;
	case 'N':
		return s->N;
	case 'S':
		return s->S;
	case 'M':
		return s->M;
	case 'v':
		return s->V && s->V[0] == '&' ? s->V + 1 : s->V;
	default:
		return NULL;
	}
}

/* Fill in @tmpl into @out (NULL: only count); the length. */
static size_t expand(char *out, const char *tmpl, const struct gvars *s)
{
	size_t n = 0;

	for (const char *p = tmpl; *p; p++) {
		const char *v;
		size_t l;

		if (*p != '$') {
			if (out)
				out[n] = *p;
			n++;
			continue;
		}
		/* a letter the caller did not give is the generator's bug */
		v = gvar(s, *++p);
		if (!v)
			abort();
		l = strlen(v);
		if (out)
			memcpy(out + n, v, l);
		n += l;
	}
	return n;
}

const char *gen_expand(struct aidl_ctx *ctx, const struct gtype *gt, const char *tmpl, struct gvars s)
{
	size_t n;
	char *out;

	if (!s.T)
		s.T = gt->ctype;
	if (!s.F)
		s.F = gt->fn;
	n = expand(NULL, tmpl, &s);
	out = aidl_alloc(ctx, n + 1);
	expand(out, tmpl, &s);
	out[n] = '\0';
	return out;
}

void gen_emit(struct aidl_ctx *ctx, FILE *f, const char *ind, const struct gtype *gt, const char *tmpl, struct gvars s)
{
	const char *text = gen_expand(ctx, gt, tmpl, s);

	for (const char *nl; *text; text = nl + 1) {
		nl = strchr(text, '\n');
		if (!nl)
			nl = text + strlen(text);
		fprintf(f, "%s%.*s\n", ind, (int)(nl - text), text);
		if (!*nl)
			break;
	}
}

const char *gen_param(struct aidl_ctx *ctx, const struct aidl_type *t, enum aidl_dir dir, const char *name)
{
	struct gtype g = gen_type(t);
	bool in = dir == D_IN || dir == D_NONE;

	return gen_expand(ctx, &g, in || !g.row->param_out ? g.row->param_in : g.row->param_out,
			  (struct gvars){ .V = name });
}

const char *gen_ret_param(struct aidl_ctx *ctx, const struct aidl_type *t)
{
	struct gtype g = gen_type(t);

	if (t->basic == B_VOID)
		return NULL;
	return gen_expand(ctx, &g, g.row->ret, (struct gvars){ .V = "_ret" });
}

void gen_local(struct gen *g, const struct aidl_type *t, const char *name, const char *ind)
{
	struct gtype gt = gen_type(t);

	gen_emit(g->ctx, g->c, ind, &gt, gt.row->local, (struct gvars){ .V = name });
	if (gt.row->flags & GK_LEN)
		fprintf(g->c, "%ssize_t %s_len = 0;\n", ind, name);
}

/*
 * A ParcelableHolder field carries the stability of the parcelable holding
 * it (Android's generated code constructs it with STABILITY_VINTF in a
 * @VintfStability type, else STABILITY_LOCAL: Parcelable::Stability 1 and
 * 0), written first and checked on reading.
 */
static const char *holder_stability(const struct gen *g)
{
	return g->d->vintf ? "1" : "0";
}

/* What a write or read of @t names: @v the value, @len its length. */
static struct gvars io_vars(struct gen *g, const struct aidl_type *t, const char *p, const char *v, const char *len)
{
	return (struct gvars){
		.V = v, .L = len, .P = p, .N = t->nullable ? "true" : "false", .S = holder_stability(g)
	};
}

void gen_write(struct gen *g, FILE *f, const struct aidl_type *t, const char *p, const char *val, const char *len,
	       const char *ind)
{
	struct gtype gt = gen_type(t);
	struct gvars s = io_vars(g, t, p, val, len);

	if (t->nullable && t->fixed) /* @nullable T[N]: NULL, or N elements */
		fprintf(f, "%sif ((%s) && (%s) != %" PRIu32 ") {\n%s\t_r = -EINVAL;\n%s\tgoto out;\n%s}\n", ind, val,
			len, t->fixed, ind, ind, ind);
	/* @nullable: libbinder-c's writers take NULL as the null value (-1
	 * length, null binder) */
	if (t->nullable && gt.row->write_null) {
		gen_emit(g->ctx, f, ind, &gt, gt.row->write_null, s);
		fprintf(f, "%sif (_r < 0)\n%s\tgoto out;\n", ind, ind);
		return;
	}
	/* T[N]: exactly N elements, or nothing is sent (a @nullable one of
	 * a kind that is nullable itself, as @nullable P[N], was checked
	 * above: NULL is its null) */
	if (t->fixed && !t->nullable)
		fprintf(f, "%sif ((%s) != %" PRIu32 ") {\n%s\t_r = -EINVAL;\n%s\tgoto out;\n%s}\n", ind, len,
			aidl_fixed_len(t), ind, ind, ind);
	if (t->fixed2) { /* T[N][M]: int32 N, then N rows as T[M] is written */
		struct aidl_type row = *t;

		row.fixed = row.fixed2, row.fixed2 = 0;
		fprintf(f, "%s_r = bc_parcel_write_int32(%s, %" PRIu32 ");\n%sif (_r < 0)\n%s\tgoto out;\n", ind, p,
			t->fixed, ind, ind);
		fprintf(f, "%sfor (size_t _j = 0; _j < %" PRIu32 "; _j++) {\n", ind, t->fixed);
		row.fixed = 0; /* the count is checked above */
		gen_write(g, f, &row, p, aidl_printf(g->ctx, "(%s) + _j * %" PRIu32, val, t->fixed2),
			  aidl_printf(g->ctx, "%" PRIu32, t->fixed2), aidl_printf(g->ctx, "%s\t", ind));
		fprintf(f, "%s}\n", ind);
		return;
	}
	/* a value that is an address (&v->f) cannot be NULL */
	s.M = val[0] == '&' ? aidl_printf(g->ctx, "bc_parcel_write_int32(%s, 1)", p)
			    : aidl_printf(g->ctx, "%s ? bc_parcel_write_int32(%s, 1) : -EINVAL", val, p);
	gen_emit(g->ctx, f, ind, &gt, gt.row->write, s);
	fprintf(f, "%sif (_r < 0)\n%s\tgoto out;\n", ind, ind);
}

/*
 * T[N][M]: int32 N (exactly), then N rows read as T[M] (each exactly M),
 * moved into one array of N * M elements.  On failure @lv holds what was
 * read (unread String slots NULL) and @lvlen its size, for the caller to
 * free.
 */
static void gen_read_2d(struct gen *g, FILE *f, const struct aidl_type *t, const char *p, const char *lv,
			const char *lvlen, const char *ind)
{
	struct aidl_type row = *t;
	const char *in = aidl_printf(g->ctx, "%s\t", ind), *in2 = aidl_printf(g->ctx, "%s\t\t", ind);

	row.fixed = row.fixed2, row.fixed2 = 0;
	fprintf(f, "%s{\n%sint32_t _n = 0;\n\n%s_r = bc_parcel_read_int32(%s, &_n);\n", ind, in, in, p);
	fprintf(f, "%sif (_r >= 0 && _n != %" PRIu32 ")\n%s\t_r = -EBADMSG;\n", in, t->fixed, in);
	fprintf(f, "%sif (_r >= 0 && !(%s = calloc(%" PRIu32 ", sizeof(*%s))))\n%s\t_r = -ENOMEM;\n", in, lv,
		aidl_fixed_len(t), lv, in);
	fprintf(f, "%sif (_r >= 0)\n%s\t%s = %" PRIu32 ";\n", in, in, lvlen, aidl_fixed_len(t));
	fprintf(f, "%sfor (size_t _j = 0; _r >= 0 && _j < %" PRIu32 "; _j++) {\n", in, t->fixed);
	gen_local(g, &row, "_row", in2);
	fprintf(f, "\n");
	gen_read(g, f, &row, p, "_row", "_row_len", in2);
	fprintf(f, "%sif (_r >= 0)\n%s\tmemcpy(%s + _j * %" PRIu32 ", _row, %" PRIu32 " * sizeof(*_row));\n", in2,
		in2, lv, t->fixed2, t->fixed2);
	fprintf(f, "%sif (_r >= 0)\n%s\tfree(_row);\n%selse\n", in2, in2, in2);
	gen_free(g, f, &row, "_row", "_row_len", aidl_printf(g->ctx, "%s\t", in2));
	fprintf(f, "%s}\n%s}\n", in, ind);
}

void gen_read(struct gen *g, FILE *f, const struct aidl_type *t, const char *p, const char *lv, const char *lvlen,
	      const char *ind)
{
	struct gtype gt = gen_type(t);
	struct gvars s = io_vars(g, t, p, lv, lvlen);

	if (t->fixed2) {
		gen_read_2d(g, f, t, p, lv, lvlen, ind);
		return;
	}
	/* @nullable: libbinder-c's readers give NULL back for null */
	if (t->nullable && gt.row->read_null) {
		gen_emit(g->ctx, f, ind, &gt, gt.row->read_null, s);
		if (t->fixed) /* null, or N elements */
			fprintf(f, "%sif (_r >= 0 && (%s) && (%s) != %" PRIu32 ")\n%s\t_r = -EBADMSG;\n", ind, lv, lvlen,
				t->fixed, ind);
		return;
	}
	gen_emit(g->ctx, f, ind, &gt, gt.row->read, s);
	/* another length is malformed (the caller frees what was read); a
	 * @nullable one (@nullable P[N]) may also be null */
	if (t->fixed && t->nullable)
		fprintf(f, "%sif (_r >= 0 && (%s) && (%s) != %" PRIu32 ")\n%s\t_r = -EBADMSG;\n", ind, lv, lvlen,
			t->fixed, ind);
	else if (t->fixed)
		fprintf(f, "%sif (_r >= 0 && (%s) != %" PRIu32 ")\n%s\t_r = -EBADMSG;\n", ind, lvlen, aidl_fixed_len(t), ind);
}

void gen_free(struct gen *g, FILE *f, const struct aidl_type *t, const char *lv, const char *lvlen, const char *ind)
{
	struct gtype gt = gen_type(t);

	if (gt.row->free)
		gen_emit(g->ctx, f, ind, &gt, gt.row->free, (struct gvars){ .V = lv, .L = lvlen });
}

/* A C string literal: octal escapes for anything not plain ASCII. */
static const char *c_string(struct aidl_ctx *ctx, const char *s, size_t n)
{
	char *out = aidl_alloc(ctx, n * 4 + 3), *o = out;

	*o++ = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			*o++ = '\\', *o++ = (char)c;
		else if (c >= 0x20 && c < 0x7f && c != '?')
			*o++ = (char)c;
		else
			o += sprintf(o, "\\%03o", c);
	}
	*o++ = '"';
	*o = '\0';
	return out;
}

/* A floating literal that reads back to the same value. */
static const char *c_double(struct aidl_ctx *ctx, double d, bool is_float)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.17g", d);
	if (!strpbrk(buf, ".eE"))
		strcat(buf, ".0");
	return aidl_printf(ctx, "%s%s", buf, is_float ? "f" : "");
}

const char *gen_literal(struct aidl_ctx *ctx, const struct aidl_type *t, const struct aidl_value *v)
{
	switch (t->basic) {
	case B_BOOLEAN:
		return v->i ? "true" : "false";
	case B_BYTE:
		return aidl_printf(ctx, "((int8_t)%" PRId64 ")", v->i);
	case B_CHAR:
		return aidl_printf(ctx, "((uint16_t)0x%04" PRIx64 ")", (uint64_t)v->i);
	case B_INT:
		return v->i == INT32_MIN ? "INT32_MIN" : aidl_printf(ctx, "((int32_t)%" PRId64 ")", v->i);
	case B_LONG:
		return v->i == INT64_MIN ? "INT64_MIN" : aidl_printf(ctx, "INT64_C(%" PRId64 ")", v->i);
	case B_FLOAT:
		return c_double(ctx, (float)v->d, true);
	case B_DOUBLE:
		return c_double(ctx, v->d, false);
	case B_STRING:
		return c_string(ctx, v->s, v->slen);
	case B_USER: /* an enumerator */
		if (t->decl->backing == B_LONG)
			return v->i == INT64_MIN ? "INT64_MIN"
						 : aidl_printf(ctx, "((%s)INT64_C(%" PRId64 "))", t->decl->cname, v->i);
		return aidl_printf(ctx, "((%s)%" PRId64 ")", t->decl->cname, v->i);
	default:
		return "0";
	}
}
