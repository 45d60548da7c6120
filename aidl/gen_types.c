// SPDX-License-Identifier: MIT
/*
 * AIDL types in C.  Wire encodings follow Android's C++/NDK backends:
 * scalars as bc_parcel's int32/int64/float/double (boolean, byte and char
 * widened to int32), String as String16 (also with @utf8InCpp, which only
 * changes the C++ type), IBinder and interfaces as binder objects, enums
 * as their backing type, a parcelable value as int32 1 (non-null marker)
 * followed by its body, arrays as int32 count + elements (byte[] packed).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "gen.h"

struct gtype gen_type(const struct aidl_type *t)
{
	static const struct {
		const char *ctype, *fn;
	} sc[] = {
		[B_BOOLEAN] = { "bool", "bool" },   [B_BYTE] = { "int8_t", "byte" },
		[B_CHAR] = { "uint16_t", "char" },  [B_INT] = { "int32_t", "int32" },
		[B_LONG] = { "int64_t", "int64" },  [B_FLOAT] = { "float", "float" },
		[B_DOUBLE] = { "double", "double" },
	};
	struct gtype g = { 0 };

	switch (t->basic) {
	case B_STRING:
		g.k = t->array ? G_STRV : G_STRING;
		g.ctype = "char *";
		break;
	case B_IBINDER:
		g.k = t->array ? G_BINDERV : G_BINDER;
		g.ctype = "bc_binder *";
		break;
	case B_FD:
	case B_PFD:
		g.k = t->basic == B_FD ? G_FD : t->array ? G_PFDV : G_PFD;
		g.ctype = "int";
		break;
	case B_HOLDER:
		g.k = G_HOLDER;
		g.ctype = "bcaidl_parcelable_holder";
		break;
	case B_USER:
		g.decl = t->decl;
		g.ctype = t->decl->cname;
		if (t->array && t->decl->kind == K_ENUM) {
			/* Android writes an enum array as an array of its backing type:
			 * byte[] (packed), int[] or long[] */
			g.k = t->decl->backing == B_BYTE ? G_BYTES : G_ARRAY;
			g.fn = t->decl->backing == B_BYTE ? "byte" : t->decl->backing == B_INT ? "int32" : "int64";
			break;
		}
		if (t->array && t->decl->kind == K_PARCELABLE) {
			/* Android's std::optional<std::vector<std::optional<P>>>:
			 * both the array and each element may be null */
			g.k = t->nullable ? G_NPARRAY : G_PARRAY;
			break;
		}
		if (!t->array && t->nullable && t->decl->kind == K_PARCELABLE) {
			g.k = G_NPARCEL;
			break;
		}
		if (t->array && t->decl->kind == K_INTERFACE) {
			g.k = G_BINDERV;
			g.ctype = "bc_binder *";
			break;
		}
		g.k = t->decl->kind == K_ENUM ? G_ENUM : t->decl->kind == K_PARCELABLE ? G_PARCEL : G_BINDER;
		if (g.k == G_BINDER)
			g.ctype = "bc_binder *";
		break;
	default:
		g.ctype = sc[t->basic].ctype;
		g.fn = sc[t->basic].fn;
		g.k = !t->array ? G_SCALAR : t->basic == B_BYTE ? G_BYTES : G_ARRAY;
		break;
	}
	return g;
}

const char *gen_param(struct aidl_ctx *ctx, const struct aidl_type *t, enum aidl_dir dir, const char *name)
{
	struct gtype g = gen_type(t);
	bool in = dir == D_IN || dir == D_NONE;

	switch (g.k) {
	case G_SCALAR:
	case G_ENUM:
	case G_FD:
	case G_PFD:
		return aidl_printf(ctx, "%s %s", g.ctype, name);
	case G_STRING:
		return aidl_printf(ctx, "const char *%s", name);
	case G_BINDER:
		return aidl_printf(ctx, "bc_binder *%s", name);
	case G_HOLDER: /* never a parameter (refused) */
	case G_PARCEL:
	case G_NPARCEL: /* out/inout nullable parcelables are refused */
		return aidl_printf(ctx, "%s%s *%s", in ? "const " : "", g.ctype, name);
	case G_ARRAY:
	case G_BYTES:
		return in ? aidl_printf(ctx, "const %s *%s, size_t %s_len", g.ctype, name, name)
			  : aidl_printf(ctx, "%s **%s, size_t *%s_len", g.ctype, name, name);
	case G_STRV:
		return in ? aidl_printf(ctx, "const char *const *%s, size_t %s_len", name, name)
			  : aidl_printf(ctx, "char ***%s, size_t *%s_len", name, name);
	case G_PARRAY:
		return in ? aidl_printf(ctx, "const %s *%s, size_t %s_len", g.ctype, name, name)
			  : aidl_printf(ctx, "%s **%s, size_t *%s_len", g.ctype, name, name);
	case G_BINDERV:
		return in ? aidl_printf(ctx, "bc_binder *const *%s, size_t %s_len", name, name)
			  : aidl_printf(ctx, "bc_binder ***%s, size_t *%s_len", name, name);
	case G_NPARRAY: /* out/inout nullable arrays are refused */
		return aidl_printf(ctx, "const %s *const *%s, size_t %s_len", g.ctype, name, name);
	case G_PFDV: /* out/inout fds are refused */
		return aidl_printf(ctx, "const int *%s, size_t %s_len", name, name);
	}
	return "";
}

