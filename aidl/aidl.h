/* SPDX-License-Identifier: MIT */
/*
 * bc-aidl internals: the compilation context, tokens, the AST and the
 * entry points of each stage (lexer, parser, resolver, constant
 * evaluation, C generator).
 *
 * Memory: everything a compilation allocates comes from the context's
 * arena and is freed at once by aidl_arena_free().  Errors: the first error
 * is formatted as "file:line:col: error: message" into ctx->err and the
 * stage jumps back to aidl_compile() (longjmp), so no stage has to unwind
 * by hand and a malformed input can never leave a half-built AST behind.
 */
#ifndef BCAIDL_AIDL_H
#define BCAIDL_AIDL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- locations and diagnostics ----------------------------------------- */

struct aidl_loc {
	const char *file;
	int line, col;
};

struct aidl_block;

/* Options given on the command line (or by a test). */
struct aidl_opts {
	const char **incdirs; /* -I search path */
	size_t n_incdirs;
	const char *outdir;   /* -o: where NAME.h and NAME.c go */
	int version;	      /* --version N (0: none) */
	const char *hash;     /* --hash H (NULL: none) */
};

struct aidl_doc;

struct aidl_ctx {
	const struct aidl_opts *opts;
	struct aidl_block *arena;
	jmp_buf fail;
	char err[1024];		 /* the first error, formatted */
	struct aidl_doc **docs;	 /* every parsed document (main one first) */
	size_t n_docs, cap_docs;
	int depth;		 /* import nesting, bounded */
	/* the instantiations of generic parcelables whose fields use their
	 * parameters (P<int, String>), one decl each (instance.c) */
	struct aidl_decl **insts;
	size_t n_insts, cap_insts;
};

