// SPDX-License-Identifier: MIT
/*
 * What the generator knows about each kind of AIDL value, one row a kind.
 *
 * Every place that writes C for a value (a parameter, a struct member, a
 * local, a parcel read or write, a free) takes its text from the kind's
 * row instead of switching on the kind, so a kind is added as a row and
 * its whole C shape can be read in one place.  The templates' $ letters
 * are listed in gen.h; gen_types.c fills them in.
 *
 * gen_type() is the other half: which row an AIDL type is.
 */
#include "gen.h"

/* Parameters, return out-parameters, locals and members: a value and,
 * for GK_LEN kinds, a size_t NAME_len beside it. */
#define LEN_IN(ptr) ptr "$V, size_t $V_len"
#define LEN_OUT(ptr) ptr "$V, size_t *$V_len"

const struct gkind_row gen_kinds[G_NKINDS] = {
	[G_SCALAR] = {
		.param_in = "$T $V",
		.ret = "$T *$V",
		.local = "$T $V = 0;",
		.member = "$T $V;",
		.write = "_r = bc_parcel_write_$F($P, $V);",
		.read = "_r = bc_parcel_read_$F($P, &$V);",
		.arg = "$V",
	},
	[G_ENUM] = {
		.param_in = "$T $V",
		.ret = "$T *$V",
		.local = "$T $V = 0;",
		.member = "$T $V;",
		.write = "_r = $T_write($P, $V);",
		.read = "_r = $T_read($P, &$V);",
		.arg = "$V",
	},
	[G_STRING] = {
		.param_in = "const char *$V",
		.ret = "char **$V",
		.local = "char *$V = NULL;",
		.member = "char *$V;",
		.write = "_r = bcaidl_write_str($P, $V);",
		.read = "_r = bcaidl_read_str($P, &$V);",
		.write_null = "_r = bc_parcel_write_string16($P, $V);",
		.read_null = "_r = bc_parcel_read_string16($P, &$V, NULL);",
		.free = "free($V);",
		/* a non-null String starts as "" (a @nullable one as null) */
		.init = "$V = bcaidl_strdup($D);\nif (!$V)\n\tgoto $G;",
		.dflt = "\"\"",
		.arg = "$V",
		.flags = GK_SWAP,
	},
	[G_BINDER] = {
		.param_in = "bc_binder *$V",
		.ret = "bc_binder **$V",
		.local = "bc_binder *$V = NULL;",
		.member = "bc_binder *$V;",
		.write = "_r = bcaidl_write_binder($P, $V);",
		.read = "_r = bcaidl_read_binder($P, &$V);",
		.write_null = "_r = bc_parcel_write_binder($P, $V);",
		.read_null = "_r = bc_parcel_read_binder($P, &$V);",
		.free = "bc_binder_unref($V);",
		.arg = "$V",
	},
	[G_PARCEL] = {
		.param_in = "const $T *$V",
		.param_out = "$T *$V",
		.ret = "$T *$V",
		/* no initialiser: $T_zero() comes after the declarations */
		.local = "$T $V;",
		.member = "$T $V;",
		.write = "_r = $M; /* non-null marker */\nif (_r == 0)\n\t_r = $T_write($P, $V);",
		/* the body reader initialises $V, and clears it on failure */
		.read = "_r = bcaidl_read_marker($P);\nif (_r == 0)\n\t_r = $T_read($P, &$V);",
		.free = "$T_clear(&$V);",
		.reset = "$T_zero(&$V);",
		.init = "_r = $T_init(&$V);\nif (_r < 0)\n\tgoto $G;",
		.arg = "&$V",
		.flags = GK_ADDR | GK_INIT_R,
	},
	[G_ARRAY] = {
		.param_in = LEN_IN("const $T *"),
		.param_out = LEN_OUT("$T **"),
		.ret = LEN_OUT("$T **"),
		.local = "$T *$V = NULL;",
		.member = "$T *$V;",
		.write = "_r = bcaidl_write_$F_array($P, $V, $L);",
		.read = "_r = bcaidl_read_$F_array($P, &$V, &$L);",
		.write_null = "_r = bc_parcel_write_$F_array($P, $V, $L);",
		.read_null = "_r = bc_parcel_read_$F_array($P, &$V, &$L);",
		.free = "free($V);",
		.arg = "$V, $L",
		.flags = GK_LEN,
	},
	[G_BYTES] = {
		.param_in = LEN_IN("const $T *"),
		.param_out = LEN_OUT("$T **"),
		.ret = LEN_OUT("$T **"),
		.local = "$T *$V = NULL;",
		.member = "$T *$V;",
		.write = "_r = bcaidl_write_bytes($P, $V, $L);",
		.read = "_r = bcaidl_read_bytes($P, &$V, &$L);",
		.write_null = "_r = bc_parcel_write_byte_array($P, $V, $L);",
		.read_null = "_r = bcaidl_read_bytes_nullable($P, &$V, &$L);",
		.free = "free($V);",
		.arg = "$V, $L",
		.flags = GK_LEN,
	},
	[G_STRV] = {
		.param_in = LEN_IN("const char *const *"),
		.param_out = LEN_OUT("char ***"),
		.ret = LEN_OUT("char ***"),
		.local = "char **$V = NULL;",
		.member = "char **$V;",
		.write = "_r = bcaidl_write_strv($P, (const char *const *)$V, $L);",
		.read = "_r = bcaidl_read_strv($P, &$V, &$L);",
		/* a @nullable String[] has nullable elements too, as in
		 * Android's C++ backend */
		.write_null = "_r = bc_parcel_write_string16_array($P, (const char *const *)$V, $L);",
		.read_null = "_r = bc_parcel_read_string16_array($P, &$V, &$L);",
		.free = "bc_strv_free($V, $L);",
		.dflt = "\"\"",
		.elem_set = "if (!($V = bcaidl_strdup($D)))\n\tgoto nomem;",
		.new_n = "_r = bcaidl_strv_new($L, &$V);\nif (_r < 0)\n\tgoto $G;",
		.arg = "(const char *const *)$V, $L",
		.flags = GK_LEN,
	},
	[G_FD] = {
		.param_in = "$T $V",
		.ret = "$T *$V",
		.local = "int $V = -1;",
		.member = "int $V; /* owned; -1: none */",
		.write = "_r = bcaidl_write_fd($P, $V);",
		.read = "_r = bc_parcel_read_dup_fd($P, &$V);",
		.free = "if ($V >= 0)\n\tclose($V);",
		.reset = "$V = -1;",
		.arg = "$V",
	},
	[G_PFD] = {
		.param_in = "$T $V",
		/* out: the received fd (owned); inout: the caller's, closed and
		 * replaced by the received one when the call succeeds */
		.param_out = "$T *$V",
		.ret = "$T *$V",
		.local = "int $V = -1;",
		.member = "int $V; /* owned; -1: none */",
		/* $N: null is allowed (int32 0) */
		.write = "_r = bcaidl_write_pfd($P, $V, $N);",
		.read = "_r = bcaidl_read_pfd($P, &$V, $N);",
		.free = "if ($V >= 0)\n\tclose($V);",
		.reset = "$V = -1;",
		.arg = "$V",
	},
	[G_PARRAY] = {
		.param_in = LEN_IN("const $T *"),
		.param_out = LEN_OUT("$T **"),
		.ret = LEN_OUT("$T **"),
		.local = "$T *$V = NULL;",
		/* the struct tag: the element type may be this one */
		.member = "struct $T *$V;",
		.write = "_r = $T_write_array($P, $V, $L);",
		.read = "_r = $T_read_array($P, &$V, &$L);",
		.free = "$T_free_array($V, $L);",
		.new_n = "_r = $T_new_array($L, &$V);\nif (_r < 0)\n\tgoto $G;",
		.fixed_new = "if ($T_new_array($L, &$V) < 0)\n\tgoto nomem;\n$V_len = $L;",
		.arg = "$V, $L",
		.flags = GK_LEN,
	},
	[G_BINDERV] = {
		.param_in = LEN_IN("bc_binder *const *"),
		.param_out = LEN_OUT("bc_binder ***"),
		.ret = LEN_OUT("bc_binder ***"),
		.local = "bc_binder **$V = NULL;",
		.member = "bc_binder **$V;",
		.write = "_r = bcaidl_write_binderv($P, (bc_binder *const *)$V, $L);",
		.read = "_r = bcaidl_read_binderv($P, &$V, &$L);",
		/* NULL elements too, as Android's nullable vector */
		.write_null = "_r = bcaidl_write_binderv_nullable($P, (bc_binder *const *)$V, $L);",
		.read_null = "_r = bcaidl_read_binderv_nullable($P, &$V, &$L);",
		.free = "bcaidl_free_binderv($V, $L);",
		.arg = "$V, $L",
		.flags = GK_LEN,
	},
	[G_NPARCEL] = {
		.param_in = "const $T *$V",
		/* out/inout: the caller's heap pointer (NULL = null); the proxy
		 * frees an inout one and hands over what came back */
		.param_out = "$T **$V",
		.ret = "$T **$V",
		.local = "$T *$V = NULL;",
		/* heap-allocated, NULL for null */
		.member = "struct $T *$V;",
		/* $v: a field's address &v->f is the pointer itself */
		.write = "_r = $T_write_nullable($P, $v);",
		.read = "_r = $T_read_nullable($P, &$V);",
		.free = "$T_free($V);",
		.arg = "$V",
	},
	[G_NPARRAY] = {
		.param_in = LEN_IN("const $T *const *"),
		.param_out = LEN_OUT("$T ***"),
		.ret = LEN_OUT("$T ***"),
		.local = "$T **$V = NULL;",
		/* NULL for null; each element NULL or malloc'd */
		.member = "struct $T **$V;",
		.write = "_r = $T_write_nullable_array($P, (const $T *const *)$V, $L);",
		.read = "_r = $T_read_nullable_array($P, &$V, &$L);",
		.free = "$T_free_nullable_array($V, $L);",
		.arg = "(const $T *const *)$V, $L",
		.flags = GK_LEN,
	},
	[G_PFDV] = {
		.param_in = LEN_IN("const int *"),
		.param_out = LEN_OUT("int **"),
		.ret = LEN_OUT("int **"),
		.local = "int *$V = NULL;",
		.member = "int *$V; /* owned; -1: null element */",
		.write = "_r = bcaidl_write_pfdv($P, $V, $L, $N);",
		.read = "_r = bcaidl_read_pfdv($P, &$V, &$L, $N);",
		.free = "bcaidl_free_pfdv($V, $L);",
		/* N invalid fds, as std::array<ScopedFileDescriptor, N> */
		.dflt = "-1",
		/* an out array in a stub: $L fds -1, for the implementation to fill */
		.new_n = "_r = bcaidl_pfdv_new($L, &$V);\nif (_r < 0)\n\tgoto $G;",
		.arg = "$V, $L",
		.flags = GK_LEN,
	},
	[G_FDV] = {
		/* Android's std::vector<unique_fd> (writeUniqueFileDescriptorVector):
		 * int32 count, then each fd as FileDescriptor (no marker, unlike
		 * ParcelFileDescriptor[]); no null elements, NULL for a @nullable
		 * null array ($N) */
		.param_in = LEN_IN("const int *"),
		.param_out = LEN_OUT("int **"),
		.ret = LEN_OUT("int **"),
		.local = "int *$V = NULL;",
		.member = "int *$V; /* owned */",
		.write = "_r = bcaidl_write_fdv($P, $V, $L, $N);",
		.read = "_r = bcaidl_read_fdv($P, &$V, &$L, $N);",
		.free = "bcaidl_free_pfdv($V, $L);",
		.dflt = "-1",
		.new_n = "_r = bcaidl_pfdv_new($L, &$V);\nif (_r < 0)\n\tgoto $G;",
		.arg = "$V, $L",
		.flags = GK_LEN,
	},
	[G_HOLDER] = {
		/* a parcelable's field only: never a parameter or a return value */
		.param_in = "const $T *$V",
		.param_out = "$T *$V",
		.ret = "$T *$V",
		.local = "$T $V = { NULL, 0 };",
		.member = "$T $V;",
		/* $S: the stability of the parcelable holding it */
		.write = "_r = bcaidl_write_holder($P, ($V).data, ($V).len, $S);",
		.read = "_r = bcaidl_read_holder($P, &($V).data, &($V).len, $S);",
		.free = "free(($V).data);",
		.arg = "$V",
	},
};

