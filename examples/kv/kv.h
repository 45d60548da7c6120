// SPDX-License-Identifier: MIT
/*
 * The key-value store interface, described once and shared by kv-service
 * and kv-client, plus the listener interface clients implement to hear
 * about changes.  Wire-compatible with the AIDL interfaces
 *
 *   interface IKeyValue {
 *       boolean put(String key, in byte[] value);
 *       @nullable byte[] get(String key);
 *       boolean remove(String key);
 *       String[] keys(@nullable String prefix);
 *       int size();
 *       void putString(String key, String value);
 *       @nullable String getString(String key);
 *       int dump(in FileDescriptor out);
 *       void watch(IBinder listener);   // an IKvListener
 *   }
 *   interface IKvListener { oneway void changed(String key, boolean present); }
 */
#ifndef KV_H
#define KV_H

#include <binderc/iface.h>

#define KV_SERVICE_NAME "kv"

/* clang-format off */
#define KV_METHODS(METHOD, ONEWAY, IN, OUT)                                    \
	METHOD(put,        IN(string, key) IN(bytes, value),  OUT(bool, replaced)) \
	METHOD(get,        IN(string, key),                   OUT(nbytes, value))  \
	METHOD(remove,     IN(string, key),                   OUT(bool, removed))  \
	METHOD(keys,       IN(nstring, prefix),               OUT(strings, keys))  \
	METHOD(size,       ,                                  OUT(i32, n))         \
	METHOD(put_string, IN(string, key) IN(string, value), )                    \
	METHOD(get_string, IN(string, key),                   OUT(nstring, value)) \
	METHOD(dump,       IN(fd, out),                       OUT(i32, written))   \
	METHOD(watch,      IN(binder, listener),              )

#define KV_LISTENER_METHODS(METHOD, ONEWAY, IN, OUT)                           \
	ONEWAY(changed, IN(string, key) IN(bool, present))
/* clang-format on */

BINDERC_IFACE_DECLARE(kv, "org.binderc.examples.IKeyValue", KV_METHODS);
BINDERC_IFACE_DECLARE(kv_listener, "org.binderc.examples.IKvListener", KV_LISTENER_METHODS);

#endif
