// SPDX-License-Identifier: MIT
/*
 * The generated source: enum and parcelable read/write functions, and for
 * an interface the proxy functions, one decoder per method, the dispatcher
 * and the stub constructor.  Every generated function returns 0 or a
 * negative errno and frees what it allocated on every path (one "out"
 * label per function).
 */
#include <string.h>
#include <inttypes.h>

#include "gen.h"

const char *gen_method_params(struct aidl_ctx *ctx, const struct aidl_method *m);

/* ---- enums ------------------------------------------------------------------ */

void gen_source_enum(struct gen *g)
{
	const struct aidl_decl *d = g->d;
	const char *fn = d->backing == B_BYTE ? "byte" : d->backing == B_INT ? "int32" : "int64";

	fprintf(g->c, "int %s_write(bc_parcel *p, %s v)\n{\n\treturn bc_parcel_write_%s(p, v);\n}\n\n", d->cname,
		d->cname, fn);
	fprintf(g->c, "int %s_read(bc_parcel *p, %s *ret)\n{\n\treturn bc_parcel_read_%s(p, ret);\n}\n", d->cname,
		d->cname, fn);
}

/* ---- parcelables -------------------------------------------------------------- */

static const char *field_lv(struct gen *g, const struct aidl_field *f)
{
	return aidl_printf(g->ctx, "v->%s", f->name);
}

static const char *field_len(struct gen *g, const struct aidl_field *f)
{
	return aidl_printf(g->ctx, "v->%s_len", f->name);
}

/* Read field @f into v->f (its default, already there, is replaced). */
static void gen_field_read(struct gen *g, const struct aidl_field *f, const char *ind)
{
	FILE *c = g->c;
	struct gtype gt = gen_type(&f->type);
	const char *in = aidl_printf(g->ctx, "%s\t", ind);

	if (gt.row->flags & GK_SWAP) {
		fprintf(c, "%s{\n", ind);
		gen_local(g, &f->type, "_s", in);
		fprintf(c, "\n");
		gen_read(g, c, &f->type, "p", "_s", "_s_len", in);
		fprintf(c, "%sif (_r < 0)\n%s\tgoto fail;\n", in, in);
		gen_free(g, c, &f->type, field_lv(g, f), field_len(g, f), in);
		fprintf(c, "%sv->%s = _s;\n%s}\n", in, f->name, ind);
		return;
	}
	if (gt.row->flags & GK_ADDR) /* its reader initialises it: free what _init() made */
		gen_free(g, c, &f->type, field_lv(g, f), field_len(g, f), ind);
	if (f->type.fixed || (f->def && f->type.array)) { /* the array _init() put there */
		gen_free(g, c, &f->type, field_lv(g, f), field_len(g, f), ind);
		fprintf(c, "%sv->%s = NULL;\n%sv->%s_len = 0;\n", ind, f->name, ind, f->name);
	}
	gen_read(g, c, &f->type, "p", field_lv(g, f), field_len(g, f), ind);
	fprintf(c, "%sif (_r < 0)\n%s\tgoto fail;\n", ind, ind);
}

static void gen_field_write(struct gen *g, const struct aidl_field *f, const char *ind)
{
	bool addr = gen_type(&f->type).row->flags & GK_ADDR;
	const char *val = addr ? aidl_printf(g->ctx, "&v->%s", f->name) : field_lv(g, f);

	gen_write(g, g->c, &f->type, "p", val, field_len(g, f), ind);
}

/* Element @lv of an array field = @val (jumping to nomem on failure). */
static void elem_set(struct gen *g, const struct gtype *gt, const char *lv, const char *val, const char *ind)
{
	gen_emit(g->ctx, g->c, ind, gt, gt->row->elem_set ? gt->row->elem_set : "$V = $D;",
		 (struct gvars){ .V = lv, .D = val });
}

/*
 * A fixed-size array field starts with N zero values (0, "", NULL
 * binders, _init()ed parcelables), as Android's backends declare it
 * (std::array<T, N>, new T[N]), so a parcelable fresh from _init() is
 * written as Android's default one is.  Jumps to nomem on failure; the
 * length is set first, so that _clear() frees what was made.
 */
static void gen_fixed_init(struct gen *g, const struct aidl_field *f)
{
	FILE *c = g->c;
	struct gtype gt = gen_type(&f->type);
	uint32_t n = aidl_fixed_len(&f->type);

	if (gt.row->fixed_new) {
		gen_emit(g->ctx, c, "\t", &gt, gt.row->fixed_new,
			 (struct gvars){ .V = field_lv(g, f), .L = aidl_printf(g->ctx, "%" PRIu32, n) });
		return;
	}
	fprintf(c, "\tv->%s = calloc(%" PRIu32 ", sizeof(*v->%s));\n\tif (!v->%s)\n\t\tgoto nomem;\n"
		   "\tv->%s_len = %" PRIu32 ";\n",
		f->name, n, f->name, f->name, f->name, n);
	if (gt.row->dflt) {
		fprintf(c, "\tfor (size_t _i = 0; _i < %" PRIu32 "; _i++)\n", n);
		elem_set(g, &gt, aidl_printf(g->ctx, "v->%s[_i]", f->name), gt.row->dflt, "\t\t");
	}
}

