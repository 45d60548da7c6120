// SPDX-License-Identifier: MIT
/*
 * power-service [INSTANCE]: a pretend power HAL served as Android 14's
 * android.hardware.power.IPower (version 4) under
 * "android.hardware.power.IPower/INSTANCE" (default "default"), from C
 * that bc-aidl generated out of the .aidl files beside it.  Like every
 * @VintfStability service it registers only under a name the service
 * manager declares, and exits 1 when refused.
 *
 * It changes no CPU setting: it prints each mode, boost and hint it is
 * given (one-way calls, so the printed lines are how a test sees them),
 * and hands out IPowerHintSession objects, each a stub of its own.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "android_hardware_power_IPower.h"
#include "android_hardware_power_IPowerHintSession.h"

#define P(x) android_hardware_power_##x

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* ---- a hint session: one per createHintSession ---------------------------- */

struct session {
	int id;
	int64_t target_ns;
};

static int update_target(void *self, int64_t ns)
{
	struct session *s = self;

	s->target_ns = ns;
	say("power: session %d target %" PRId64 " ns\n", s->id, ns);
	return 0;
}

static int report(void *self, const P(WorkDuration) *d, size_t n)
{
	struct session *s = self;
	int64_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += d[i].durationNanos;
	say("power: session %d reported %zu durations, %" PRId64 " ns in all (target %" PRId64 ")\n", s->id, n, total,
	    s->target_ns);
	return 0;
}

static int session_close(void *self)
{
	say("power: session %d closed\n", ((struct session *)self)->id);
	return 0;
}

static int send_hint(void *self, P(SessionHint) hint)
{
	say("power: session %d hint %d\n", ((struct session *)self)->id, hint);
	return 0;
}

static int set_threads(void *self, const int32_t *tids, size_t n)
{
	(void)tids;
	say("power: session %d now has %zu threads\n", ((struct session *)self)->id, n);
	return n ? 0 : -EINVAL;
}

static const struct P(IPowerHintSession_ops) session_ops = {
	.updateTargetWorkDuration = update_target,
	.reportActualWorkDuration = report,
	.close = session_close,
	.sendHint = send_hint,
	.setThreads = set_threads,
};

static void session_free(void *self)
{
	free(self);
}

/* ---- IPower ---------------------------------------------------------------------- */

static int set_mode(void *self, P(Mode) mode, bool enabled)
{
	(void)self;
	say("power: mode %d %s\n", mode, enabled ? "on" : "off");
	return 0;
}

static int is_mode_supported(void *self, P(Mode) mode, bool *ret)
{
	(void)self;
	*ret = mode == P(Mode_LOW_POWER) || mode == P(Mode_INTERACTIVE) || mode == P(Mode_GAME);
	return 0;
}

static int set_boost(void *self, P(Boost) boost, int32_t ms)
{
	(void)self;
	say("power: boost %d for %d ms\n", boost, ms);
	return 0;
}

static int is_boost_supported(void *self, P(Boost) boost, bool *ret)
{
	(void)self;
	*ret = boost == P(Boost_INTERACTION);
	return 0;
}

static int create_session(void *self, int32_t tgid, int32_t uid, const int32_t *tids, size_t n, int64_t ns,
			  bc_binder **ret)
{
	static int next_id;
	struct session *s = calloc(1, sizeof(*s));
	int r;

	(void)self, (void)tids;
	if (!s)
		return -ENOMEM;
	s->id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
	s->target_ns = ns;
	/* the stub frees the reference handed back after the reply */
	r = P(IPowerHintSession_stub_new)(&session_ops, s, session_free, ret);
	if (r < 0) {
		free(s);
		return r;
	}
	say("power: session %d for tgid %d uid %d, %zu threads, target %" PRId64 " ns\n", s->id, tgid, uid, n, ns);
	return 0;
}

static int preferred_rate(void *self, int64_t *ret)
{
	(void)self;
	*ret = 16666666; /* one 60 Hz frame */
	return 0;
}

static const struct P(IPower_ops) power_ops = {
	.setMode = set_mode,
	.isModeSupported = is_mode_supported,
	.setBoost = set_boost,
	.isBoostSupported = is_boost_supported,
	.createHintSession = create_session,
	.getHintSessionPreferredRate = preferred_rate,
};

int main(int argc, char **argv)
{
	char name[256];
	bc_process *proc = NULL;
	bc_binder *obj = NULL;
	bc_sm *sm = NULL;
	int r;

	snprintf(name, sizeof(name), "%s/%s", P(IPower_DESCRIPTOR), argc > 1 ? argv[1] : "default");
	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = P(IPower_stub_new)(&power_ops, NULL, NULL, &obj);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r < 0) {
		fprintf(stderr, "power-service: %s\n", strerror(-r));
		return 1;
	}
	r = bc_sm_add(sm, name, obj, 0, 0);
	if (r < 0) {
		/* -EINVAL: Android's EX_ILLEGAL_ARGUMENT, an undeclared VINTF name */
		fprintf(stderr, "power-service: registering '%s' refused: %s\n", name, strerror(-r));
		return 1;
	}
	say("power-service: serving '%s' (version %d, %s stability) on %s\n", name, P(IPower_VERSION),
	    bc_binder_get_stability(obj) == BINDERC_STABILITY_VINTF ? "vintf" : "other", bc_process_get_device(proc));
	r = bc_process_join(proc);
	bc_sm_unref(sm);
	bc_binder_unref(obj);
	bc_process_unref(proc);
	return r < 0;
}