struct gtype gen_type(const struct aidl_type *t)
{
	static const struct {
		const char *ctype, *fn;
	} sc[] = {
		[B_BOOLEAN] = { "bool", "bool" },    [B_BYTE] = { "int8_t", "byte" },
		[B_CHAR] = { "uint16_t", "char" },   [B_INT] = { "int32_t", "int32" },
		[B_LONG] = { "int64_t", "int64" },   [B_FLOAT] = { "float", "float" },
		[B_DOUBLE] = { "double", "double" },
	};
	struct gtype g = { 0 };
	enum gkind k;

	switch (t->basic) {
	case B_STRING:
		k = t->array ? G_STRV : G_STRING;
		g.ctype = "char *";
		break;
	case B_IBINDER:
		k = t->array ? G_BINDERV : G_BINDER;
		g.ctype = "bc_binder *";
		break;
	case B_FD:
	case B_PFD:
		k = t->basic == B_FD ? (t->array ? G_FDV : G_FD) : t->array ? G_PFDV : G_PFD;
		g.ctype = "int";
		break;
	case B_HOLDER:
		k = G_HOLDER;
		g.ctype = "bcaidl_parcelable_holder";
		break;
	case B_USER:
		g.decl = t->decl;
		g.ctype = t->decl->cname;
		if (t->decl->kind == K_INTERFACE) {
			k = t->array ? G_BINDERV : G_BINDER;
			g.ctype = "bc_binder *";
		} else if (t->decl->kind == K_ENUM && t->array) {
			/* Android writes an enum array as an array of its backing type:
			 * byte[] (packed), int[] or long[] */
			k = t->decl->backing == B_BYTE ? G_BYTES : G_ARRAY;
			g.fn = t->decl->backing == B_BYTE ? "byte" : t->decl->backing == B_INT ? "int32" : "int64";
		} else if (t->decl->kind == K_ENUM) {
			k = G_ENUM;
		} else if (t->array) {
			/* Android's std::optional<std::vector<std::optional<P>>>:
			 * both the array and each element may be null */
			k = t->nullable ? G_NPARRAY : G_PARRAY;
		} else {
			k = t->nullable ? G_NPARCEL : G_PARCEL;
		}
		break;
	default:
		g.ctype = sc[t->basic].ctype;
		g.fn = sc[t->basic].fn;
		k = !t->array ? G_SCALAR : t->basic == B_BYTE ? G_BYTES : G_ARRAY;
		break;
	}
	g.row = &gen_kinds[k];
	return g;
}