/*
 * An array field's default ({1, 2}, {"a"}, {}): a malloc'd array holding
 * those elements, never NULL (Android's default is a non-null vector even
 * for a @nullable field).  The length is set first, so that _clear()
 * frees what was made when a strdup fails (goto nomem).
 */
static void gen_array_default(struct gen *g, const struct aidl_field *f)
{
	FILE *c = g->c;
	struct aidl_type et = f->type;
	struct gtype gt = gen_type(&f->type);

	et.array = false, et.list = false, et.fixed = 0, et.nullable = false;
	fprintf(c, "\tv->%s = calloc(%zu, sizeof(*v->%s));\n\tif (!v->%s)\n\t\tgoto nomem;\n\tv->%s_len = %zu;\n",
		f->name, f->n_defvals ? f->n_defvals : 1, f->name, f->name, f->name, f->n_defvals);
	for (size_t i = 0; i < f->n_defvals; i++) {
		const char *lit = gen_literal(g->ctx, &et, &f->defvals[i]);

		elem_set(g, &gt, aidl_printf(g->ctx, "v->%s[%zu]", f->name, i), lit, "\t");
	}
}

/* A union: int32 tag (the field's index), then that field alone; no size
 * prefix (Android's union writeToParcel/readFromParcel). */
static void gen_union_body(struct gen *g)
{
	const struct aidl_decl *d = g->d;
	const char *cn = d->cname;
	FILE *c = g->c;

	fprintf(c,
		"int %s_write(bc_parcel *p, const %s *v)\n{\n\tint _r;\n\n"
		"\tif (!v || v->_tag < 0 || v->_tag >= %zu)\n\t\treturn -EINVAL;\n"
		"\t_r = bc_parcel_write_int32(p, v->_tag);\n\tif (_r < 0)\n\t\tgoto out;\n\tswitch (v->_tag) {\n",
		cn, cn, d->n_fields);
	for (size_t i = 0; i < d->n_fields; i++) {
		fprintf(c, "\tcase %s_TAG_%s:\n", cn, d->fields[i].name);
		gen_field_write(g, &d->fields[i], "\t\t");
		fprintf(c, "\t\tbreak;\n");
	}
	fprintf(c, "\t}\nout:\n\treturn _r;\n}\n\n");

	fprintf(c,
		"int %s_read(bc_parcel *p, %s *v)\n{\n\tint32_t _tag = 0;\n\tint _r = %s_init(v);\n\n"
		"\tif (_r < 0)\n\t\treturn _r;\n\t_r = bc_parcel_read_int32(p, &_tag);\n\tif (_r < 0)\n\t\tgoto fail;\n"
		"\tswitch (_tag) {\n",
		cn, cn, cn);
	for (size_t i = 0; i < d->n_fields; i++) {
		fprintf(c, "\tcase %s_TAG_%s:\n", cn, d->fields[i].name);
		gen_field_read(g, &d->fields[i], "\t\t");
		fprintf(c, "\t\tbreak;\n");
	}
	fprintf(c, "\tdefault: /* a tag this version does not know */\n\t\t_r = -EBADMSG;\n\t\tgoto fail;\n\t}\n"
		   "\tv->_tag = _tag;\n\treturn 0;\nfail:\n\t%s_clear(v);\n\treturn _r;\n}\n",
		cn);
}

