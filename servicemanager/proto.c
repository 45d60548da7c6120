// SPDX-License-Identifier: MIT
/*
 * Dialect detection.  Both dialects start with an interface token naming
 * android.os.IServiceManager; they differ in the words before it:
 *
 *   Android <= 9   int32 policy, String16 descriptor            (legacy)
 *   Android 10     int32 policy, int32 work source, String16    (legacy)
 *   Android 11+    int32 policy, int32 work source, 'SYST' or
 *                  'VNDR', String16                             (AIDL)
 *
 * Each form is tried at its offset; the one whose String16 is exactly the
 * descriptor wins.  The forms cannot be confused: the word where a shorter
 * form expects the descriptor's length (26) is the work source or the
 * header word in the longer ones, and a work source of 26 makes the short
 * form's first character 0x1a, not 'a'.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm.h"

/* Whether the String16 at the current position is @ascii exactly. */
static bool string16_is(bc_parcel *in, const char *ascii)
{
	const uint16_t *s;
	size_t len, n = strlen(ascii);

	if (bc_parcel_read_string16_utf16(in, &s, &len) < 0 || !s || len != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] != (unsigned char)ascii[i])
			return false;
	return true;
}

static bool has_string16_at(bc_parcel *in, size_t pos)
{
	const uint16_t *s;

	if (bc_parcel_set_position(in, pos) < 0)
		return false;
	return bc_parcel_read_string16_utf16(in, &s, NULL) == 0 && s;
}

int sm_read_header(bc_parcel *in, struct sm_header *ret)
{
	static const struct {
		size_t off;
		int dialect, wire;
	} forms[] = {
		{ 12, BINDERC_SM_DIALECT_AIDL, BINDERC_WIRE_ANDROID_13 },
		{ 8, BINDERC_SM_DIALECT_LEGACY, BINDERC_WIRE_ANDROID_10 },
		{ 4, BINDERC_SM_DIALECT_LEGACY, BINDERC_WIRE_ANDROID_9 },
	};
	bool some_string = false;
	uint32_t word = 0;

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		int partition = BINDERC_PARTITION_SYSTEM;

		if (forms[i].dialect == BINDERC_SM_DIALECT_AIDL) {
			if (bc_parcel_set_position(in, 8) < 0 || bc_parcel_read_uint32(in, &word) < 0)
				continue;
			if (word == BINDERC_HEADER_VNDR)
				partition = BINDERC_PARTITION_VENDOR;
			else if (word != BINDERC_HEADER_SYST)
				continue;
		}
		if (bc_parcel_set_position(in, forms[i].off) < 0)
			continue;
		if (string16_is(in, SM_DESCRIPTOR)) {
			size_t pos = bc_parcel_get_position(in);

			/* Switching the wire does not move the position, but be
			 * explicit about where the arguments start. */
			if (bc_parcel_set_wire(in, forms[i].wire, partition) < 0 || bc_parcel_set_position(in, pos) < 0)
				return -EBADMSG;
			ret->dialect = forms[i].dialect;
			ret->wire = forms[i].wire;
			/* The release of an AIDL request is worked out later
			 * (handler.c); what its dialect fixes is the same in all. */
			ret->d = sm_dialect_of(forms[i].dialect);
			ret->partition = partition;
			return 0;
		}
		some_string = some_string || has_string16_at(in, forms[i].off);
	}
	bc_parcel_set_position(in, 0);
	return some_string ? -EPERM : -EBADMSG;
}

int sm_read_name(bc_parcel *in, char **ret)
{
	char *s = NULL;
	size_t len = 0;
	int r = bc_parcel_read_string16(in, &s, &len);

	if (r < 0)
		return r;
	if (!s)
		return -EBADMSG;
	/* An embedded NUL would make "s\0x" the name "s": a different name
	 * from the one sent, so the request is malformed. */
	if (strlen(s) != len) {
		free(s);
		return -EBADMSG;
	}
	*ret = s;
	return 0;
}

/* The dialect names of the policy file and the command line. */
static const struct {
	const char *name;
	int release, shape;
} release_names[] = {
	{ "11", SM_ANDROID_11, SM_UNION_DEFAULT },    { "12", SM_ANDROID_12, SM_UNION_DEFAULT },
	{ "13", SM_ANDROID_13, SM_UNION_DEFAULT },    { "14", SM_ANDROID_14, SM_UNION_DEFAULT },
	{ "15", SM_ANDROID_15, SM_UNION_DEFAULT },    { "15-r6", SM_ANDROID_15, SM_UNION_15_R6 },
	{ "15-r20", SM_ANDROID_15, SM_UNION_15_R20 }, { "16", SM_ANDROID_16, SM_UNION_DEFAULT },
};

int sm_parse_release(const char *s, int *ret_release, int *ret_shape)
{
	for (size_t i = 0; s && i < sizeof(release_names) / sizeof(release_names[0]); i++) {
		if (strcmp(s, release_names[i].name) == 0) {
			*ret_release = release_names[i].release;
			*ret_shape = release_names[i].shape;
			return 0;
		}
	}
	return -EINVAL;
}

const char *sm_release_name(int release, int shape)
{
	for (size_t i = 0; i < sizeof(release_names) / sizeof(release_names[0]); i++)
		if (release_names[i].release == release && release_names[i].shape == shape)
			return release_names[i].name;
	return "?";
}