const char *gen_ret_param(struct aidl_ctx *ctx, const struct aidl_type *t)
{
	struct gtype g = gen_type(t);

	if (t->basic == B_VOID)
		return NULL;
	switch (g.k) {
	case G_SCALAR:
	case G_ENUM:
	case G_PARCEL:
	case G_FD:
	case G_PFD:
	case G_HOLDER: /* never a return type (refused) */
		return aidl_printf(ctx, "%s *_ret", g.ctype);
	case G_STRING:
		return "char **_ret";
	case G_BINDER:
		return "bc_binder **_ret";
	case G_ARRAY:
	case G_BYTES:
	case G_PARRAY:
		return aidl_printf(ctx, "%s **_ret, size_t *_ret_len", g.ctype);
	case G_STRV:
		return "char ***_ret, size_t *_ret_len";
	case G_BINDERV:
		return "bc_binder ***_ret, size_t *_ret_len";
	case G_NPARCEL:
		return aidl_printf(ctx, "%s **_ret", g.ctype);
	case G_NPARRAY:
		return aidl_printf(ctx, "%s ***_ret, size_t *_ret_len", g.ctype);
	case G_PFDV:
		return "int **_ret, size_t *_ret_len";
	}
	return NULL;
}

void gen_local(struct gen *g, const struct aidl_type *t, const char *name, const char *ind)
{
	struct gtype gt = gen_type(t);
	FILE *f = g->c;

	switch (gt.k) {
	case G_SCALAR:
	case G_ENUM:
		fprintf(f, "%s%s %s = 0;\n", ind, gt.ctype, name);
		break;
	case G_STRING:
		fprintf(f, "%schar *%s = NULL;\n", ind, name);
		break;
	case G_FD:
	case G_PFD:
		fprintf(f, "%sint %s = -1;\n", ind, name);
		break;
	case G_BINDER:
		fprintf(f, "%sbc_binder *%s = NULL;\n", ind, name);
		break;
	case G_PARCEL:
		fprintf(f, "%s%s %s;\n", ind, gt.ctype, name);
		break;
	case G_HOLDER:
		fprintf(f, "%s%s %s = { NULL, 0 };\n", ind, gt.ctype, name);
		break;
	case G_ARRAY:
	case G_BYTES:
	case G_PARRAY:
		fprintf(f, "%s%s *%s = NULL;\n%ssize_t %s_len = 0;\n", ind, gt.ctype, name, ind, name);
		break;
	case G_STRV:
		fprintf(f, "%schar **%s = NULL;\n%ssize_t %s_len = 0;\n", ind, name, ind, name);
		break;
	case G_BINDERV:
		fprintf(f, "%sbc_binder **%s = NULL;\n%ssize_t %s_len = 0;\n", ind, name, ind, name);
		break;
	case G_NPARCEL:
		fprintf(f, "%s%s *%s = NULL;\n", ind, gt.ctype, name);
		break;
	case G_NPARRAY:
		fprintf(f, "%s%s **%s = NULL;\n%ssize_t %s_len = 0;\n", ind, gt.ctype, name, ind, name);
		break;
	case G_PFDV:
		fprintf(f, "%sint *%s = NULL;\n%ssize_t %s_len = 0;\n", ind, name, ind, name);
		break;
	}
}

/* @nullable: libbinder-c's writers take NULL as the null value (-1
 * length, null binder) and its readers give NULL back for it.  A nullable
 * String[] also has nullable elements, as in Android's C++ backend. */
