// SPDX-License-Identifier: MIT
/*
 * power-client [INSTANCE]: finds "android.hardware.power.IPower/INSTANCE"
 * (default "default") through the service manager and uses it through
 * the proxy functions bc-aidl generated from the .aidl files beside it:
 * version and hash, which modes and boosts it supports, a mode and a
 * boost (one-way), then a hint session (an IPowerHintSession binder
 * returned by createHintSession): its threads (two-way), a target, work
 * durations and a hint (one-way), and closing it.  The one-way calls'
 * effects show in the service's output.  Exits 1 on any failure.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "android_hardware_power_IPower.h"
#include "android_hardware_power_IPowerHintSession.h"

#define P(x) android_hardware_power_##x

static int fail(const char *what, int r)
{
	if (r > 0)
		fprintf(stderr, "power-client: %s: service error %d\n", what, r);
	else
		fprintf(stderr, "power-client: %s: %s\n", what, strerror(-r));
	return 1;
}

int main(int argc, char **argv)
{
	static const int32_t tids[] = { 101, 102 };
	char name[256];
	bc_process *proc = NULL;
	bc_sm *sm = NULL;
	bc_binder *power = NULL, *session = NULL;
	P(WorkDuration) work[3];
	char *hash = NULL;
	int32_t version = 0;
	int64_t rate = 0;
	bool low = false, vr = true, interaction = false;
	int r;

	snprintf(name, sizeof(name), "%s/%s", P(IPower_DESCRIPTOR), argc > 1 ? argv[1] : "default");
	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_get(sm, name, &power);
	if (r < 0)
		return fail("finding the power HAL", r);
	printf("power: found '%s' (%s stability)\n", name,
	       bc_binder_get_stability(power) == BINDERC_STABILITY_VINTF ? "vintf" : "not vintf");
	if ((r = P(IPower_getInterfaceVersion)(power, &version)) != 0 || (r = P(IPower_getInterfaceHash)(power, &hash)) != 0)
		return fail("version", r);
	printf("power: interface version %d, hash %s\n", version, hash);
	free(hash);

	if ((r = P(IPower_isModeSupported)(power, P(Mode_LOW_POWER), &low)) != 0 ||
	    (r = P(IPower_isModeSupported)(power, P(Mode_VR), &vr)) != 0 ||
	    (r = P(IPower_isBoostSupported)(power, P(Boost_INTERACTION), &interaction)) != 0)
		return fail("supported", r);
	printf("power: LOW_POWER %s, VR %s, INTERACTION boost %s\n", low ? "supported" : "unsupported",
	       vr ? "supported" : "unsupported", interaction ? "supported" : "unsupported");
	if ((r = P(IPower_setMode)(power, P(Mode_LOW_POWER), true)) != 0 ||
	    (r = P(IPower_setBoost)(power, P(Boost_INTERACTION), 200)) != 0)
		return fail("setMode/setBoost", r);

	if ((r = P(IPower_getHintSessionPreferredRate)(power, &rate)) != 0)
		return fail("getHintSessionPreferredRate", r);
	printf("power: preferred rate %" PRId64 " ns\n", rate);
	if ((r = P(IPower_createHintSession)(power, 4242, 1000, tids, 1, rate, &session)) != 0)
		return fail("createHintSession", r);
	printf("power: session created (%s stability)\n",
	       bc_binder_get_stability(session) == BINDERC_STABILITY_VINTF ? "vintf" : "not vintf");
	if ((r = P(IPowerHintSession_setThreads)(session, tids, 2)) != 0)
		return fail("setThreads", r);
	/* two-way, and refused: the service's status comes back */
	r = P(IPowerHintSession_setThreads)(session, tids, 0);
	printf("power: setThreads with no threads %s\n", r != 0 ? "refused" : "accepted");
	for (size_t i = 0; i < 3; i++) {
		P(WorkDuration_init)(&work[i]);
		work[i].timeStampNanos = (int64_t)i * rate;
		work[i].durationNanos = 10000000 + (int64_t)i * 1000000;
	}
	if ((r = P(IPowerHintSession_updateTargetWorkDuration)(session, 12000000)) != 0 ||
	    (r = P(IPowerHintSession_reportActualWorkDuration)(session, work, 3)) != 0 ||
	    (r = P(IPowerHintSession_sendHint)(session, P(SessionHint_CPU_LOAD_UP))) != 0 ||
	    (r = P(IPowerHintSession_close)(session)) != 0)
		return fail("session", r);
	printf("power: session used and closed\n");

	bc_binder_unref(session);
	bc_binder_unref(power);
	bc_sm_unref(sm);
	bc_process_unref(proc);
	return 0;
}