void gen_source_parcelable(struct gen *g)
{
	const struct aidl_decl *d = g->d;
	const char *cn = d->cname;
	FILE *c = g->c;
	bool nomem = false, fail = false;

	/* zero: nothing owned, fds -1 (so clearing it closes nothing) */
	fprintf(c, "void %s_zero(%s *v)\n{\n\tmemset(v, 0, sizeof(*v));\n", cn, cn);
	for (size_t i = 0; i < d->n_fields; i++) {
		struct gtype gt = gen_type(&d->fields[i].type);

		if (gt.row->reset)
			gen_emit(g->ctx, c, "\t", &gt, gt.row->reset, (struct gvars){ .V = field_lv(g, &d->fields[i]) });
	}
	fprintf(c, "}\n\n");

	/* init */
	fprintf(c, "int %s_init(%s *v)\n{\n\tint _r = 0;\n\n\tif (!v)\n\t\treturn -EINVAL;\n\t%s_zero(v);\n",
		cn, cn, cn);
	for (size_t i = 0; i < d->n_fields; i++) {
		const struct aidl_field *f = &d->fields[i];
		struct gtype gt = gen_type(&f->type);

		if (f->def && f->type.array) { /* { a, b }: those elements */
			gen_array_default(g, f);
			nomem = true;
			continue;
		}
		if (f->type.fixed && !f->type.nullable) { /* N zero values, as Android's std::array */
			gen_fixed_init(g, f);
			nomem = true;
			continue;
		}
		if (gt.row->init && f->type.nullable && !f->def)
			continue; /* a @nullable value starts as null */
		if (gt.row->init) {
			bool sets_r = gt.row->flags & GK_INIT_R;

			gen_emit(g->ctx, c, "\t", &gt, gt.row->init,
				 (struct gvars){ .V = field_lv(g, f), .G = sets_r ? "fail" : "nomem",
						 .D = f->def ? gen_literal(g->ctx, &f->type, &f->defval) : gt.row->dflt });
			fail |= sets_r;
			nomem |= !sets_r;
		} else if (f->def) {
			fprintf(c, "\tv->%s = %s;\n", f->name, gen_literal(g->ctx, &f->type, &f->defval));
		}
	}
	fprintf(c, "\treturn _r;\n");
	if (nomem)
		fprintf(c, "nomem:\n\t_r = -ENOMEM;\n");
	if (fail)
		fprintf(c, "fail:\n");
	if (nomem || fail)
		fprintf(c, "\t%s_clear(v);\n\treturn _r;\n", cn);
	fprintf(c, "}\n\n");

	/* clear */
	fprintf(c, "void %s_clear(%s *v)\n{\n\tif (!v)\n\t\treturn;\n", cn, cn);
	for (size_t i = 0; i < d->n_fields; i++)
		gen_free(g, c, &d->fields[i].type, field_lv(g, &d->fields[i]), field_len(g, &d->fields[i]), "\t");
	fprintf(c, "\t%s_zero(v);\n}\n\n", cn);

	/* arrays: int32 count, then each element as int32 1 + body (Android's
	 * writeParcelableVector / AParcel_writeParcelable per element) */
	fprintf(c,
		"int %s_write_array(bc_parcel *p, const %s *v, size_t n)\n{\n\tint _r;\n\n"
		"\tif ((!v && n) || n > INT32_MAX)\n\t\treturn -EINVAL;\n\t_r = bc_parcel_write_int32(p, (int32_t)n);\n"
		"\tfor (size_t i = 0; _r == 0 && i < n; i++) {\n\t\t_r = bc_parcel_write_int32(p, 1);\n"
		"\t\tif (_r == 0)\n\t\t\t_r = %s_write(p, &v[i]);\n\t}\n\treturn _r;\n}\n\n",
		cn, cn, cn);
	fprintf(c,
		"void %s_free_array(%s *v, size_t n)\n{\n\tfor (size_t i = 0; v && i < n; i++)\n\t\t%s_clear(&v[i]);\n"
		"\tfree(v);\n}\n\n",
		cn, cn, cn);
	fprintf(c,
		"int %s_new_array(size_t n, %s **ret)\n{\n\t%s *v = calloc(n ? n : 1, sizeof(*v));\n\n"
		"\tif (!v)\n\t\treturn -ENOMEM;\n\tfor (size_t i = 0; i < n; i++) {\n"
		"\t\tif (%s_init(&v[i]) < 0) {\n\t\t\t%s_free_array(v, i);\n\t\t\treturn -ENOMEM;\n\t\t}\n\t}\n"
		"\t*ret = v;\n\treturn 0;\n}\n\n",
		cn, cn, cn, cn, cn);
	/* reading: every element takes at least 4 bytes, which bounds the
	 * allocation by what the parcel holds */
	fprintf(c,
		"int %s_read_array(bc_parcel *p, %s **ret, size_t *ret_n)\n{\n\tint32_t n = 0;\n\t%s *v;\n"
		"\tint _r = bc_parcel_read_int32(p, &n);\n\n\tif (_r < 0)\n\t\treturn _r;\n"
		"\tif (n < 0 || (size_t)n > bc_parcel_remaining(p) / 4)\n\t\treturn -EBADMSG;\n"
		"\tv = calloc(n ? (size_t)n : 1, sizeof(*v));\n\tif (!v)\n\t\treturn -ENOMEM;\n"
		"\tfor (int32_t i = 0; i < n; i++) {\n\t\t%s_zero(&v[i]);\n\t}\n"
		"\tfor (int32_t i = 0; i < n; i++) {\n\t\t_r = bcaidl_read_marker(p);\n"
		"\t\tif (_r == 0)\n\t\t\t_r = %s_read(p, &v[i]);\n\t\tif (_r < 0) {\n"
		"\t\t\t%s_free_array(v, (size_t)n);\n\t\t\treturn _r;\n\t\t}\n\t}\n"
		"\t*ret = v;\n\t*ret_n = (size_t)n;\n\treturn 0;\n}\n\n",
		cn, cn, cn, cn, cn, cn);

	/* @nullable values: int32 0 for null, else int32 1 + body; in C a
	 * heap pointer, NULL for null */
	fprintf(c,
		"int %s_write_nullable(bc_parcel *p, const %s *v)\n{\n\tint _r;\n\n"
		"\tif (!v)\n\t\treturn bc_parcel_write_int32(p, 0);\n\t_r = bc_parcel_write_int32(p, 1);\n"
		"\treturn _r < 0 ? _r : %s_write(p, v);\n}\n\n",
		cn, cn, cn);
	fprintf(c, "void %s_free(%s *v)\n{\n\tif (v) {\n\t\t%s_clear(v);\n\t\tfree(v);\n\t}\n}\n\n", cn, cn,
		cn);
	fprintf(c,
		"int %s_read_nullable(bc_parcel *p, %s **ret)\n{\n\tint32_t present = 0;\n\t%s *v;\n"
		"\tint _r = bc_parcel_read_int32(p, &present);\n\n\tif (_r < 0)\n\t\treturn _r;\n"
		"\tif (!present) {\n\t\t*ret = NULL;\n\t\treturn 0;\n\t}\n"
		"\tv = malloc(sizeof(*v));\n\tif (!v)\n\t\treturn -ENOMEM;\n\t_r = %s_read(p, v);\n"
		"\tif (_r < 0) {\n\t\tfree(v);\n\t\treturn _r;\n\t}\n\t*ret = v;\n\treturn 0;\n}\n\n",
		cn, cn, cn, cn);

	/* @nullable arrays: Android's std::optional<std::vector<std::optional<P>>>
	 * (int32 -1 for null, else the count and each element nullable) */
	fprintf(c,
		"int %s_write_nullable_array(bc_parcel *p, const %s *const *v, size_t n)\n{\n\tint _r;\n\n"
		"\tif (!v)\n\t\treturn bc_parcel_write_int32(p, -1);\n\tif (n > INT32_MAX)\n\t\treturn -EINVAL;\n"
		"\t_r = bc_parcel_write_int32(p, (int32_t)n);\n"
		"\tfor (size_t i = 0; _r == 0 && i < n; i++)\n\t\t_r = %s_write_nullable(p, v[i]);\n\treturn _r;\n}\n\n",
		cn, cn, cn);
	fprintf(c,
		"void %s_free_nullable_array(%s **v, size_t n)\n{\n\tfor (size_t i = 0; v && i < n; i++)\n"
		"\t\t%s_free(v[i]);\n\tfree(v);\n}\n\n",
		cn, cn, cn);
	fprintf(c,
		"int %s_read_nullable_array(bc_parcel *p, %s ***ret, size_t *ret_n)\n{\n\tint32_t n = 0;\n\t%s **v;\n"
		"\tint _r = bc_parcel_read_int32(p, &n);\n\n\tif (_r < 0)\n\t\treturn _r;\n"
		"\tif (n == -1) {\n\t\t*ret = NULL;\n\t\t*ret_n = 0;\n\t\treturn 0;\n\t}\n"
		"\tif (n < 0 || (size_t)n > bc_parcel_remaining(p) / 4)\n\t\treturn -EBADMSG;\n"
		"\tv = calloc(n ? (size_t)n : 1, sizeof(*v));\n\tif (!v)\n\t\treturn -ENOMEM;\n"
		"\tfor (int32_t i = 0; i < n; i++) {\n\t\t_r = %s_read_nullable(p, &v[i]);\n\t\tif (_r < 0) {\n"
		"\t\t\t%s_free_nullable_array(v, (size_t)n);\n\t\t\treturn _r;\n\t\t}\n\t}\n"
		"\t*ret = v;\n\t*ret_n = (size_t)n;\n\treturn 0;\n}\n\n",
		cn, cn, cn, cn, cn);

	if (d->is_union) {
		gen_union_body(g);
		return;
	}
	/* write: the stable-AIDL body, int32 size (counting itself) + fields */
	fprintf(c,
		"int %s_write(bc_parcel *p, const %s *v)\n{\n\tsize_t _tok = 0;\n\tint _r;\n\n\tif (!v)\n\t\treturn -EINVAL;\n"
		"\t_r = bc_parcel_begin_parcelable(p, &_tok);\n\tif (_r < 0)\n\t\tgoto out;\n",
		cn, cn);
	for (size_t i = 0; i < d->n_fields; i++)
		gen_field_write(g, &d->fields[i], "\t");
	fprintf(c, "\t_r = bc_parcel_end_parcelable(p, _tok);\nout:\n\treturn _r;\n}\n\n");

	/* read: fields past the body's end keep their defaults */
	fprintf(c,
		"int %s_read(bc_parcel *p, %s *v)\n{\n\tsize_t _end = 0;\n\tint _r = %s_init(v);\n\n\tif (_r < 0)\n\t\treturn _r;\n"
		"\t_r = bc_parcel_enter_parcelable(p, &_end);\n\tif (_r < 0)\n\t\tgoto fail;\n",
		cn, cn, cn);
	for (size_t i = 0; i < d->n_fields; i++) {
		fprintf(c, "\tif (bc_parcel_get_position(p) >= _end)\n\t\tgoto done;\n");
		gen_field_read(g, &d->fields[i], "\t");
	}
	if (d->n_fields)
		fprintf(c, "done:\n");
	fprintf(c, "\t_r = bc_parcel_exit_parcelable(p, _end);\n\tif (_r < 0)\n\t\tgoto fail;\n\treturn 0;\n"
		   "fail:\n\t%s_clear(v);\n\treturn _r;\n}\n",
		cn);
}

