// SPDX-License-Identifier: MIT
/* The interfaces of the observer example. */
#ifndef TICKER_H
#define TICKER_H

#define TICKER_NAME "ticker"
#define TICKER_DESCRIPTOR "org.binderc.example.ITicker"
#define TICKER_SUBSCRIBE 1 /* void subscribe(ITickObserver observer) */

#define OBSERVER_DESCRIPTOR "org.binderc.example.ITickObserver"
#define OBSERVER_ON_TICK 1 /* oneway void onTick(int n) */

#endif
