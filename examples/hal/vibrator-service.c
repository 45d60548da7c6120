// SPDX-License-Identifier: MIT
/*
 * vibrator-service [INSTANCE]: a pretend vibrator served as Android 14's
 * android.hardware.vibrator.IVibrator (version 2) under
 * "android.hardware.vibrator.IVibrator/INSTANCE" (default "default"),
 * from C that bc-aidl generated out of the .aidl files beside it.  The
 * interface is @VintfStability, so the stub is marked VINTF and a service
 * manager following Android's rule registers it only under a declared
 * name (binder-c's: a "declare" line in its policy file); an undeclared
 * instance is refused and this program exits 1.
 *
 * It vibrates nothing: each call prints what a vibrator would do, and
 * the callbacks (IVibratorCallback.onComplete, one-way) are called at
 * once instead of when the vibration would have ended.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "android_hardware_vibrator_IVibrator.h"
#include "android_hardware_vibrator_IVibratorCallback.h"

#define V(x) android_hardware_vibrator_##x

struct vibrator {
	pthread_mutex_t lock;
	float amplitude;
};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* "Done": one-way, so a slow or dead client cannot hold the service. */
static void done(bc_binder *callback)
{
	int r;

	if (!callback)
		return;
	r = V(IVibratorCallback_onComplete)(callback);
	if (r != 0)
		say("vibrator: callback failed: %d\n", r);
}

static int get_capabilities(void *self, int32_t *ret)
{
	(void)self;
	*ret = V(IVibrator_CAP_ON_CALLBACK) | V(IVibrator_CAP_PERFORM_CALLBACK) | V(IVibrator_CAP_AMPLITUDE_CONTROL) |
	       V(IVibrator_CAP_COMPOSE_EFFECTS) | V(IVibrator_CAP_GET_RESONANT_FREQUENCY) |
	       V(IVibrator_CAP_COMPOSE_PWLE_EFFECTS);
	return 0;
}

static int off(void *self)
{
	(void)self;
	say("vibrator: off\n");
	return 0;
}

static int on(void *self, int32_t timeout_ms, bc_binder *callback)
{
	struct vibrator *v = self;

	pthread_mutex_lock(&v->lock);
	say("vibrator: on for %d ms at amplitude %.2f\n", timeout_ms, v->amplitude);
	pthread_mutex_unlock(&v->lock);
	done(callback);
	return 0;
}

static const V(Effect) effects[] = { V(Effect_CLICK), V(Effect_DOUBLE_CLICK), V(Effect_TICK) };

/* Copy @n enum values into a malloc'd array the stub frees. */
static int give(const void *src, size_t n, size_t size, void **ret, size_t *ret_len)
{
	void *v = malloc(n * size);

	if (!v)
		return -ENOMEM;
	memcpy(v, src, n * size);
	*ret = v;
	*ret_len = n;
	return 0;
}

static int perform(void *self, V(Effect) effect, V(EffectStrength) strength, bc_binder *callback, int32_t *ret)
{
	(void)self;
	/* a millisecond length per effect, longer when stronger */
	*ret = (effect == V(Effect_DOUBLE_CLICK) ? 60 : effect == V(Effect_TICK) ? 10 : 30) + 5 * strength;
	say("vibrator: effect %d at strength %d for %d ms\n", effect, strength, *ret);
	done(callback);
	return 0;
}

static int get_supported_effects(void *self, V(Effect) **ret, size_t *ret_len)
{
	(void)self;
	return give(effects, sizeof(effects) / sizeof(effects[0]), sizeof(effects[0]), (void **)ret, ret_len);
}

static int set_amplitude(void *self, float amplitude)
{
	struct vibrator *v = self;

	pthread_mutex_lock(&v->lock);
	v->amplitude = amplitude;
	pthread_mutex_unlock(&v->lock);
	return 0;
}

static int get_composition_delay_max(void *self, int32_t *ret)
{
	(void)self;
	*ret = 1000;
	return 0;
}

static int get_composition_size_max(void *self, int32_t *ret)
{
	(void)self;
	*ret = 16;
	return 0;
}

static int get_supported_primitives(void *self, V(CompositePrimitive) **ret, size_t *ret_len)
{
	static const V(CompositePrimitive) prims[] = { V(CompositePrimitive_NOOP), V(CompositePrimitive_CLICK),
						       V(CompositePrimitive_LOW_TICK) };

	(void)self;
	return give(prims, sizeof(prims) / sizeof(prims[0]), sizeof(prims[0]), (void **)ret, ret_len);
}

