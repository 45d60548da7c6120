/* SPDX-License-Identifier: MIT */
/*
 * One interface, written twice: examples/kv describes IKeyValue and
 * IKvListener with signature strings (kv.h, libbinder-c-iface), and
 * tests/aidl/kv has the same interfaces in AIDL for bc-aidl.  Every
 * method called through both proxies on one recording object must send
 * the same code, flags and bytes, and both must read the same reply.
 */
#include "at.h"

#include <binderc/iface.h>
#include <unistd.h>

#include "kv.h"
#include "org_binderc_examples_IKeyValue.h"
#include "org_binderc_examples_IKvListener.h"

struct rec {
	unsigned char data[4096];
	size_t size, nobj;
	uint32_t code, flags;
};

static struct rec last;

/* Replies as the kv service gives them (values chosen to be checked). */
static void reply_for(uint32_t code, bc_parcel *reply)
{
	bc_parcel_write_status(reply, NULL);
	switch (code) {
	case 1: /* put: replaced */
	case 3: /* remove: removed */
		bc_parcel_write_int32(reply, 1);
		break;
	case 2: /* get: a null byte[] */
	case 7: /* getString: a null String */
		bc_parcel_write_int32(reply, -1);
		break;
	case 4: /* keys: an empty String[] */
		bc_parcel_write_int32(reply, 0);
		break;
	case 5: /* size */
		bc_parcel_write_int32(reply, 7);
		break;
	case 8: /* dump: written */
		bc_parcel_write_int32(reply, 3);
		break;
	default:
		break;
	}
}

static int rec_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)ud;
	cr_assert_leq(bc_parcel_size(in), sizeof(last.data));
	last.size = bc_parcel_size(in);
	memcpy(last.data, bc_parcel_data(in), last.size);
	bc_parcel_offsets(in, &last.nobj);
	last.code = code;
	last.flags = bc_txn_get_flags(txn) & BINDERC_FLAG_ONEWAY;
	reply_for(code, reply);
	return 0;
}

