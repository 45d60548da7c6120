// SPDX-License-Identifier: MIT
/*
 * Stub side of signature interfaces: decode a call by signature, invoke the
 * implementation with ffi_call(), encode status and outputs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iface_internal.h"

typedef void (*bc__fn)(void);

struct stub {
	bc_iface *iface;
	void *userdata;
	bc_destroy_fn destroy;
	bc__fn fns[]; /* n_methods */
};

int bc__iface_stub_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply,
			    void *userdata);
void bc__iface_stub_destroy(void *userdata);

int bc__iface_stub_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply,
			    void *userdata)
{
	struct stub *s = userdata;

	(void)self;
	(void)txn;
	return bc_iface_dispatch(s->iface, s->fns, s->userdata, code, in, reply);
}

void bc__iface_stub_destroy(void *userdata)
{
	struct stub *s = userdata;

	if (s->destroy)
		s->destroy(s->userdata);
	bc_iface_unref(s->iface);
	free(s);
}

int bc_iface_stub_new(bc_iface *iface, const void *impl, void *userdata, bc_destroy_fn destroy, bc_binder **ret)
{
	struct stub *s;
	int r;

	if (!iface || !impl || !ret)
		return -EINVAL;
	s = calloc(1, sizeof(*s) + iface->n_methods * sizeof(bc__fn));
	if (!s)
		return -ENOMEM;
	s->iface = bc_iface_ref(iface);
	s->userdata = userdata;
	s->destroy = destroy;
	memcpy(s->fns, impl, iface->n_methods * sizeof(bc__fn));
	r = bc_binder_new(iface->cls, s, ret);
	if (r < 0) {
		/* not created: the destroy callback is not the object's yet */
		bc_iface_unref(s->iface);
		free(s);
	}
	return r;
}

/* Release the first @n_args items' values starting at @v. */
static void free_vals(const struct bc__arg *args, size_t n_args, union bc__val *v, bool own)
{
	for (size_t k = 0; k < n_args; k++) {
		bc__val_free(&args[k], v, own, true);
		v += bc__arg_width(&args[k]);
	}
}

static int write_outputs(const struct bc__method *m, union bc__val *out, bc_parcel *reply)
{
	union bc__val *v = out;
	int r = bc_parcel_write_status(reply, NULL);

	for (size_t k = 0; r == 0 && k < m->n_out; k++) {
		r = bc__val_write(reply, &m->out[k], v, true);
		if (r == 0 && bc__arg_is_fd(&m->out[k]))
			v->h = -1; /* the reply parcel owns it now */
		v += bc__arg_width(&m->out[k]);
	}
	return r;
}

int bc_iface_dispatch(bc_iface *iface, const void *impl, void *userdata, uint32_t code, bc_parcel *in,
		      bc_parcel *reply)
{
	union bc__val vin[BINDERC_IFACE_MAX_PARAMS], vout[BINDERC_IFACE_MAX_PARAMS];
	void *avalues[1 + BINDERC_IFACE_MAX_PARAMS], *optrs[BINDERC_IFACE_MAX_PARAMS];
	const struct bc__method *m;
	size_t k, w, nin = 0;
	bc__fn fn;
	ffi_arg rc = 0;
	bc_status *pending, outer;
	bool *pending_set, outer_set;
	int idx, r;

	if (!iface || !impl || !in || !reply)
		return -EINVAL;
	if (code == BINDERC_IFACE_DESCRIBE_TRANSACTION)
		return bc__iface_describe(iface, reply);
	idx = bc_iface_find_code(iface, code);
	if (idx < 0)
		return -EBADMSG;
	m = &iface->methods[idx];
	memcpy(&fn, (const char *)impl + (size_t)idx * sizeof(bc__fn), sizeof(fn));
	if (!fn)
		return -EBADMSG;

	r = bc_parcel_enforce_interface(in, iface->descriptor);
	if (r == -EPERM || r == -EPROTO)
		return -EPERM;
	if (r < 0)
		return r == -ENOMEM ? r : -EINVAL;

	avalues[0] = &userdata;
	for (k = 0, w = 0; k < m->n_in; k++, nin++) {
		r = bc__val_read(in, &m->in[k], &vin[w], false);
		if (r < 0) {
			free_vals(m->in, nin, vin, false);
			return r == -ENOMEM ? r : -EINVAL; /* BAD_VALUE */
		}
		for (size_t j = 0; j < bc__arg_width(&m->in[k]); j++)
			avalues[1 + w + j] = &vin[w + j];
		w += bc__arg_width(&m->in[k]);
	}
	for (k = 0, w = 0; k < m->n_out; k++) {
		bc__val_init(&m->out[k], &vout[w]);
		for (size_t j = 0; j < bc__arg_width(&m->out[k]); j++) {
			optrs[w + j] = &vout[w + j];
			avalues[1 + m->n_cin + w + j] = &optrs[w + j];
		}
		w += bc__arg_width(&m->out[k]);
	}

	/* An implementation may call local objects, which dispatch on this
	 * thread too: keep the outer call's pending exception aside. */
	pending = bc__iface_pending();
	pending_set = bc__iface_pending_set();
	outer = *pending;
	outer_set = *pending_set;
	*pending = (bc_status)BINDERC_STATUS_INIT;
	*pending_set = false;
	ffi_call((ffi_cif *)&m->cif, fn, &rc, avalues);
	r = (int)(ffi_sarg)rc;
	free_vals(m->in, m->n_in, vin, false);

	if (m->pub.flags & BINDERC_IFACE_ONEWAY) {
		r = 0; /* nobody to tell */
	} else if (r == 0) {
		r = write_outputs(m, vout, reply);
	} else if (r > 0 || (r == -EREMOTEIO && *pending_set)) {
		bc_status st = BINDERC_STATUS_INIT;

		if (*pending_set) {
			r = bc_parcel_write_status(reply, pending);
		} else {
			r = bc_status_set_service_error(&st, r, NULL);
			if (r == 0)
				r = bc_parcel_write_status(reply, &st);
			bc_status_clear(&st);
		}
	}
	/* else: a negative status code, sent instead of the reply */
	free_vals(m->out, m->n_out, vout, true);
	bc_status_clear(pending);
	*pending = outer;
	*pending_set = outer_set;
	return r;
}
