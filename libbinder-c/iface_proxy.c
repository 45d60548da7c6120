// SPDX-License-Identifier: MIT
/*
 * Proxy side of signature interfaces: typed C function pointers made of
 * libffi closures (ffi_closure_alloc / ffi_prep_closure_loc), and the
 * varargs bc_call().  Both end in invoke(): marshal, transact, unmarshal.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iface_internal.h"

typedef void (*bc__fn)(void);

struct binding {
	bc_iface_proxy *proxy;
	const struct bc__method *m;
};

struct bc_iface_proxy {
	atomic_int refs;
	bc_iface *iface;
	bc_binder *remote;
	bc_iface_transport_fn send;
	void *ctx;
	ffi_closure **closures;
	struct binding *bindings;
	bc__fn *fns; /* the typed vtable */
};

static int binder_transport(void *ctx, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags)
{
	return bc_binder_transact(ctx, code, data, ret_reply, flags, NULL);
}

/*
 * One call.  @cargs[0..n_cin+n_cout) are the addresses of the C parameters
 * after self: the inputs' values, then the output pointers.
 */
static int invoke(bc_iface_proxy *p, const struct bc__method *m, void *const *cargs)
{
	union bc__val v[BINDERC_IFACE_MAX_PARAMS];
	bool oneway = m->pub.flags & BINDERC_IFACE_ONEWAY;
	bc_parcel *data = NULL, *reply = NULL;
	bc_status st = BINDERC_STATUS_INIT, *last = bc__iface_last();
	size_t k, w, nread = 0;
	int r;

	bc_status_clear(last);
	r = p->remote ? bc_binder_new_parcel(p->remote, &data) : bc_parcel_new(&data);
	if (r < 0)
		return r;
	r = bc_parcel_write_interface_token(data, p->iface->descriptor);
	for (k = 0, w = 0; r == 0 && k < m->n_in; k++) {
		bc__val_load(&m->in[k], &cargs[w], v);
		r = bc__val_write(data, &m->in[k], v, false);
		w += bc__arg_width(&m->in[k]);
	}
	if (r == 0)
		r = p->send(p->ctx, m->pub.code, data, oneway ? NULL : &reply, oneway ? BINDERC_FLAG_ONEWAY : 0);
	bc_parcel_unref(data);
	if (r < 0 || oneway)
		goto out;
	if (!reply) {
		r = -EBADMSG;
		goto out;
	}
	r = bc_parcel_read_status(reply, &st);
	if (r < 0) {
		r = r == -ENOMEM ? r : -EBADMSG;
		goto out;
	}
	if (!bc_status_is_ok(&st)) {
		bool service = st.exception == BINDERC_EX_SERVICE_SPECIFIC && st.service_error > 0;

		r = service ? st.service_error : -EREMOTEIO;
		*last = st; /* moved */
		st = (bc_status)BINDERC_STATUS_INIT;
		goto out;
	}
	for (k = 0, w = 0; k < m->n_out; k++, nread++) {
		r = bc__val_read(reply, &m->out[k], &v[w], true);
		if (r < 0) {
			r = r == -ENOMEM ? r : -EBADMSG;
			break;
		}
		w += bc__arg_width(&m->out[k]);
	}
	w = 0;
	for (k = 0; k < nread; k++) {
		const struct bc__arg *a = &m->out[k];

		if (r < 0) {
			bc__val_free(a, &v[w], true, true);
		} else {
			void *dst[2] = { *(void *const *)cargs[m->n_cin + w], NULL };

			if (bc__arg_width(a) == 2)
				dst[1] = *(void *const *)cargs[m->n_cin + w + 1];
			bc__val_store(a, &v[w], dst);
		}
		w += bc__arg_width(a);
	}
out:
	bc_status_clear(&st);
	bc_parcel_unref(reply);
	return r;
}

static void closure_entry(ffi_cif *cif, void *ret, void **args, void *userdata)
{
	struct binding *b = userdata;

	(void)cif;
	/* args[0] is &self: the closure knows its proxy already */
	*(ffi_sarg *)ret = invoke(b->proxy, b->m, args + 1);
}

static void proxy_free(bc_iface_proxy *p)
{
	for (size_t k = 0; p->closures && k < p->iface->n_methods; k++)
		if (p->closures[k])
			ffi_closure_free(p->closures[k]);
	free(p->closures);
	free(p->bindings);
	free(p->fns);
	bc_binder_unref(p->remote);
	bc_iface_unref(p->iface);
	free(p);
}