static bc_binder *rec_new(const char *desc)
{
	bc_class *cls = NULL;
	bc_binder *b = NULL;

	cr_assert_eq(bc_class_new(desc, rec_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
	bc_class_unref(cls);
	return b;
}

static struct rec aidl_sent;

/* After the AIDL proxy's call: keep what it sent. */
static void took_aidl(int r)
{
	cr_assert_eq(r, 0, "AIDL proxy: %d", r);
	aidl_sent = last;
	memset(&last, 0, sizeof(last));
}

/* After the signature proxy's call: the same request as the AIDL one. */
static void same_as_aidl(int r, const char *what)
{
	cr_assert_eq(r, 0, "%s: signature proxy: %d", what, r);
	cr_assert_eq(last.code, aidl_sent.code, "%s: code %u, AIDL %u", what, last.code, aidl_sent.code);
	cr_assert_eq(last.flags, aidl_sent.flags, "%s: flags", what);
	cr_assert_eq(last.nobj, aidl_sent.nobj, "%s: objects", what);
	th_assert_bytes(last.data, last.size, aidl_sent.data, aidl_sent.size);
}

Test(aidl_vs_signatures, key_value_every_method)
{
	static const int8_t blob[] = { (int8_t)0xde, (int8_t)0xad, 0, (int8_t)0xbe, (int8_t)0xef };
	bc_binder *obj = rec_new(org_binderc_examples_IKeyValue_DESCRIPTOR), *listener = rec_new("x.L");
	bc_iface *iface = NULL;
	bc_iface_proxy *p = NULL;
	const struct kv *kv;
	bool b1 = false, b2 = false;
	int32_t i1 = 0, i2 = 0;
	int8_t *v1 = (int8_t *)1;
	void *v2 = (void *)1;
	char **k1 = NULL, **k2 = NULL, *s1 = (char *)1, *s2 = (char *)1;
	size_t n1 = 9, n2 = 9;

	cr_assert_eq(bc_iface_new(&kv_def, &iface, NULL), 0);
	cr_assert_eq(bc_iface_proxy_new(iface, obj, &p), 0);
	kv = bc_iface_proxy_methods(p);

	took_aidl(org_binderc_examples_IKeyValue_put(obj, "blob", blob, sizeof(blob), &b1));
	same_as_aidl(kv->put(p, "blob", blob, sizeof(blob), &b2), "put");
	cr_assert(b1 && b2);

	took_aidl(org_binderc_examples_IKeyValue_get(obj, "blob", &v1, &n1));
	same_as_aidl(kv->get(p, "blob", &v2, &n2), "get");
	cr_assert(v1 == NULL && v2 == NULL, "a null byte[] reads as NULL on both");

	took_aidl(org_binderc_examples_IKeyValue_remove(obj, "k", &b1));
	same_as_aidl(kv->remove(p, "k", &b2), "remove");

	took_aidl(org_binderc_examples_IKeyValue_keys(obj, NULL, &k1, &n1));
	same_as_aidl(kv->keys(p, NULL, &k2, &n2), "keys (null prefix)");
	cr_assert_eq(n1, 0);
	cr_assert_eq(n2, 0);
	bc_strv_free(k1, n1);
	bc_strv_free(k2, n2);
	took_aidl(org_binderc_examples_IKeyValue_keys(obj, "pre", &k1, &n1));
	same_as_aidl(kv->keys(p, "pre", &k2, &n2), "keys");
	bc_strv_free(k1, n1);
	bc_strv_free(k2, n2);

	took_aidl(org_binderc_examples_IKeyValue_size(obj, &i1));
	same_as_aidl(kv->size(p, &i2), "size");
	cr_assert(i1 == 7 && i2 == 7);

	took_aidl(org_binderc_examples_IKeyValue_putString(obj, "greeting", "hello, binder"));
	same_as_aidl(kv->put_string(p, "greeting", "hello, binder"), "putString");

	took_aidl(org_binderc_examples_IKeyValue_getString(obj, "greeting", &s1));
	same_as_aidl(kv->get_string(p, "greeting", &s2), "getString");
	cr_assert(s1 == NULL && s2 == NULL);

	/*
	 * The fd object is the request's last 24 bytes: the signature proxy
	 * sends a dup (another number) and owns it (cookie 1, as libbinder's
	 * writeDupFileDescriptor does); the AIDL proxy sends the caller's fd
	 * (cookie 0).  Receivers read neither; the rest must match.
	 */
	took_aidl(org_binderc_examples_IKeyValue_dump(obj, STDERR_FILENO, &i1));
	cr_assert_eq(kv->dump(p, STDERR_FILENO, &i2), 0);
	cr_assert_eq(last.size, aidl_sent.size);
	memset(last.data + last.size - 16, 0, 4);
	memset(last.data + last.size - 8, 0, 8);
	memset(aidl_sent.data + aidl_sent.size - 16, 0, 4);
	memset(aidl_sent.data + aidl_sent.size - 8, 0, 8);
	same_as_aidl(0, "dump (an fd; number and cookie masked)");
	cr_assert(i1 == 3 && i2 == 3);

	took_aidl(org_binderc_examples_IKeyValue_watch(obj, listener));
	same_as_aidl(kv->watch(p, listener), "watch (a binder)");

	bc_iface_proxy_unref(p);
	bc_iface_unref(iface);
	bc_binder_unref(listener);
	bc_binder_unref(obj);
}

Test(aidl_vs_signatures, listener_oneway)
{
	bc_binder *obj = rec_new(org_binderc_examples_IKvListener_DESCRIPTOR);
	bc_iface *iface = NULL;
	bc_iface_proxy *p = NULL;
	const struct kv_listener *l;

	cr_assert_eq(bc_iface_new(&kv_listener_def, &iface, NULL), 0);
	cr_assert_eq(bc_iface_proxy_new(iface, obj, &p), 0);
	l = bc_iface_proxy_methods(p);
	took_aidl(org_binderc_examples_IKvListener_changed(obj, "greeting", true));
	cr_assert_eq(aidl_sent.flags, BINDERC_FLAG_ONEWAY);
	same_as_aidl(l->changed(p, "greeting", true), "changed");
	bc_iface_proxy_unref(p);
	bc_iface_unref(iface);
	bc_binder_unref(obj);
}
