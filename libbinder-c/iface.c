// SPDX-License-Identifier: MIT
/*
 * Interface descriptions: validation, compilation (parsed signatures and
 * a prepared ffi_cif per method), lookup, the per-process registry,
 * per-thread statuses and description sharing over '_SIG'.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iface_internal.h"

/* from iface_stub.c */
int bc__iface_stub_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply,
			    void *userdata);
void bc__iface_stub_destroy(void *userdata);

/* ---- per-thread state ------------------------------------------------- */

struct tstate {
	bc_status pending; /* set by bc_iface_throw() */
	bool pending_set;
	bc_status last; /* last proxy call's exception */
};

static pthread_key_t tkey;
static pthread_once_t tonce = PTHREAD_ONCE_INIT;
static struct tstate tfallback; /* if allocation fails */

static void tstate_free(void *p)
{
	struct tstate *t = p;

	bc_status_clear(&t->pending);
	bc_status_clear(&t->last);
	free(t);
}

static void tkey_make(void)
{
	(void)pthread_key_create(&tkey, tstate_free);
}

static struct tstate *tstate(void)
{
	struct tstate *t;

	pthread_once(&tonce, tkey_make);
	t = pthread_getspecific(tkey);
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t || pthread_setspecific(tkey, t) != 0) {
			free(t);
			return &tfallback;
		}
	}
	return t;
}

bc_status *bc__iface_pending(void)
{
	return &tstate()->pending;
}

bool *bc__iface_pending_set(void)
{
	return &tstate()->pending_set;
}

bc_status *bc__iface_last(void)
{
	return &tstate()->last;
}

const bc_status *bc_iface_last_status(void)
{
	return bc__iface_last();
}

int bc_iface_throw(int32_t exception, const char *message)
{
	struct tstate *t = tstate();

	if (exception == BINDERC_EX_NONE)
		exception = BINDERC_EX_ILLEGAL_STATE;
	bc_status_clear(&t->pending);
	if (bc_status_set_exception(&t->pending, exception, message) < 0)
		(void)bc_status_set_exception(&t->pending, exception, NULL);
	t->pending_set = true;
	return -EREMOTEIO;
}

int bc_iface_throw_service(int32_t error, const char *message)
{
	struct tstate *t = tstate();

	bc_status_clear(&t->pending);
	if (bc_status_set_service_error(&t->pending, error, message) < 0)
		(void)bc_status_set_service_error(&t->pending, error, NULL);
	t->pending_set = true;
	return error > 0 ? error : -EREMOTEIO;
}

/* ---- descriptions ----------------------------------------------------- */