static int get_primitive_duration(void *self, V(CompositePrimitive) primitive, int32_t *ret)
{
	(void)self;
	*ret = primitive == V(CompositePrimitive_NOOP) ? 0 : 12;
	return 0;
}

static int compose(void *self, const V(CompositeEffect) *composite, size_t n, bc_binder *callback)
{
	int32_t total = 0;

	(void)self;
	for (size_t i = 0; i < n; i++)
		total += composite[i].delayMs + (composite[i].primitive == V(CompositePrimitive_NOOP) ? 0 : 12);
	say("vibrator: composition of %zu primitives, %d ms\n", n, total);
	done(callback);
	return 0;
}

static int get_resonant_frequency(void *self, float *ret)
{
	(void)self;
	*ret = 150.0f;
	return 0;
}

static int get_bandwidth_amplitude_map(void *self, float **ret, size_t *ret_len)
{
	static const float map[] = { 0.5f, 0.75f, 1.0f, 0.75f };

	(void)self;
	return give(map, sizeof(map) / sizeof(map[0]), sizeof(map[0]), (void **)ret, ret_len);
}

static int get_supported_braking(void *self, V(Braking) **ret, size_t *ret_len)
{
	static const V(Braking) brakes[] = { V(Braking_NONE), V(Braking_CLAB) };

	(void)self;
	return give(brakes, 2, sizeof(brakes[0]), (void **)ret, ret_len);
}

static int compose_pwle(void *self, const V(PrimitivePwle) *composite, size_t n, bc_binder *callback)
{
	(void)self;
	for (size_t i = 0; i < n; i++) {
		const V(PrimitivePwle) *p = &composite[i];

		if (p->_tag == V(PrimitivePwle_TAG_active))
			say("vibrator: pwle %zu: %.0f Hz -> %.0f Hz over %d ms\n", i, p->active.startFrequency,
			    p->active.endFrequency, p->active.duration);
		else
			say("vibrator: pwle %zu: braking %d for %d ms\n", i, p->braking.braking, p->braking.duration);
	}
	done(callback);
	return 0;
}

/* The methods left NULL answer UNKNOWN_TRANSACTION, as Android's
 * default implementation answers what it does not support. */
static const struct V(IVibrator_ops) vibrator_ops = {
	.getCapabilities = get_capabilities,
	.off = off,
	.on = on,
	.perform = perform,
	.getSupportedEffects = get_supported_effects,
	.setAmplitude = set_amplitude,
	.getCompositionDelayMax = get_composition_delay_max,
	.getCompositionSizeMax = get_composition_size_max,
	.getSupportedPrimitives = get_supported_primitives,
	.getPrimitiveDuration = get_primitive_duration,
	.compose = compose,
	.getResonantFrequency = get_resonant_frequency,
	.getBandwidthAmplitudeMap = get_bandwidth_amplitude_map,
	.getSupportedBraking = get_supported_braking,
	.composePwle = compose_pwle,
};

int main(int argc, char **argv)
{
	static struct vibrator v = { .lock = PTHREAD_MUTEX_INITIALIZER, .amplitude = 1.0f };
	char name[256];
	bc_process *proc = NULL;
	bc_binder *obj = NULL;
	bc_sm *sm = NULL;
	int r;

	snprintf(name, sizeof(name), "%s/%s", V(IVibrator_DESCRIPTOR), argc > 1 ? argv[1] : "default");
	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = V(IVibrator_stub_new)(&vibrator_ops, &v, NULL, &obj);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r < 0) {
		fprintf(stderr, "vibrator-service: %s\n", strerror(-r));
		return 1;
	}
	r = bc_sm_add(sm, name, obj, 0, 0);
	if (r < 0) {
		/* -EINVAL: Android's EX_ILLEGAL_ARGUMENT, an undeclared VINTF name */
		fprintf(stderr, "vibrator-service: registering '%s' refused: %s\n", name, strerror(-r));
		return 1;
	}
	say("vibrator-service: serving '%s' (version %d, %s stability) on %s\n", name, V(IVibrator_VERSION),
	    bc_binder_get_stability(obj) == BINDERC_STABILITY_VINTF ? "vintf" : "other", bc_process_get_device(proc));
	r = bc_process_join(proc);
	bc_sm_unref(sm);
	bc_binder_unref(obj);
	bc_process_unref(proc);
	return r < 0;
}