/* ---- interfaces ---------------------------------------------------------------- */

static bool is_oneway(const struct gen *g, const struct aidl_method *m)
{
	return m->oneway || g->d->oneway;
}

static bool is_void(const struct aidl_method *m)
{
	return m->ret.basic == B_VOID && !m->ret.array;
}

/* A local declared without an initialiser (a GK_ADDR struct) is made
 * empty after the declarations, before anything can jump to out. */
static void zero_local(struct gen *g, const struct aidl_type *t, const char *name)
{
	struct gtype gt = gen_type(t);

	if (gt.row->flags & GK_ADDR)
		gen_emit(g->ctx, g->c, "\t", &gt, gt.row->reset, (struct gvars){ .V = name });
}

/* After handing a local over to the caller, make its cleanup a no-op. */
static void disown(struct gen *g, const struct aidl_type *t, const char *name, const char *ind)
{
	struct gtype gt = gen_type(t);

	if (gt.row->reset)
		gen_emit(g->ctx, g->c, ind, &gt, gt.row->reset, (struct gvars){ .V = name });
	else if (gt.row->free)
		fprintf(g->c, "%s%s = NULL;\n", ind, name);
}

static bool has_len(const struct aidl_type *t)
{
	return gen_type(t).row->flags & GK_LEN;
}

