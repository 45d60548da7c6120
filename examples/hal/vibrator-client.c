// SPDX-License-Identifier: MIT
/*
 * vibrator-client [INSTANCE]: finds "android.hardware.vibrator.IVibrator/
 * INSTANCE" (default "default") through the service manager and drives
 * it through the proxy functions bc-aidl generated from the .aidl files
 * beside it: version and hash, capabilities, the supported effects, a
 * timed vibration, an effect, a composition and a PWLE composition, each
 * waiting for the service's IVibratorCallback.onComplete (a stub served
 * by this process's thread pool).  The proxy functions require VINTF
 * stability of the binder they call (the interface is @VintfStability).
 * Exits 1 on any failure.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "android_hardware_vibrator_IVibrator.h"
#include "android_hardware_vibrator_IVibratorCallback.h"

#define V(x) android_hardware_vibrator_##x

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int completed;

static int on_complete(void *self)
{
	(void)self;
	pthread_mutex_lock(&lock);
	completed++;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	return 0;
}

static const struct V(IVibratorCallback_ops) callback_ops = { .onComplete = on_complete };

/* Wait (5 s at most) until @n onComplete calls have arrived. */
static int wait_completed(int n)
{
	struct timespec until;
	int got;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 5;
	pthread_mutex_lock(&lock);
	while (completed < n && pthread_cond_timedwait(&cond, &lock, &until) == 0)
		;
	got = completed;
	pthread_mutex_unlock(&lock);
	if (got < n)
		fprintf(stderr, "vibrator-client: no onComplete (%d of %d)\n", got, n);
	else
		printf("callback: onComplete #%d\n", got);
	return got < n ? -ETIMEDOUT : 0;
}

static int fail(const char *what, int r)
{
	if (r > 0)
		fprintf(stderr, "vibrator-client: %s: service error %d\n", what, r);
	else
		fprintf(stderr, "vibrator-client: %s: %s\n", what, strerror(-r));
	return 1;
}

int main(int argc, char **argv)
{
	char name[256];
	bc_process *proc = NULL;
	bc_sm *sm = NULL;
	bc_binder *vib = NULL, *cb = NULL;
	V(Effect) *effects = NULL;
	V(Braking) *brakes = NULL;
	float *map = NULL;
	size_t n_effects = 0, n_brakes = 0, n_map = 0;
	char *hash = NULL;
	int32_t version = 0, caps = 0, ms = 0;
	V(CompositeEffect) comp[2];
	V(PrimitivePwle) pwle[2];
	int r;

	snprintf(name, sizeof(name), "%s/%s", V(IVibrator_DESCRIPTOR), argc > 1 ? argv[1] : "default");
	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_process_start_thread_pool(proc); /* serves the callback */
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_get(sm, name, &vib);
	if (r < 0)
		return fail("finding the vibrator", r);
	printf("vibrator: found '%s' (%s stability)\n", name,
	       bc_binder_get_stability(vib) == BINDERC_STABILITY_VINTF ? "vintf" : "not vintf");

	if ((r = V(IVibrator_getInterfaceVersion)(vib, &version)) != 0 ||
	    (r = V(IVibrator_getInterfaceHash)(vib, &hash)) != 0)
		return fail("version", r);
	printf("vibrator: interface version %d, hash %s\n", version, hash);
	free(hash);
	if ((r = V(IVibrator_getCapabilities)(vib, &caps)) != 0)
		return fail("getCapabilities", r);
	printf("vibrator: capabilities 0x%x%s%s\n", caps, caps & V(IVibrator_CAP_ON_CALLBACK) ? " on-callback" : "",
	       caps & V(IVibrator_CAP_COMPOSE_PWLE_EFFECTS) ? " compose-pwle" : "");
	if ((r = V(IVibrator_getSupportedEffects)(vib, &effects, &n_effects)) != 0)
		return fail("getSupportedEffects", r);
	printf("vibrator: %zu effects:", n_effects);
	for (size_t i = 0; i < n_effects; i++)
		printf(" %d", effects[i]);
	printf("\n");
	free(effects);

	if ((r = V(IVibratorCallback_stub_new)(&callback_ops, NULL, NULL, &cb)) != 0)
		return fail("callback", r);
	if ((r = V(IVibrator_setAmplitude)(vib, 0.5f)) != 0 || (r = V(IVibrator_on)(vib, 100, cb)) != 0)
		return fail("on", r);
	if (wait_completed(1) < 0)
		return 1;
	if ((r = V(IVibrator_perform)(vib, V(Effect_DOUBLE_CLICK), V(EffectStrength_STRONG), cb, &ms)) != 0)
		return fail("perform", r);
	printf("vibrator: double click takes %d ms\n", ms);
	if (wait_completed(2) < 0)
		return 1;

	for (size_t i = 0; i < 2; i++)
		V(CompositeEffect_init)(&comp[i]);
	comp[0].primitive = V(CompositePrimitive_CLICK);
	comp[1].delayMs = 50;
	comp[1].primitive = V(CompositePrimitive_LOW_TICK);
	comp[1].scale = 0.5f;
	if ((r = V(IVibrator_compose)(vib, comp, 2, cb)) != 0)
		return fail("compose", r);
	if (wait_completed(3) < 0)
		return 1;

	for (size_t i = 0; i < 2; i++)
		V(PrimitivePwle_init)(&pwle[i]);
	pwle[0]._tag = V(PrimitivePwle_TAG_active);
	pwle[0].active.startFrequency = 120, pwle[0].active.endFrequency = 180;
	pwle[0].active.startAmplitude = 0.2f, pwle[0].active.endAmplitude = 0.8f;
	pwle[0].active.duration = 40;
	pwle[1]._tag = V(PrimitivePwle_TAG_braking);
	pwle[1].braking.braking = V(Braking_CLAB);
	pwle[1].braking.duration = 10;
	if ((r = V(IVibrator_composePwle)(vib, pwle, 2, cb)) != 0)
		return fail("composePwle", r);
	if (wait_completed(4) < 0)
		return 1;
	for (size_t i = 0; i < 2; i++)
		V(PrimitivePwle_clear)(&pwle[i]), V(CompositeEffect_clear)(&comp[i]);

	if ((r = V(IVibrator_getBandwidthAmplitudeMap)(vib, &map, &n_map)) != 0 ||
	    (r = V(IVibrator_getSupportedBraking)(vib, &brakes, &n_brakes)) != 0)
		return fail("pwle limits", r);
	printf("vibrator: bandwidth map of %zu points, %zu braking kinds\n", n_map, n_brakes);
	free(map), free(brakes);
	/* a method the service leaves out: Android's UNKNOWN_TRANSACTION */
	r = V(IVibrator_getQFactor)(vib, &(float){ 0 });
	printf("vibrator: getQFactor %s\n", r == 0 ? "answered" : "not implemented");
	if ((r = V(IVibrator_off)(vib)) != 0)
		return fail("off", r);

	bc_binder_unref(cb);
	bc_binder_unref(vib);
	bc_sm_unref(sm);
	bc_process_stop(proc);
	bc_process_unref(proc);
	return 0;
}