static int proxy_new(bc_iface *iface, bc_binder *remote, bc_iface_transport_fn fn, void *ctx, bc_iface_proxy **ret)
{
	size_t n = iface->n_methods ? iface->n_methods : 1;
	bc_iface_proxy *p;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	atomic_init(&p->refs, 1);
	p->iface = bc_iface_ref(iface);
	p->remote = remote ? bc_binder_ref(remote) : NULL;
	p->send = fn;
	p->ctx = remote ? (void *)remote : ctx;
	p->closures = calloc(n, sizeof(*p->closures));
	p->bindings = calloc(n, sizeof(*p->bindings));
	p->fns = calloc(n, sizeof(*p->fns));
	if (!p->closures || !p->bindings || !p->fns) {
		proxy_free(p);
		return -ENOMEM;
	}
	for (size_t k = 0; k < iface->n_methods; k++) {
		void *code = NULL;

		p->closures[k] = ffi_closure_alloc(sizeof(ffi_closure), &code);
		if (!p->closures[k]) {
			proxy_free(p);
			return -ENOMEM;
		}
		p->bindings[k].proxy = p;
		p->bindings[k].m = &iface->methods[k];
		if (ffi_prep_closure_loc(p->closures[k], &iface->methods[k].cif, closure_entry, &p->bindings[k],
					 code) != FFI_OK) {
			proxy_free(p);
			return -ENOMEM;
		}
		memcpy(&p->fns[k], &code, sizeof(code));
	}
	*ret = p;
	return 0;
}

int bc_iface_proxy_new(bc_iface *iface, bc_binder *remote, bc_iface_proxy **ret)
{
	if (!iface || !remote || !ret)
		return -EINVAL;
	return proxy_new(iface, remote, binder_transport, NULL, ret);
}

int bc_iface_proxy_new_transport(bc_iface *iface, bc_iface_transport_fn fn, void *ctx, bc_iface_proxy **ret)
{
	if (!iface || !fn || !ret)
		return -EINVAL;
	return proxy_new(iface, NULL, fn, ctx, ret);
}

BINDERC_DEFINE_TRIVIAL_REF_UNREF(bc_iface_proxy, bc_iface_proxy, proxy_free);

bc_iface *bc_iface_proxy_get_iface(const bc_iface_proxy *p)
{
	return p ? p->iface : NULL;
}

bc_binder *bc_iface_proxy_get_binder(const bc_iface_proxy *p)
{
	return p ? p->remote : NULL;
}

const void *bc_iface_proxy_methods(const bc_iface_proxy *p)
{
	return p ? p->fns : NULL;
}

/* ---- varargs ------------------------------------------------------------ */

int bc_vcall(bc_iface_proxy *p, const char *method, va_list ap)
{
	union bc__val v[BINDERC_IFACE_MAX_PARAMS];
	void *outp[BINDERC_IFACE_MAX_PARAMS], *cargs[BINDERC_IFACE_MAX_PARAMS];
	const struct bc__method *m;
	size_t k, w = 0;
	va_list aq;
	int idx;

	if (!p || !method)
		return -EINVAL;
	idx = bc_iface_find_method(p->iface, method);
	if (idx < 0)
		return idx;
	m = &p->iface->methods[idx];
	/* A va_list parameter may be an array that decayed to a pointer, so
	 * only a local copy can be passed on by address. */
	va_copy(aq, ap);
	for (k = 0; k < m->n_in; k++) {
		const struct bc__arg *a = &m->in[k];

		bc__val_from_va(a, &aq, &v[w]);
		for (size_t j = 0; j < bc__arg_width(a); j++)
			cargs[w + j] = &v[w + j];
		w += bc__arg_width(a);
	}
	for (k = 0; k < m->n_cout; k++) {
		outp[k] = va_arg(aq, void *);
		cargs[w + k] = &outp[k];
	}
	va_end(aq);
	return invoke(p, m, cargs);
}

int bc_call(bc_iface_proxy *p, const char *method, ...)
{
	va_list ap;
	int r;

	va_start(ap, method);
	r = bc_vcall(p, method, ap);
	va_end(ap);
	return r;
}
