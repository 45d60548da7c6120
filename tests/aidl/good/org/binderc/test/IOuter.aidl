// SPDX-License-Identifier: MIT
package org.binderc.test;

/* Nested interfaces (Android 13+): declared in an interface or a
 * parcelable, with the descriptor org.binderc.test.IOuter.IInner. */
interface IOuter {
    oneway interface IEvents {
        void fired(int n);
    }
    interface IInner {
        int twice(int n);
    }
    parcelable Slot {
        interface IPeek {
            String peek();
        }
        @nullable IPeek peeker;
        IInner inner;
        int n = 1;
    }

    void watch(IEvents e);
    IInner make(int base);
    @nullable Slot.IPeek fromSlot(in Slot s);
}