void *aidl_alloc(struct aidl_ctx *ctx, size_t size);
/* Free everything the context's arena holds (the end of a compilation). */
void aidl_arena_free(struct aidl_ctx *ctx);
char *aidl_strdup(struct aidl_ctx *ctx, const char *s);
char *aidl_strndup(struct aidl_ctx *ctx, const char *s, size_t n);
char *aidl_printf(struct aidl_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Report an error at @loc (NULL: no location) and abandon the compilation. */
_Noreturn void aidl_fail(struct aidl_ctx *ctx, const struct aidl_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "construct is not supported yet", the one message for every refusal. */
_Noreturn void aidl_unsupported(struct aidl_ctx *ctx, const struct aidl_loc *loc, const char *what);

/* ---- tokens ------------------------------------------------------------ */

enum aidl_tok {
	TK_EOF,
	TK_IDENT,
	TK_INT,	   /* integer literal: ival, is_long */
	TK_FLOAT,  /* floating literal: dval, is_float */
	TK_STRING, /* string literal: text (unescaped, UTF-8) */
	TK_CHAR,   /* character literal: ival (one UTF-16 unit) */
	TK_PUNCT,  /* punctuation: text is the operator ("{", "<<", ...) */
};

struct aidl_token {
	enum aidl_tok kind;
	struct aidl_loc loc;
	const char *text; /* identifier, operator or string contents */
	size_t len;	  /* length of text (strings may hold NULs) */
	uint64_t ival;
	double dval;
	bool is_long, is_float;
	bool is_u8; /* the u8 suffix: a byte, ival <= 0xff */
};

struct aidl_lexer {
	struct aidl_ctx *ctx;
	const char *file;
	const char *src, *end, *p;
	int line, col;
};

void aidl_lexer_init(struct aidl_lexer *lx, struct aidl_ctx *ctx, const char *file, const char *src,
		     size_t len);
void aidl_lex(struct aidl_lexer *lx, struct aidl_token *t);

/* ---- AST ------------------------------------------------------------- */

enum aidl_basic {
	B_VOID,
	B_BOOLEAN,
	B_BYTE,
	B_CHAR,
	B_INT,
	B_LONG,
	B_FLOAT,
	B_DOUBLE,
	B_STRING,
	B_IBINDER,
	B_FD,  /* FileDescriptor: a dup'd fd object */
	B_PFD, /* ParcelFileDescriptor: int32 1, int32 0 (no comm fd), fd object */
	B_HOLDER, /* ParcelableHolder (fields only): int32 stability, int32 size, raw bytes */
	B_USER, /* a declared type: decl says which */
};

enum aidl_dir { D_NONE, D_IN, D_OUT, D_INOUT };

enum aidl_decl_kind { K_INTERFACE, K_PARCELABLE, K_ENUM };

struct aidl_decl;
struct aidl_expr;

/* Where an annotation may be written (Android's contexts). */
enum {
	AC_TYPE = 1u << 0, /* a type specifier: @nullable String */
	AC_INTERFACE = 1u << 1,
	AC_PARCELABLE = 1u << 2,
	AC_UNION = 1u << 3,
	AC_ENUM = 1u << 4,
	AC_UNSTRUCTURED = 1u << 5, /* parcelable Foo; */
	AC_CONST = 1u << 6,
	AC_FIELD = 1u << 7,
	AC_METHOD = 1u << 8,
	AC_DECLS = AC_INTERFACE | AC_PARCELABLE | AC_UNION | AC_ENUM | AC_UNSTRUCTURED,
	AC_MEMBERS = AC_CONST | AC_FIELD | AC_METHOD,
	AC_ALL = AC_TYPE | AC_DECLS | AC_MEMBERS,
};

/* What the C backend does with an annotation. */
enum aidl_annot_effect {
	A_IGNORED, /* another backend's, or documentation */
	A_NULLABLE,
	A_UTF8,
	A_BACKING,
	A_VINTF,
	A_FIXED_SIZE,
	A_DESCRIPTOR,
	A_SENSITIVE,
};

#define AIDL_ANNOT_MAX_PARAMS 8
struct aidl_annot_param {
	const char *name;
	char kind; /* 's' string, 'b' boolean, 'i' integer, 'v' string list */
	bool required;
};

struct aidl_annot_schema {
	const char *name;
	unsigned contexts; /* AC_* */
	enum aidl_annot_effect effect;
	struct aidl_annot_param params[AIDL_ANNOT_MAX_PARAMS];
};

struct aidl_annot {
	struct aidl_loc loc;
	const char *name;
	const struct aidl_annot_schema *schema;
	const char *value; /* the string parameter (@Backing's type, @Descriptor's value) */
	unsigned given;	   /* bit i: schema->params[i] was given */
};

/* The schema of Android's annotation @name; NULL when it has none. */
const struct aidl_annot_schema *aidl_annot_schema(const char *name);
/* Schema @i of the table (NULL past its end): for the tests. */
const struct aidl_annot_schema *aidl_annot_schema_at(size_t i);
const char *aidl_annot_context_name(unsigned context);
/* Parameter @key = @v (@list: it was a {...} list) of @a. */
struct aidl_expr;
void aidl_annot_param(struct aidl_ctx *ctx, struct aidl_annot *a, const struct aidl_loc *at, const char *key,
		      const struct aidl_expr *v, bool list);
/* Every required parameter of @a was given. */
void aidl_annot_done(struct aidl_ctx *ctx, const struct aidl_annot *a);
/* @a may be written on @context (one AC_ bit). */
void aidl_annot_check_context(struct aidl_ctx *ctx, const struct aidl_annot *a, unsigned context);

struct aidl_type {
	struct aidl_loc loc;
	const char *name; /* as written (possibly qualified) */
	enum aidl_basic basic;
	bool array;
	bool list; /* written List<T>: T[] on the wire and in C */
	bool utf8; /* @utf8InCpp: C type and wire are unchanged */
	bool nullable; /* @nullable: NULL is written (and read) as null */
	uint32_t fixed; /* T[N]: N, the length checked both ways; 0: T[] */
	struct aidl_expr *fixed_expr; /* T[EXPR]: evaluated into fixed by resolve */
	/* T[N][M]: M (0: one dimension); C sees N * M elements, row-major */
	uint32_t fixed2;
	struct aidl_expr *fixed2_expr;
	struct aidl_decl *decl; /* B_USER after resolution */
	/* Foo<A, B>: a generic parcelable's type arguments (on the wire only
	 * when its fields use its parameters: then decl is the instantiation) */
	struct aidl_type *targs;
	size_t n_targs;
	struct aidl_loc targs_loc;
};

/* A constant value after evaluation. */
enum aidl_vkind { V_INT, V_FLOAT, V_STRING, V_BOOL };
struct aidl_value {
	enum aidl_vkind kind;
	int64_t i;
	double d;
	const char *s;
	size_t slen;
	bool is_char; /* a char literal: only valid for char */
	/* an integer of a long type (an L literal, one beyond 32 bits, a long
	 * constant): 64-bit arithmetic; otherwise int arithmetic, wrapping in
	 * 32 bits as Java's and Android's aidl's (1 << 31 is INT_MIN) */
	bool wide;
};

struct aidl_expr {
	struct aidl_loc loc;
	char op;	   /* 0 literal, 'n' name, 'u' unary, 'b' binary, '?' ternary, '{' array */
	const char *oper;  /* operator text for u/b */
	struct aidl_value lit;
	bool lit_hex;	   /* integer literal written in hex: may wrap */
	bool lit_long;	   /* integer literal with an L suffix */
	const char *name;  /* 'n': possibly qualified */
	struct aidl_expr *a, *b, *c;
	struct aidl_expr **elems; /* '{': the elements */
	size_t n_elems;
};

struct aidl_param {
	struct aidl_loc loc;
	enum aidl_dir dir;
	struct aidl_type type;
	const char *name;
};

struct aidl_method {
	struct aidl_loc loc;
	bool oneway;
	struct aidl_type ret;
	const char *name;
	struct aidl_param *params;
	size_t n_params;
	bool has_id;
	int64_t id;
	uint32_t code; /* FIRST_CALL_TRANSACTION + id */
};

struct aidl_const {
	struct aidl_loc loc;
	struct aidl_type type;
	const char *name;
	struct aidl_expr *expr;
	struct aidl_value val;
	int state; /* 0 not evaluated, 1 evaluating, 2 done */
};

struct aidl_field {
	struct aidl_loc loc;
	struct aidl_type type;
	const char *name;
	struct aidl_expr *def; /* NULL: the type's zero value */
	struct aidl_value defval;
	struct aidl_value *defvals; /* an array's default: its elements */
	size_t n_defvals;
};

struct aidl_decl {
	struct aidl_loc loc;
	enum aidl_decl_kind kind;
	const char *name;
	const char *qname; /* package.name */
	const char *cname; /* package_name: the C prefix */
	struct aidl_doc *doc;
	bool oneway;	    /* interface */
	bool is_union;	    /* a parcelable declared as a union */
	bool union_tag;	    /* the enum U.Tag Android declares for a union U */
	bool vintf;	    /* @VintfStability (here or on an enclosing type) */
	bool fixed_size;    /* @FixedSize: checked to hold only fixed-size fields */
	bool sensitive;	    /* @SensitiveData */
	const char *descriptor; /* @Descriptor(value=...), else qname */
	struct aidl_method *methods;
	size_t n_methods;
	struct aidl_const *consts; /* interface, parcelable; enum: enumerators */
	size_t n_consts;
	struct aidl_field *fields;
	size_t n_fields;
	enum aidl_basic backing; /* enum: B_BYTE, B_INT or B_LONG */
	int resolved;		 /* 0 no, 1 in progress, 2 done */
	struct aidl_decl *parent;  /* the enclosing type of a nested one */
	struct aidl_decl **nested; /* types declared inside this one */
	size_t n_nested;
	int visit;		   /* the cycle check's DFS mark */
	const char **type_params;  /* parcelable Foo<T, U>: T, U */
	size_t n_type_params;
	/* an instantiation Foo<int, String> of a generic parcelable whose
	 * fields use its parameters: that generic (cname: the mangled name) */
	struct aidl_decl *inst_of;
};

struct aidl_import {
	struct aidl_loc loc;
	const char *qname;
	struct aidl_decl *decl; /* loaded lazily */
};

struct aidl_doc {
	const char *path;
	const char *package; /* "" when none */
	struct aidl_import *imports;
	size_t n_imports;
	struct aidl_decl *decl;
};

/* ---- stages ------------------------------------------------------------ */

/* Parse @len bytes of @src (named @path in messages). */
struct aidl_doc *aidl_parse(struct aidl_ctx *ctx, const char *path, const char *src, size_t len);
/* Read and parse a file (error at @from when it cannot be read). */
struct aidl_doc *aidl_parse_file(struct aidl_ctx *ctx, const char *path, const struct aidl_loc *from);
/* Resolve the types of @d (imports through the search path) and check
 * every rule the generator relies on. */
void aidl_resolve(struct aidl_ctx *ctx, struct aidl_decl *d);
/* Evaluate a constant of @type in the scope of @scope. */
/* The number of elements of a fixed-size array (N, or N * M). */
static inline uint32_t aidl_fixed_len(const struct aidl_type *t)
{
	return t->fixed * (t->fixed2 ? t->fixed2 : 1);
}
struct aidl_value aidl_eval(struct aidl_ctx *ctx, struct aidl_decl *scope, const struct aidl_type *type,
			    struct aidl_expr *e);
/* Evaluate every constant/enumerator/default of @d. */
void aidl_eval_decl(struct aidl_ctx *ctx, struct aidl_decl *d);
/* Look up a type by name as written inside @scope (its nested types and
 * those of its enclosing types first, then the file's imports and
 * package); NULL when unknown. */
struct aidl_decl *aidl_lookup(struct aidl_ctx *ctx, struct aidl_decl *scope, const char *name,
			      const struct aidl_loc *loc);
/* Resolve @t, written inside @d (the lookup is skipped when t->decl is
 * already set, as for a type argument substituted into an instance). */
void aidl_resolve_type(struct aidl_ctx *ctx, struct aidl_decl *d, struct aidl_type *t);
/* @name is a type parameter of @d or of a type enclosing it. */
bool aidl_is_type_param(const struct aidl_decl *d, const char *name);
/* @d is a generic parcelable some field of which uses its parameters: a
 * template, generated once per instantiation (instance.c). */
bool aidl_templated(const struct aidl_decl *d);
/* The instantiation @t (resolved, its decl such a generic) names: found
 * or made, its fields substituted and checked. */
struct aidl_decl *aidl_instantiate(struct aidl_ctx *ctx, struct aidl_type *t);
/* The @FixedSize rule on @d's fields (nothing when it is not @FixedSize). */
void aidl_check_fixed_size(struct aidl_ctx *ctx, const struct aidl_decl *d);
/* The outermost type enclosing @d (@d itself when it is not nested). */
struct aidl_decl *aidl_root(struct aidl_decl *d);

/* Write NAME.h and NAME.c for @d into opts->outdir.  0 or -errno. */
void aidl_generate(struct aidl_ctx *ctx, struct aidl_decl *d, const char *srcname);

/* The whole pipeline for one input file: 0, or -1 with ctx->err set. */
int aidl_compile(const struct aidl_opts *opts, const char *path, char *err, size_t errlen);
/* Parse and check a file, generating nothing: for the tests. */
int aidl_check_file(const struct aidl_opts *opts, const char *path, char *err, size_t errlen);
/* The same on a buffer, generating nothing: for the tests and the fuzzer. */
int aidl_check_buffer(const struct aidl_opts *opts, const char *path, const char *src, size_t len, char *err,
		      size_t errlen);

/* The whole pipeline on a buffer, writing into opts->outdir: the fuzzer. */
int aidl_generate_buffer(const struct aidl_opts *opts, const char *path, const char *src, size_t len, char *err,
			 size_t errlen);

#endif