/* Held by value and written from its address (&name). */
static bool by_addr(const struct aidl_type *t)
{
	return gen_type(t).row->flags & GK_ADDR;
}

/* @meta: getInterfaceVersion/Hash, synchronous even on a oneway interface. */
static void gen_proxy(struct gen *g, const struct aidl_method *m, const char *code, bool meta)
{
	struct aidl_ctx *ctx = g->ctx;
	FILE *c = g->c;
	const char *cn = g->d->cname;
	bool ow = !meta && is_oneway(g, m);

	fprintf(c, "int %s_%s(bc_binder *binder%s)\n{\n\tbc_parcel *_data = NULL, *_reply = NULL;\n\tint _r;\n", cn,
		m->name, gen_method_params(ctx, m));
	if (!is_void(m))
		gen_local(g, &m->ret, "_t_ret", "\t");
	for (size_t i = 0; i < m->n_params; i++)
		if (m->params[i].dir != D_IN)
			gen_local(g, &m->params[i].type, aidl_printf(ctx, "_t_%s", m->params[i].name), "\t");
	fprintf(c, "\n");
	if (!is_void(m))
		zero_local(g, &m->ret, "_t_ret");
	fprintf(c, "\tif (!binder)\n\t\treturn -EINVAL;\n");
	if (!is_void(m) && has_len(&m->ret))
		fprintf(c, "\tif (_ret && !_ret_len)\n\t\treturn -EINVAL;\n");
	for (size_t i = 0; i < m->n_params; i++) {
		const struct aidl_param *p = &m->params[i];
		if (p->dir == D_IN)
			continue;
		zero_local(g, &p->type, aidl_printf(ctx, "_t_%s", p->name));
		fprintf(c, "\tif (!%s%s)\n\t\treturn -EINVAL;\n", p->name,
			has_len(&p->type) ? aidl_printf(ctx, " || !%s_len", p->name) : "");
	}
	/* @VintfStability: every call requires VINTF of the binder it goes
	 * to, as Android's proxies do (Stability::check in BpBinder::transact),
	 * so that no caller can forget it.  Made in each call because a proxy
	 * function is handed any bc_binder and there is no proxy object to
	 * mark once; the requirement is one atomic OR on the shared proxy,
	 * and a refused call sends nothing (-EPROTOTYPE). */
	if (g->d->vintf)
		fprintf(c, "\t_r = bc_binder_require_stability(binder, BINDERC_STABILITY_VINTF);\n"
			   "\tif (_r < 0)\n\t\tgoto out;\n");
	fprintf(c, "\t_r = bc_binder_new_parcel(binder, &_data);\n\tif (_r < 0)\n\t\tgoto out;\n");
	/* @SensitiveData: the request is marked before anything is written
	 * (as Android's proxies call markSensitive()), and every call, oneway
	 * and meta ones too, carries FLAG_CLEAR_BUF (the NDK backend's flags) */
	if (g->d->sensitive)
		fprintf(c, "\tbc_parcel_mark_sensitive(_data);\n");
	fprintf(c, "\t_r = bc_parcel_write_interface_token(_data, %s_DESCRIPTOR);\n\tif (_r < 0)\n\t\tgoto out;\n",
		cn);
	for (size_t i = 0; i < m->n_params; i++) {
		const struct aidl_param *p = &m->params[i];
		const char *len = aidl_printf(ctx, "%s_len", p->name);

		if (p->dir == D_IN) {
			gen_write(g, c, &p->type, "_data", p->name, len, "\t");
		} else if (p->dir == D_INOUT) {
			gen_write(g, c, &p->type, "_data", by_addr(&p->type) ? p->name : aidl_printf(ctx, "*%s", p->name),
				  aidl_printf(ctx, "*%s_len", p->name), "\t");
		} else if (has_len(&p->type) && !p->type.fixed) { /* an out T[N] sends nothing */
			fprintf(c, "\t_r = bcaidl_write_size(_data, *%s_len); /* out array: the size asked for */\n"
				   "\tif (_r < 0)\n\t\tgoto out;\n",
				p->name);
		}
	}
	if (ow) {
		fprintf(c, "\t_r = bc_binder_transact(binder, %s, _data, NULL, BINDERC_FLAG_ONEWAY%s, NULL);\n", code,
			g->d->sensitive ? " | BINDERC_FLAG_CLEAR_BUF" : "");
	} else {
		fprintf(c, "\t_r = bc_binder_transact(binder, %s, _data, &_reply, %s, NULL);\n\tif (_r < 0)\n\t\tgoto out;\n"
			   "\t_r = bcaidl_read_status(_reply);\n\tif (_r != 0)\n\t\tgoto out;\n",
			code, g->d->sensitive ? "BINDERC_FLAG_CLEAR_BUF" : "0");
		if (!is_void(m)) {
			gen_read(g, c, &m->ret, "_reply", "_t_ret", "_t_ret_len", "\t");
			fprintf(c, "\tif (_r < 0)\n\t\tgoto out;\n");
		}
		for (size_t i = 0; i < m->n_params; i++) {
			const struct aidl_param *p = &m->params[i];
			if (p->dir == D_IN)
				continue;
			gen_read(g, c, &p->type, "_reply", aidl_printf(ctx, "_t_%s", p->name),
				 aidl_printf(ctx, "_t_%s_len", p->name), "\t");
			fprintf(c, "\tif (_r < 0)\n\t\tgoto out;\n");
		}
		/* Everything arrived: hand it over. */
		if (!is_void(m)) {
			fprintf(c, "\tif (_ret) {\n\t\t*_ret = _t_ret;\n");
			if (has_len(&m->ret))
				fprintf(c, "\t\t*_ret_len = _t_ret_len;\n");
			disown(g, &m->ret, "_t_ret", "\t\t");
			fprintf(c, "\t}\n");
		}
		for (size_t i = 0; i < m->n_params; i++) {
			const struct aidl_param *p = &m->params[i];
			const char *t = aidl_printf(ctx, "_t_%s", p->name);

			if (p->dir == D_IN)
				continue;
			if (by_addr(&p->type)) { /* its _clear() takes the pointer the caller gave */
				if (p->dir == D_INOUT)
					fprintf(c, "\t%s_clear(%s);\n", gen_type(&p->type).ctype, p->name);
				fprintf(c, "\t*%s = %s;\n", p->name, t);
			} else {
				if (p->dir == D_INOUT)
					gen_free(g, c, &p->type, aidl_printf(ctx, "*%s", p->name),
						 aidl_printf(ctx, "*%s_len", p->name), "\t");
				fprintf(c, "\t*%s = %s;\n", p->name, t);
				if (has_len(&p->type))
					fprintf(c, "\t*%s_len = %s_len;\n", p->name, t);
			}
			disown(g, &p->type, t, "\t");
		}
	}
	fprintf(c, "out:\n");
	if (!is_void(m))
		gen_free(g, c, &m->ret, "_t_ret", "_t_ret_len", "\t");
	for (size_t i = 0; i < m->n_params; i++)
		if (m->params[i].dir != D_IN)
			gen_free(g, c, &m->params[i].type, aidl_printf(ctx, "_t_%s", m->params[i].name),
				 aidl_printf(ctx, "_t_%s_len", m->params[i].name), "\t");
	fprintf(c, "\tbc_parcel_unref(_data);\n\tbc_parcel_unref(_reply);\n\treturn _r;\n}\n\n");
}