static bool gen_write_nullable(FILE *f, const struct gtype *gt, const char *p, const char *val, const char *len,
			       const char *ind)
{
	switch (gt->k) {
	case G_STRING:
		fprintf(f, "%s_r = bc_parcel_write_string16(%s, %s);\n", ind, p, val);
		return true;
	case G_BINDER:
		fprintf(f, "%s_r = bc_parcel_write_binder(%s, %s);\n", ind, p, val);
		return true;
	case G_ARRAY:
		fprintf(f, "%s_r = bc_parcel_write_%s_array(%s, %s, %s);\n", ind, gt->fn, p, val, len);
		return true;
	case G_BYTES:
		fprintf(f, "%s_r = bc_parcel_write_byte_array(%s, %s, %s);\n", ind, p, val, len);
		return true;
	case G_STRV:
		fprintf(f, "%s_r = bc_parcel_write_string16_array(%s, (const char *const *)%s, %s);\n", ind, p, val, len);
		return true;
	case G_BINDERV: /* NULL elements too, as Android's nullable vector */
		fprintf(f, "%s_r = bcaidl_write_binderv_nullable(%s, (bc_binder *const *)%s, %s);\n", ind, p, val, len);
		return true;
	default:
		return false;
	}
}

static bool gen_read_nullable(FILE *f, const struct gtype *gt, const char *p, const char *lv, const char *lvlen,
			      const char *ind)
{
	switch (gt->k) {
	case G_STRING:
		fprintf(f, "%s_r = bc_parcel_read_string16(%s, &%s, NULL);\n", ind, p, lv);
		return true;
	case G_BINDER:
		fprintf(f, "%s_r = bc_parcel_read_binder(%s, &%s);\n", ind, p, lv);
		return true;
	case G_ARRAY:
		fprintf(f, "%s_r = bc_parcel_read_%s_array(%s, &%s, &%s);\n", ind, gt->fn, p, lv, lvlen);
		return true;
	case G_BYTES:
		fprintf(f, "%s_r = bcaidl_read_bytes_nullable(%s, &%s, &%s);\n", ind, p, lv, lvlen);
		return true;
	case G_STRV:
		fprintf(f, "%s_r = bc_parcel_read_string16_array(%s, &%s, &%s);\n", ind, p, lv, lvlen);
		return true;
	case G_BINDERV:
		fprintf(f, "%s_r = bcaidl_read_binderv_nullable(%s, &%s, &%s);\n", ind, p, lv, lvlen);
		return true;
	default:
		return false;
	}
}

/*
 * A ParcelableHolder field carries the stability of the parcelable holding
 * it (Android's generated code constructs it with STABILITY_VINTF in a
 * @VintfStability type, else STABILITY_LOCAL: Parcelable::Stability 1 and
 * 0), written first and checked on reading.
 */
static int holder_stability(const struct gen *g)
{
	return g->d->vintf ? 1 : 0;
}

