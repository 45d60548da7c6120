// SPDX-License-Identifier: MIT
// The interface of examples/kv (kv.h describes it with signature strings):
// tests/aidl/golden_kv.c checks that both write the same bytes.
package org.binderc.examples;

interface IKeyValue {
    boolean put(String key, in byte[] value);
    @nullable byte[] get(String key);
    boolean remove(String key);
    String[] keys(@nullable String prefix);
    int size();
    void putString(String key, String value);
    @nullable String getString(String key);
    int dump(in FileDescriptor out);
    void watch(IBinder listener);
}