static void gen_stub_method(struct gen *g, const struct aidl_method *m)
{
	struct aidl_ctx *ctx = g->ctx;
	FILE *c = g->c;
	const char *cn = g->d->cname;
	const char *args = "";

	fprintf(c,
		"static int bcaidl_%s__m_%s(const struct %s_ops *_ops, void *_self, bc_parcel *_in, bc_parcel *_reply)\n{\n"
		"\tint _r = 0;\n",
		cn, m->name, cn);
	for (size_t i = 0; i < m->n_params; i++)
		gen_local(g, &m->params[i].type, aidl_printf(ctx, "_a_%s", m->params[i].name), "\t");
	if (!is_void(m))
		gen_local(g, &m->ret, "_a_ret", "\t");
	fprintf(c, "\n");
	for (size_t i = 0; i < m->n_params; i++)
		zero_local(g, &m->params[i].type, aidl_printf(ctx, "_a_%s", m->params[i].name));
	if (!is_void(m))
		zero_local(g, &m->ret, "_a_ret");
	fprintf(c, "\t(void)_in, (void)_reply;\n\tif (!_ops->%s)\n\t\treturn -EBADMSG; /* UNKNOWN_TRANSACTION */\n", m->name);
	for (size_t i = 0; i < m->n_params; i++) {
		const struct aidl_param *p = &m->params[i];
		const char *a = aidl_printf(ctx, "_a_%s", p->name), *al = aidl_printf(ctx, "_a_%s_len", p->name);
		struct gtype gt = gen_type(&p->type);

		if (p->dir != D_OUT) {
			gen_read(g, c, &p->type, "_in", a, al, "\t");
			fprintf(c, "\tif (_r < 0) {\n\t\t_r = bcaidl_bad_request(_r);\n\t\tgoto out;\n\t}\n");
		} else if (gt.row->flags & GK_ADDR) {
			gen_emit(ctx, c, "\t", &gt, gt.row->init, (struct gvars){ .V = a, .G = "out" });
		} else if (!(gt.row->flags & GK_LEN)) {
			/* a single value (an out ParcelFileDescriptor): its local
			 * starts empty (-1) for the implementation to set */
		} else if (p->type.fixed && p->type.nullable) {
			/* an out @nullable T[N] starts null (NULL, 0), as Android's
			 * stub default-constructs its std::optional<std::array>;
			 * the implementation may set N elements */
		} else {
			/* an out T[N] is not in the request: N default elements,
			 * as Android's stubs allocate (the reply refuses another
			 * length, so the implementation must leave exactly N) */
			const char *ind = "\t";

			if (p->type.fixed) {
				fprintf(c, "\t%s = %" PRIu32 ";\n", al, aidl_fixed_len(&p->type));
			} else if (p->type.nullable) {
				/* -1 asks for null: the implementation gets NULL */
				fprintf(c, "\t{\n\t\tbool _null = false;\n\n"
					   "\t\t_r = bcaidl_read_nsize(_in, &%s, &_null);\n\t\tif (_r < 0) {\n"
					   "\t\t\t_r = bcaidl_bad_request(_r);\n\t\t\tgoto out;\n\t\t}\n"
					   "\t\tif (!_null) {\n",
					al);
				ind = "\t\t\t";
			} else {
				fprintf(c, "\t_r = bcaidl_read_size(_in, &%s);\n\tif (_r < 0) {\n"
					   "\t\t_r = bcaidl_bad_request(_r);\n\t\tgoto out;\n\t}\n",
					al);
			}
			if (gt.row->new_n)
				gen_emit(ctx, c, ind, &gt, gt.row->new_n, (struct gvars){ .V = a, .L = al, .G = "out" });
			/* an out binder array starts as n NULLs: the implementation
			 * must fill every one (a NULL is refused when writing) */
			else
				fprintf(c, "%s%s = calloc(%s ? %s : 1, sizeof(*%s));\n%sif (!%s) {\n%s\t_r = -ENOMEM;\n"
					   "%s\tgoto out;\n%s}\n",
					ind, a, al, al, a, ind, a, ind, ind, ind);
			if (!p->type.fixed && p->type.nullable)
				fprintf(c, "\t\t}\n\t}\n");
		}
		/* the implementation's argument(s) */
		if (p->dir == D_IN) {
			args = aidl_printf(ctx, "%s, %s", args,
					   gen_expand(ctx, &gt, gt.row->arg, (struct gvars){ .V = a, .L = al }));
		} else {
			args = has_len(&p->type) ? aidl_printf(ctx, "%s, &%s, &%s", args, a, al)
						 : aidl_printf(ctx, "%s, &%s", args, a);
		}
	}
	if (!is_void(m))
		args = has_len(&m->ret) ? aidl_printf(ctx, "%s, &_a_ret, &_a_ret_len", args)
					: aidl_printf(ctx, "%s, &_a_ret", args);
	if (!is_void(m) && by_addr(&m->ret)) { /* like a default-constructed C++ value */
		struct gtype rt = gen_type(&m->ret);

		gen_emit(ctx, c, "\t", &rt, rt.row->init, (struct gvars){ .V = "_a_ret", .G = "out" });
	}
	fprintf(c, "\t_r = _ops->%s(_self%s);\n", m->name, args);
	if (is_oneway(g, m)) {
		/* the goto keeps "out" used when no argument could fail */
		fprintf(c, "\t_r = 0; /* one-way: nobody hears the result */\n\tgoto out;\n");
	} else {
		fprintf(c, "\tif (_r > 0) {\n\t\t_r = bcaidl_write_service_error(_reply, _r);\n\t\tgoto out;\n\t}\n"
			   "\tif (_r < 0)\n\t\tgoto out;\n"
			   "\t_r = bc_parcel_write_status(_reply, NULL);\n\tif (_r < 0)\n\t\tgoto out;\n");
		if (!is_void(m))
			gen_write(g, c, &m->ret, "_reply", by_addr(&m->ret) ? "&_a_ret" : "_a_ret",
				  "_a_ret_len", "\t");
		for (size_t i = 0; i < m->n_params; i++) {
			const struct aidl_param *p = &m->params[i];
			if (p->dir == D_IN)
				continue;
			gen_write(g, c, &p->type, "_reply",
				  aidl_printf(ctx, by_addr(&p->type) ? "&_a_%s" : "_a_%s", p->name),
				  aidl_printf(ctx, "_a_%s_len", p->name), "\t");
		}
	}
	fprintf(c, "out:\n");
	for (size_t i = 0; i < m->n_params; i++)
		gen_free(g, c, &m->params[i].type, aidl_printf(ctx, "_a_%s", m->params[i].name),
			 aidl_printf(ctx, "_a_%s_len", m->params[i].name), "\t");
	if (!is_void(m))
		gen_free(g, c, &m->ret, "_a_ret", "_a_ret_len", "\t");
	fprintf(c, "\treturn _r;\n}\n\n");
}

