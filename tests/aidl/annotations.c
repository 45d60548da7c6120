/* SPDX-License-Identifier: MIT */
/*
 * Every annotation Android's aidl defines (Android 14's
 * aidl_language.cpp, plus the unstructured-parcelable ones of later
 * releases), listed here independently of aidl/annot.c: each must be known
 * to bc-aidl, honoured or explicitly ignored as the list says, and accepted
 * where Android allows it.  A name Android does not define is an error
 * naming it.
 */
#include "at.h"
#include "aidl.h"

static const struct aidl_opts opts = { 0 };

/* @N in a declaration of T.aidl where Android allows it; %s is the
 * annotation as written. */
static const struct {
	const char *name, *written, *src;
	bool honoured; /* has an effect on the C (else: ignored, another backend's or documentation) */
} android[] = {
	{ "nullable", "@nullable(heap=true)", "interface T { void f(in %s String s); }", true },
	{ "utf8InCpp", "@utf8InCpp", "interface T { void f(in %s String s); }", true },
	{ "SensitiveData", "@SensitiveData", "%s interface T { }", true },
	{ "VintfStability", "@VintfStability", "%s interface T { }", true },
	{ "UnsupportedAppUsage", "@UnsupportedAppUsage(maxTargetSdk=30, trackingBug=1L)",
	  "interface T { %s void f(); }", false },
	{ "JavaOnlyStableParcelable", "@JavaOnlyStableParcelable", "%s parcelable T;", false },
	{ "NdkOnlyStableParcelable", "@NdkOnlyStableParcelable", "%s parcelable T;", false },
	{ "RustOnlyStableParcelable", "@RustOnlyStableParcelable", "%s parcelable T;", false },
	{ "Backing", "@Backing(type=\"long\")", "%s enum T { A }", true },
	{ "JavaPassthrough", "@JavaPassthrough(annotation=\"@a.B\")", "%s interface T { }", false },
	{ "JavaDerive", "@JavaDerive(toString=true, equals=true)", "%s parcelable T { int x; }", false },
	{ "JavaDefault", "@JavaDefault", "%s interface T { }", false },
	{ "JavaDelegator", "@JavaDelegator", "%s interface T { }", false },
	{ "JavaOnlyImmutable", "@JavaOnlyImmutable", "%s parcelable T { int x; }", false },
	{ "JavaSuppressLint", "@JavaSuppressLint(value={\"NewApi\"})", "%s interface T { }", false },
	{ "FixedSize", "@FixedSize", "%s parcelable T { int x; }", true },
	{ "Descriptor", "@Descriptor(value=\"a.b.IT\")", "%s interface T { }", true },
	{ "RustDerive", "@RustDerive(Copy=true, Clone=true, PartialOrd=true, Ord=true, PartialEq=true, Eq=true, Hash=true)",
	  "%s union T { int x; }", false },
	{ "SuppressWarnings", "@SuppressWarnings(value={\"inout-parameter\"})", "%s interface T { }", false },
	{ "EnforcePermission", "@EnforcePermission(allOf={\"A\", \"B\"})", "interface T { %s void f(); }", false },
	{ "PermissionManuallyEnforced", "@PermissionManuallyEnforced", "%s interface T { }", false },
	{ "RequiresNoPermission", "@RequiresNoPermission", "interface T { %s void f(); }", false },
	{ "PropagateAllowBlocking", "@PropagateAllowBlocking", "interface T { %s IBinder f(); }", false },
};

Test(aidl_annotations, every_android_annotation_is_handled)
{
	for (size_t i = 0; i < sizeof(android) / sizeof(android[0]); i++) {
		const struct aidl_annot_schema *s = aidl_annot_schema(android[i].name);
		char src[512], err[1024];
		int r;

		cr_assert_not_null(s, "@%s is not known", android[i].name);
		cr_expect_eq(s->effect != A_IGNORED, android[i].honoured, "@%s: honoured %d, want %d", android[i].name,
			     s->effect != A_IGNORED, android[i].honoured);
		snprintf(src, sizeof(src), android[i].src, android[i].written);
		r = aidl_check_buffer(&opts, "T.aidl", src, strlen(src), err, sizeof(err));
		if (strstr(android[i].src, "parcelable T;")) /* unstructured: refused for that, not the annotation */
			cr_expect(r != 0 && strstr(err, "unstructured parcelable"), "%s: %s", src, err);
		else
			cr_expect_eq(r, 0, "%s: %s", src, err);
	}
}

/* The table has nothing the list above lacks (so the list stays complete). */
Test(aidl_annotations, table_matches_the_list)
{
	size_t n = 0;

	for (const struct aidl_annot_schema *s; (s = aidl_annot_schema_at(n)); n++) {
		bool found = strcmp(s->name, "Hide") == 0; /* bc-aidl's own extra, ignored */

		for (size_t i = 0; i < sizeof(android) / sizeof(android[0]) && !found; i++)
			found = strcmp(android[i].name, s->name) == 0;
		cr_expect(found, "@%s is in the table but not in the test's list", s->name);
	}
	cr_expect_eq(n, sizeof(android) / sizeof(android[0]) + 1);
}

Test(aidl_annotations, unknown_one_is_named)
{
	static const char src[] = "@Frobnicate interface T { }";
	char err[1024];

	cr_assert_neq(aidl_check_buffer(&opts, "T.aidl", src, strlen(src), err, sizeof(err)), 0);
	cr_assert(strstr(err, "unknown annotation @Frobnicate"), "%s", err);
}

/* @A(x) is @A(value=x) in Android's grammar (aidl_language.y): the one
 * unnamed parameter, for the annotations that have a "value". */
Test(aidl_annotations, unnamed_value_parameter)
{
	static const char *const ok[] = {
		"interface T { @EnforcePermission(\"A\") void f(); }",
		"@SuppressWarnings({\"inout-parameter\", \"out-array\"}) interface T { void f(inout int[] x); }",
		"@JavaSuppressLint({\"NewApi\"}) interface T { }",
		"@Descriptor(\"a.b.IT\") interface T { }",
	};
	char err[1024];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		cr_expect_eq(aidl_check_buffer(&opts, "T.aidl", ok[i], strlen(ok[i]), err, sizeof(err)), 0, "%s: %s",
			     ok[i], err);
}