static int errorf(char **ret_error, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int errorf(char **ret_error, const char *fmt, ...)
{
	va_list ap;

	if (ret_error) {
		va_start(ap, fmt);
		if (vasprintf(ret_error, fmt, ap) < 0)
			*ret_error = NULL;
		va_end(ap);
	}
	return -EINVAL;
}

static void method_clear(struct bc__method *m)
{
	free((char *)m->pub.name);
	free((char *)m->pub.in_sig);
	free((char *)m->pub.out_sig);
	free(m->in);
	free(m->out);
}

static void iface_free(bc_iface *f)
{
	for (size_t k = 0; k < f->n_methods; k++)
		method_clear(&f->methods[k]);
	free(f->methods);
	free(f->descriptor);
	bc_class_unref(f->cls);
	free(f);
}

static int parse_one(const char *name, const char *what, const char *sig, struct bc__arg **args, size_t *n,
		     char **ret_error)
{
	const char *why = NULL;
	size_t bad = 0;
	int r = bc__sig_parse(sig, args, n, &bad, &why);

	if (r == -EINVAL) {
		if (bad < strlen(sig))
			return errorf(ret_error, "method \"%s\" %s signature \"%s\": %s: '%c' at offset %zu", name,
				      what, sig, why, sig[bad], bad);
		return errorf(ret_error, "method \"%s\" %s signature \"%s\": %s at the end (offset %zu)", name,
			      what, sig, why, bad);
	}
	return r;
}

static int compile_method(struct bc__method *m, const struct bc_iface_method *d, size_t index, char **ret_error)
{
	const char *in = d->in_sig ? d->in_sig : "", *out = d->out_sig ? d->out_sig : "";
	size_t k, w = 0;
	int r;

	m->pub.code = d->code ? d->code : BINDERC_FIRST_CALL_TRANSACTION + (uint32_t)index;
	m->pub.flags = d->flags;
	m->pub.name = strdup(d->name);
	m->pub.in_sig = strdup(in);
	m->pub.out_sig = strdup(out);
	if (!m->pub.name || !m->pub.in_sig || !m->pub.out_sig)
		return -ENOMEM;
	r = parse_one(d->name, "input", in, &m->in, &m->n_in, ret_error);
	if (r < 0)
		return r;
	r = parse_one(d->name, "output", out, &m->out, &m->n_out, ret_error);
	if (r < 0)
		return r;
	if ((d->flags & BINDERC_IFACE_ONEWAY) && m->n_out)
		return errorf(ret_error, "one-way method \"%s\" has an output signature \"%s\"", d->name, out);
	for (k = 0; k < m->n_in; k++)
		w += bc__arg_width(&m->in[k]);
	m->n_cin = w;
	for (k = 0; k < m->n_out; k++)
		w += bc__arg_width(&m->out[k]);
	m->n_cout = w - m->n_cin;
	if (w > BINDERC_IFACE_MAX_PARAMS)
		return errorf(ret_error, "method \"%s\" takes %zu C parameters (more than %d)", d->name, w,
			      BINDERC_IFACE_MAX_PARAMS);
	m->types[0] = &ffi_type_pointer; /* self */
	w = 1;
	for (k = 0; k < m->n_in; k++) {
		bc__arg_ffi_types(&m->in[k], false, &m->types[w]);
		w += bc__arg_width(&m->in[k]);
	}
	for (k = 0; k < m->n_out; k++) {
		bc__arg_ffi_types(&m->out[k], true, &m->types[w]);
		w += bc__arg_width(&m->out[k]);
	}
	if (ffi_prep_cif(&m->cif, FFI_DEFAULT_ABI, (unsigned)w, &ffi_type_sint, m->types) != FFI_OK)
		return errorf(ret_error, "method \"%s\": libffi cannot prepare the call", d->name);
	return 0;
}

int bc_iface_new(const struct bc_iface_def *def, bc_iface **ret, char **ret_error)
{
	bc_iface *f;
	size_t i, j;
	int r;

	if (ret_error)
		*ret_error = NULL;
	if (!ret)
		return -EINVAL;
	if (!def)
		return errorf(ret_error, "no description");
	if (!def->descriptor || !*def->descriptor)
		return errorf(ret_error, "the interface has no descriptor");
	if (def->n_methods && !def->methods)
		return errorf(ret_error, "interface \"%s\": %zu methods but no table", def->descriptor,
			      def->n_methods);
	for (i = 0; i < def->n_methods; i++) {
		const struct bc_iface_method *a = &def->methods[i];
		uint32_t ca = a->code ? a->code : BINDERC_FIRST_CALL_TRANSACTION + (uint32_t)i;

		if (!a->name || !*a->name)
			return errorf(ret_error, "interface \"%s\": method #%zu has no name", def->descriptor, i);
		if (ca < BINDERC_FIRST_CALL_TRANSACTION || ca > BINDERC_LAST_CALL_TRANSACTION || i > BINDERC_LAST_CALL_TRANSACTION)
			return errorf(ret_error, "method \"%s\": code 0x%x outside the user range", a->name, ca);
		if (a->flags & ~BINDERC_IFACE_ONEWAY)
			return errorf(ret_error, "method \"%s\": unknown flags 0x%x", a->name, a->flags);
		for (j = 0; j < i; j++) {
			const struct bc_iface_method *b = &def->methods[j];
			uint32_t cb = b->code ? b->code : BINDERC_FIRST_CALL_TRANSACTION + (uint32_t)j;

			if (!strcmp(a->name, b->name))
				return errorf(ret_error, "duplicate method name \"%s\"", a->name);
			if (ca == cb)
				return errorf(ret_error, "methods \"%s\" and \"%s\" have the same code 0x%x", b->name,
					      a->name, ca);
		}
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	atomic_init(&f->refs, 1);
	f->descriptor = strdup(def->descriptor);
	f->methods = calloc(def->n_methods ? def->n_methods : 1, sizeof(*f->methods));
	if (!f->descriptor || !f->methods) {
		iface_free(f);
		return -ENOMEM;
	}
	for (i = 0; i < def->n_methods; i++) {
		f->n_methods = i + 1;
		r = compile_method(&f->methods[i], &def->methods[i], i, ret_error);
		if (r < 0) {
			iface_free(f);
			return r;
		}
	}
	f->n_methods = def->n_methods;
	r = bc_class_new(f->descriptor, bc__iface_stub_transact, bc__iface_stub_destroy, 0, &f->cls);
	if (r < 0) {
		iface_free(f);
		return r;
	}
	*ret = f;
	return 0;
}

BINDERC_DEFINE_TRIVIAL_REF_UNREF(bc_iface, bc_iface, iface_free);

const char *bc_iface_get_descriptor(const bc_iface *iface)
{
	return iface ? iface->descriptor : NULL;
}

size_t bc_iface_get_n_methods(const bc_iface *iface)
{
	return iface ? iface->n_methods : 0;
}

int bc_iface_find_method(const bc_iface *iface, const char *name)
{
	if (!iface || !name)
		return -EINVAL;
	for (size_t k = 0; k < iface->n_methods; k++)
		if (!strcmp(iface->methods[k].pub.name, name))
			return (int)k;
	return -ENOENT;
}

int bc_iface_find_code(const bc_iface *iface, uint32_t code)
{
	if (!iface)
		return -EINVAL;
	for (size_t k = 0; k < iface->n_methods; k++)
		if (iface->methods[k].pub.code == code)
			return (int)k;
	return -ENOENT;
}

const struct bc_iface_method *bc_iface_get_method(const bc_iface *iface, size_t index)
{
	if (!iface || index >= iface->n_methods)
		return NULL;
	return &iface->methods[index].pub;
}

/* ---- registry --------------------------------------------------------- */

struct reg {
	struct reg *next;
	bc_iface *iface;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct reg *regs;

static bool same_description(const bc_iface *a, const bc_iface *b)
{
	if (a->n_methods != b->n_methods)
		return false;
	for (size_t k = 0; k < a->n_methods; k++) {
		const struct bc_iface_method *x = &a->methods[k].pub, *y = &b->methods[k].pub;

		if (strcmp(x->name, y->name) || x->code != y->code || strcmp(x->in_sig, y->in_sig) ||
		    strcmp(x->out_sig, y->out_sig) || x->flags != y->flags)
			return false;
	}
	return true;
}

int bc_iface_register(bc_iface *iface, bool replace)
{
	/* Allocated before the lock, freed if the descriptor is known. */
	struct reg *r, *fresh;
	int ret = 0;

	if (!iface)
		return -EINVAL;
	fresh = malloc(sizeof(*fresh));
	if (!fresh)
		return -ENOMEM;
	pthread_mutex_lock(&reg_lock);
	for (r = regs; r; r = r->next) {
		if (strcmp(r->iface->descriptor, iface->descriptor))
			continue;
		if (!replace && !same_description(r->iface, iface)) {
			ret = -EEXIST;
			break;
		}
		/* The old description is dropped after unlocking. */
		fresh->iface = r->iface;
		r->iface = bc_iface_ref(iface);
		break;
	}
	if (!r) {
		fresh->iface = bc_iface_ref(iface);
		fresh->next = regs;
		regs = fresh;
		fresh = NULL;
	}
	pthread_mutex_unlock(&reg_lock);
	if (fresh) {
		if (r && ret == 0)
			bc_iface_unref(fresh->iface);
		free(fresh);
	}
	return ret;
}

int bc_iface_unregister(const char *descriptor)
{
	struct reg **pp, *r;

	if (!descriptor)
		return -EINVAL;
	pthread_mutex_lock(&reg_lock);
	for (pp = &regs; (r = *pp); pp = &r->next) {
		if (!strcmp(r->iface->descriptor, descriptor)) {
			*pp = r->next;
			pthread_mutex_unlock(&reg_lock);
			bc_iface_unref(r->iface);
			free(r);
			return 0;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return -ENOENT;
}

int bc_iface_lookup(const char *descriptor, bc_iface **ret)
{
	struct reg *r;

	if (!descriptor || !ret)
		return -EINVAL;
	pthread_mutex_lock(&reg_lock);
	for (r = regs; r; r = r->next) {
		if (!strcmp(r->iface->descriptor, descriptor)) {
			*ret = bc_iface_ref(r->iface);
			pthread_mutex_unlock(&reg_lock);
			return 0;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return -ENOENT;
}

/* ---- description sharing ---------------------------------------------- */
/*
 * The answer to BINDERC_IFACE_DESCRIBE_TRANSACTION: AIDL status header (EX_NONE),
 * String16 descriptor, int32 n, then per method String16 name, int32 code,
 * String16 input signature, String16 output signature, int32 flags.
 */
int bc__iface_describe(const bc_iface *iface, bc_parcel *reply)
{
	int r = bc_parcel_write_status(reply, NULL);

	if (r == 0)
		r = bc_parcel_write_string16(reply, iface->descriptor);
	if (r == 0)
		r = bc_parcel_write_int32(reply, (int32_t)iface->n_methods);
	for (size_t k = 0; r == 0 && k < iface->n_methods; k++) {
		const struct bc_iface_method *m = &iface->methods[k].pub;

		r = bc_parcel_write_string16(reply, m->name);
		if (r == 0)
			r = bc_parcel_write_uint32(reply, m->code);
		if (r == 0)
			r = bc_parcel_write_string16(reply, m->in_sig);
		if (r == 0)
			r = bc_parcel_write_string16(reply, m->out_sig);
		if (r == 0)
			r = bc_parcel_write_uint32(reply, m->flags);
	}
	return r;
}

static int parse_description(bc_parcel *reply, bc_iface **ret)
{
	struct bc_iface_def def = { NULL, NULL, 0 };
	struct bc_iface_method *ms = NULL;
	bc_status st = BINDERC_STATUS_INIT;
	char *desc = NULL;
	int32_t n = 0;
	size_t k;
	int r;

	r = bc_parcel_read_status(reply, &st);
	if (r == 0 && !bc_status_is_ok(&st))
		r = -EREMOTEIO;
	bc_status_clear(&st);
	if (r == 0)
		r = bc_parcel_read_string16(reply, &desc, NULL);
	if (r == 0 && !desc)
		r = -EBADMSG;
	if (r == 0)
		r = bc_parcel_read_int32(reply, &n);
	if (r == 0 && (n < 0 || (size_t)n > bc_parcel_remaining(reply) / 20))
		r = -EBADMSG;
	if (r == 0 && n > 0) {
		ms = calloc((size_t)n, sizeof(*ms));
		if (!ms)
			r = -ENOMEM;
	}
	for (k = 0; r == 0 && k < (size_t)n; k++) {
		char *name = NULL, *in = NULL, *out = NULL;

		r = bc_parcel_read_string16(reply, &name, NULL);
		ms[k].name = name;
		if (r == 0)
			r = bc_parcel_read_uint32(reply, &ms[k].code);
		if (r == 0)
			r = bc_parcel_read_string16(reply, &in, NULL);
		ms[k].in_sig = in;
		if (r == 0)
			r = bc_parcel_read_string16(reply, &out, NULL);
		ms[k].out_sig = out;
		if (r == 0)
			r = bc_parcel_read_uint32(reply, &ms[k].flags);
		if (r == 0 && (!name || !ms[k].code))
			r = -EBADMSG;
	}
	if (r == 0) {
		def.descriptor = desc;
		def.methods = ms;
		def.n_methods = (size_t)n;
		r = bc_iface_new(&def, ret, NULL);
		if (r == -EINVAL)
			r = -EBADMSG;
	} else if (r != -ENOMEM && r != -EREMOTEIO) {
		r = -EBADMSG;
	}
	for (k = 0; ms && k < (size_t)n; k++) { /* calloc'ed: unread entries are NULL */
		free((char *)ms[k].name);
		free((char *)ms[k].in_sig);
		free((char *)ms[k].out_sig);
	}
	free(ms);
	free(desc);
	return r;
}

int bc_iface_fetch(bc_binder *b, bc_iface **ret)
{
	bc_parcel *reply = NULL;
	int r;

	if (!b || !ret)
		return -EINVAL;
	r = bc_binder_transact(b, BINDERC_IFACE_DESCRIBE_TRANSACTION, NULL, &reply, 0, NULL);
	if (r == -EBADMSG)
		return r; /* unknown transaction: not a binder-c stub */
	if (r == 0)
		r = reply ? parse_description(reply, ret) : -EBADMSG;
	bc_parcel_unref(reply);
	return r;
}

int bc_iface_resolve(bc_binder *b, bc_iface **ret)
{
	char *desc = NULL;
	int r;

	if (!b || !ret)
		return -EINVAL;
	r = bc_binder_get_interface(b, &desc);
	if (r < 0)
		return r;
	r = bc_iface_lookup(desc, ret);
	if (r == -ENOENT) {
		r = bc_iface_fetch(b, ret);
		if (r == 0 && strcmp((*ret)->descriptor, desc)) {
			*ret = bc_iface_unref(*ret);
			r = -EBADMSG;
		}
	}
	free(desc);
	return r;
}