void gen_source_interface(struct gen *g)
{
	const struct aidl_decl *d = g->d;
	const struct aidl_opts *o = g->ctx->opts;
	const char *cn = d->cname;
	FILE *c = g->c;

	for (size_t i = 0; i < d->n_methods; i++)
		gen_proxy(g, &d->methods[i], aidl_printf(g->ctx, "%s_CODE_%s", cn, d->methods[i].name), false);
	/* The stable-AIDL meta methods, as Android's backends generate them. */
	if (o->version > 0) {
		struct aidl_method m = { .name = "getInterfaceVersion", .ret = { .basic = B_INT, .name = "int" } };
		gen_proxy(g, &m, aidl_printf(g->ctx, "%s_CODE_getInterfaceVersion", cn), true);
	}
	if (o->hash) {
		struct aidl_method m = { .name = "getInterfaceHash", .ret = { .basic = B_STRING, .name = "String" } };
		gen_proxy(g, &m, aidl_printf(g->ctx, "%s_CODE_getInterfaceHash", cn), true);
	}
	for (size_t i = 0; i < d->n_methods; i++)
		gen_stub_method(g, &d->methods[i]);

	fprintf(c, "int %s_dispatch(const struct %s_ops *ops, void *self, uint32_t code, bc_parcel *in, bc_parcel *reply)\n"
		   "{\n\tint _r;\n\n\tif (!ops)\n\t\treturn -EINVAL;\n\t(void)self, (void)in, (void)reply, (void)_r;\n"
		   "\tswitch (code) {\n",
		cn, cn);
	for (size_t i = 0; i < d->n_methods; i++)
		fprintf(c, "\tcase %s_CODE_%s:\n\t\treturn bcaidl_%s__m_%s(ops, self, in, reply);\n", cn,
			d->methods[i].name, cn, d->methods[i].name);
	if (o->version > 0)
		fprintf(c, "\tcase %s_CODE_getInterfaceVersion:\n\t\t_r = bc_parcel_write_status(reply, NULL);\n"
			   "\t\treturn _r < 0 ? _r : bc_parcel_write_int32(reply, %s_VERSION);\n",
			cn, cn);
	if (o->hash)
		fprintf(c, "\tcase %s_CODE_getInterfaceHash:\n\t\t_r = bc_parcel_write_status(reply, NULL);\n"
			   "\t\treturn _r < 0 ? _r : bc_parcel_write_string16(reply, %s_HASH);\n",
			cn, cn);
	fprintf(c, "\tdefault:\n\t\treturn -EBADMSG; /* UNKNOWN_TRANSACTION */\n\t}\n}\n\n");

	fprintf(c,
		"struct bcaidl_%s__stub {\n\tconst struct %s_ops *ops;\n\tvoid *self;\n\tbc_destroy_fn on_destroy;\n};\n\n"
		"static int bcaidl_%s__on_transact(bc_binder *b, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply,\n"
		"\t\t\t    void *userdata)\n{\n\tconst struct bcaidl_%s__stub *s = userdata;\n\n\t(void)b, (void)txn;\n"
		"\treturn %s_dispatch(s->ops, s->self, code, in, reply);\n}\n\n"
		"static void bcaidl_%s__on_destroy(void *userdata)\n{\n\tstruct bcaidl_%s__stub *s = userdata;\n\n"
		"\tif (s->on_destroy)\n\t\ts->on_destroy(s->self);\n\tfree(s);\n}\n\n"
		"int %s_stub_new(const struct %s_ops *ops, void *self, bc_destroy_fn on_destroy, bc_binder **ret)\n{\n"
		"\tstruct bcaidl_%s__stub *s;\n\tbc_class *cls = NULL;\n\tint r;\n\n\tif (!ops || !ret)\n\t\treturn -EINVAL;\n"
		"\ts = calloc(1, sizeof(*s));\n\tif (!s)\n\t\treturn -ENOMEM;\n"
		"\ts->ops = ops;\n\ts->self = self;\n\ts->on_destroy = on_destroy;\n"
		"\tr = bc_class_new(%s_DESCRIPTOR, bcaidl_%s__on_transact, bcaidl_%s__on_destroy, BINDERC_CLASS_ENFORCE_INTERFACE, &cls);\n"
		"\tif (r == 0)\n\t\tr = bc_binder_new(cls, s, ret);\n\tbc_class_unref(cls);\n\tif (r < 0)\n\t\tfree(s);\n",
		cn, cn, cn, cn, cn, cn, cn, cn, cn, cn, cn, cn, cn);
	/* @VintfStability: the stub's binder says VINTF in the stability
	 * word after it (as AIBinder_markVintfStability makes Android's) */
	if (g->d->vintf)
		fprintf(g->c, "\tif (r == 0 && (r = bc_binder_set_stability(*ret, BINDERC_STABILITY_VINTF)) < 0) {\n"
			      "\t\ts->on_destroy = NULL; /* the caller keeps self on failure */\n"
			      "\t\tbc_binder_unref(*ret);\n\t\t*ret = NULL;\n\t}\n");
	fprintf(g->c, "\treturn r;\n}\n");
}