void gen_write(struct gen *g, FILE *f, const struct aidl_type *t, const char *p, const char *val, const char *len,
	       const char *ind)
{
	struct gtype gt = gen_type(t);

	(void)g;
	if (t->nullable && t->fixed) /* @nullable T[N]: NULL, or N elements */
		fprintf(f, "%sif ((%s) && (%s) != %" PRIu32 ") {\n%s\t_r = -EINVAL;\n%s\tgoto out;\n%s}\n", ind, val, len,
			t->fixed, ind, ind, ind);
	if (t->nullable && gen_write_nullable(f, &gt, p, val, len, ind)) {
		fprintf(f, "%sif (_r < 0)\n%s\tgoto out;\n", ind, ind);
		return;
	}
	if (t->fixed) /* T[N]: exactly N elements, or nothing is sent */
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
	switch (gt.k) {
	case G_SCALAR:
		fprintf(f, "%s_r = bc_parcel_write_%s(%s, %s);\n", ind, gt.fn, p, val);
		break;
	case G_ENUM:
		fprintf(f, "%s_r = %s_write(%s, %s);\n", ind, gt.ctype, p, val);
		break;
	case G_STRING:
		fprintf(f, "%s_r = bcaidl_write_str(%s, %s);\n", ind, p, val);
		break;
	case G_BINDER:
		fprintf(f, "%s_r = bcaidl_write_binder(%s, %s);\n", ind, p, val);
		break;
	case G_PARCEL:
		/* A value that is an address (&v->f) cannot be NULL. */
		if (val[0] == '&')
			fprintf(f, "%s_r = bc_parcel_write_int32(%s, 1); /* non-null marker */\n", ind, p);
		else
			fprintf(f, "%s_r = %s ? bc_parcel_write_int32(%s, 1) : -EINVAL; /* non-null marker */\n", ind,
				val, p);
		fprintf(f, "%sif (_r == 0)\n%s\t_r = %s_write(%s, %s);\n", ind, ind, gt.ctype, p, val);
		break;
	case G_ARRAY:
		fprintf(f, "%s_r = bcaidl_write_%s_array(%s, %s, %s);\n", ind, gt.fn, p, val, len);
		break;
	case G_BYTES:
		fprintf(f, "%s_r = bcaidl_write_bytes(%s, %s, %s);\n", ind, p, val, len);
		break;
	case G_STRV:
		fprintf(f, "%s_r = bcaidl_write_strv(%s, (const char *const *)%s, %s);\n", ind, p, val, len);
		break;
	case G_FD:
		fprintf(f, "%s_r = bcaidl_write_fd(%s, %s);\n", ind, p, val);
		break;
	case G_PARRAY:
		fprintf(f, "%s_r = %s_write_array(%s, %s, %s);\n", ind, gt.ctype, p, val, len);
		break;
	case G_NPARCEL:
		fprintf(f, "%s_r = %s_write_nullable(%s, %s);\n", ind, gt.ctype, p, val[0] == '&' ? val + 1 : val);
		break;
	case G_BINDERV:
		fprintf(f, "%s_r = bcaidl_write_binderv(%s, (bc_binder *const *)%s, %s);\n", ind, p, val, len);
		break;
	case G_PFD:
		fprintf(f, "%s_r = bcaidl_write_pfd(%s, %s, %s);\n", ind, p, val, t->nullable ? "true" : "false");
		break;
	case G_NPARRAY:
		fprintf(f, "%s_r = %s_write_nullable_array(%s, (const %s *const *)%s, %s);\n", ind, gt.ctype, p,
			gt.ctype, val, len);
		break;
	case G_PFDV:
		fprintf(f, "%s_r = bcaidl_write_pfdv(%s, %s, %s, %s);\n", ind, p, val, len,
			t->nullable ? "true" : "false");
		break;
	case G_HOLDER:
		fprintf(f, "%s_r = bcaidl_write_holder(%s, (%s).data, (%s).len, %d);\n", ind, p, val, val,
			holder_stability(g));
		break;
	}
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
	struct gtype gt = gen_type(t);
	struct aidl_type row = *t;
	const char *et = gt.k == G_STRV ? "char *" : aidl_printf(g->ctx, "%s ", gt.ctype);
	const char *in = aidl_printf(g->ctx, "%s\t", ind), *in2 = aidl_printf(g->ctx, "%s\t\t", ind);

	row.fixed = row.fixed2, row.fixed2 = 0;
	fprintf(f, "%s{\n%sint32_t _n = 0;\n\n%s_r = bc_parcel_read_int32(%s, &_n);\n", ind, in, in, p);
	fprintf(f, "%sif (_r >= 0 && _n != %" PRIu32 ")\n%s\t_r = -EBADMSG;\n", in, t->fixed, in);
	fprintf(f, "%sif (_r >= 0 && !(%s = calloc(%" PRIu32 ", sizeof(*%s))))\n%s\t_r = -ENOMEM;\n", in, lv,
		aidl_fixed_len(t), lv, in);
	fprintf(f, "%sif (_r >= 0)\n%s\t%s = %" PRIu32 ";\n", in, in, lvlen, aidl_fixed_len(t));
	fprintf(f, "%sfor (size_t _j = 0; _r >= 0 && _j < %" PRIu32 "; _j++) {\n", in, t->fixed);
	fprintf(f, "%s%s*_row = NULL;\n%ssize_t _row_len = 0;\n\n", in2, et, in2);
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

	(void)g;
	if (t->fixed2) {
		gen_read_2d(g, f, t, p, lv, lvlen, ind);
		return;
	}
	if (t->nullable && gen_read_nullable(f, &gt, p, lv, lvlen, ind)) {
		if (t->fixed) /* null, or N elements */
			fprintf(f, "%sif (_r >= 0 && (%s) && (%s) != %" PRIu32 ")\n%s\t_r = -EBADMSG;\n", ind, lv, lvlen,
				t->fixed, ind);
		return;
	}
	switch (gt.k) {
	case G_SCALAR:
		fprintf(f, "%s_r = bc_parcel_read_%s(%s, &%s);\n", ind, gt.fn, p, lv);
		break;
	case G_ENUM:
		fprintf(f, "%s_r = %s_read(%s, &%s);\n", ind, gt.ctype, p, lv);
		break;
	case G_STRING:
		fprintf(f, "%s_r = bcaidl_read_str(%s, &%s);\n", ind, p, lv);
		break;
	case G_BINDER:
		fprintf(f, "%s_r = bcaidl_read_binder(%s, &%s);\n", ind, p, lv);
		break;
	case G_PARCEL:
		/* The body reader initialises @lv, and clears it on failure. */
		fprintf(f, "%s_r = bcaidl_read_marker(%s);\n%sif (_r == 0)\n%s\t_r = %s_read(%s, &%s);\n", ind, p, ind, ind,
			gt.ctype, p, lv);
		break;
	case G_ARRAY:
		fprintf(f, "%s_r = bcaidl_read_%s_array(%s, &%s, &%s);\n", ind, gt.fn, p, lv, lvlen);
		break;
	case G_BYTES:
		fprintf(f, "%s_r = bcaidl_read_bytes(%s, &%s, &%s);\n", ind, p, lv, lvlen);
		break;
	case G_STRV:
		fprintf(f, "%s_r = bcaidl_read_strv(%s, &%s, &%s);\n", ind, p, lv, lvlen);
		break;
	case G_FD:
		fprintf(f, "%s_r = bc_parcel_read_dup_fd(%s, &%s);\n", ind, p, lv);
		break;
	case G_PARRAY:
		fprintf(f, "%s_r = %s_read_array(%s, &%s, &%s);\n", ind, gt.ctype, p, lv, lvlen);
		break;
	case G_BINDERV:
		fprintf(f, "%s_r = bcaidl_read_binderv(%s, &%s, &%s);\n", ind, p, lv, lvlen);
		break;
	case G_NPARCEL:
		fprintf(f, "%s_r = %s_read_nullable(%s, &%s);\n", ind, gt.ctype, p, lv);
		break;
	case G_PFD:
		fprintf(f, "%s_r = bcaidl_read_pfd(%s, &%s, %s);\n", ind, p, lv, t->nullable ? "true" : "false");
		break;
	case G_NPARRAY:
		fprintf(f, "%s_r = %s_read_nullable_array(%s, &%s, &%s);\n", ind, gt.ctype, p, lv, lvlen);
		break;
	case G_PFDV:
		fprintf(f, "%s_r = bcaidl_read_pfdv(%s, &%s, &%s, %s);\n", ind, p, lv, lvlen,
			t->nullable ? "true" : "false");
		break;
	case G_HOLDER:
		fprintf(f, "%s_r = bcaidl_read_holder(%s, &(%s).data, &(%s).len, %d);\n", ind, p, lv, lv,
			holder_stability(g));
		break;
	}
	if (t->fixed) /* another length is malformed; the caller frees what was read */
		fprintf(f, "%sif (_r >= 0 && (%s) != %" PRIu32 ")\n%s\t_r = -EBADMSG;\n", ind, lvlen, aidl_fixed_len(t), ind);
}

void gen_free(struct gen *g, FILE *f, const struct aidl_type *t, const char *lv, const char *lvlen, const char *ind)
{
	struct gtype gt = gen_type(t);

	(void)g;
	switch (gt.k) {
	case G_SCALAR:
	case G_ENUM:
		break;
	case G_STRING:
	case G_ARRAY:
	case G_BYTES:
		fprintf(f, "%sfree(%s);\n", ind, lv);
		break;
	case G_BINDER:
		fprintf(f, "%sbc_binder_unref(%s);\n", ind, lv);
		break;
	case G_PARCEL:
		fprintf(f, "%s%s_clear(&%s);\n", ind, gt.ctype, lv);
		break;
	case G_STRV:
		fprintf(f, "%sbc_strv_free(%s, %s);\n", ind, lv, lvlen);
		break;
	case G_FD:
	case G_PFD:
		fprintf(f, "%sif (%s >= 0)\n%s\tclose(%s);\n", ind, lv, ind, lv);
		break;
	case G_PARRAY:
		fprintf(f, "%s%s_free_array(%s, %s);\n", ind, gt.ctype, lv, lvlen);
		break;
	case G_BINDERV:
		fprintf(f, "%sbcaidl_free_binderv(%s, %s);\n", ind, lv, lvlen);
		break;
	case G_NPARCEL:
		fprintf(f, "%s%s_free(%s);\n", ind, gt.ctype, lv);
		break;
	case G_NPARRAY:
		fprintf(f, "%s%s_free_nullable_array(%s, %s);\n", ind, gt.ctype, lv, lvlen);
		break;
	case G_PFDV:
		fprintf(f, "%sbcaidl_free_pfdv(%s, %s);\n", ind, lv, lvlen);
		break;
	case G_HOLDER:
		fprintf(f, "%sfree((%s).data);\n", ind, lv);
		break;
	}
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
