// SPDX-License-Identifier: MIT
/*
 * The annotations of Android's aidl (Android 14's set, and the two
 * unstructured-parcelable ones of later releases), each either honoured by
 * the C backend or accepted and ignored because it only concerns another
 * backend or is documentation.  The table is the one place that says which:
 * the parser reads parameters generically and checks them against it, so
 * an annotation Android knows is never refused as "unknown", and one it does
 * not know is an error naming it (as Android's aidl does).
 */
#include <string.h>

#include "aidl.h"

/* Parameter kinds, checked loosely: a string, a boolean, an integer or
 * a {"string", ...} list. */
#define P_STR 's'
#define P_BOOL 'b'
#define P_INT 'i'
#define P_STRV 'v'

static const struct aidl_annot_schema schemas[] = {
	/* honoured by the C backend */
	{ "nullable", AC_TYPE, A_NULLABLE, { { "heap", P_BOOL, false } } },
	{ "utf8InCpp", AC_TYPE, A_UTF8, { { 0 } } },
	{ "Backing", AC_ENUM, A_BACKING, { { "type", P_STR, true } } },
	{ "VintfStability", AC_DECLS, A_VINTF, { { 0 } } },
	{ "FixedSize", AC_PARCELABLE | AC_UNION, A_FIXED_SIZE, { { 0 } } },
	{ "Descriptor", AC_INTERFACE, A_DESCRIPTOR, { { "value", P_STR, true } } },
	{ "SensitiveData", AC_INTERFACE, A_SENSITIVE, { { 0 } } },
	/* documentation: permissions are enforced by the Java backend only */
	{ "EnforcePermission", AC_INTERFACE | AC_METHOD, A_IGNORED,
	  { { "value", P_STR, false }, { "anyOf", P_STRV, false }, { "allOf", P_STRV, false } } },
	{ "PermissionManuallyEnforced", AC_INTERFACE | AC_METHOD, A_IGNORED, { { 0 } } },
	{ "RequiresNoPermission", AC_INTERFACE | AC_METHOD, A_IGNORED, { { 0 } } },
	/* other backends only */
	{ "PropagateAllowBlocking", AC_METHOD, A_IGNORED, { { 0 } } }, /* Java's Binder.allowBlocking */
	{ "UnsupportedAppUsage", AC_DECLS | AC_MEMBERS, A_IGNORED,
	  { { "expectedSignature", P_STR, false },
	    { "implicitMember", P_STR, false },
	    { "maxTargetSdk", P_INT, false },
	    { "publicAlternatives", P_STR, false },
	    { "trackingBug", P_INT, false },
	    { "overrideSourcePosition", P_STR, false } } },
	{ "JavaOnlyStableParcelable", AC_UNSTRUCTURED, A_IGNORED, { { 0 } } },
	{ "NdkOnlyStableParcelable", AC_UNSTRUCTURED, A_IGNORED, { { 0 } } },
	{ "RustOnlyStableParcelable", AC_UNSTRUCTURED, A_IGNORED, { { 0 } } },
	{ "JavaPassthrough", AC_ALL, A_IGNORED, { { "annotation", P_STR, true } } },
	{ "JavaDerive", AC_PARCELABLE | AC_UNION | AC_ENUM, A_IGNORED,
	  { { "toString", P_BOOL, false }, { "equals", P_BOOL, false } } },
	{ "JavaDefault", AC_INTERFACE, A_IGNORED, { { 0 } } },
	{ "JavaDelegator", AC_INTERFACE, A_IGNORED, { { 0 } } },
	{ "JavaOnlyImmutable", AC_PARCELABLE | AC_UNION | AC_UNSTRUCTURED, A_IGNORED, { { 0 } } },
	{ "JavaSuppressLint", AC_ALL, A_IGNORED, { { "value", P_STRV, true } } },
	{ "RustDerive", AC_PARCELABLE | AC_UNION, A_IGNORED,
	  { { "Copy", P_BOOL, false },
	    { "Clone", P_BOOL, false },
	    { "PartialOrd", P_BOOL, false },
	    { "Ord", P_BOOL, false },
	    { "PartialEq", P_BOOL, false },
	    { "Eq", P_BOOL, false },
	    { "Hash", P_BOOL, false } } },
	{ "SuppressWarnings", AC_DECLS | AC_MEMBERS, A_IGNORED, { { "value", P_STRV, true } } },
	{ "Hide", AC_DECLS | AC_MEMBERS, A_IGNORED, { { 0 } } },
};

const struct aidl_annot_schema *aidl_annot_schema(const char *name)
{
	for (size_t i = 0; i < sizeof(schemas) / sizeof(schemas[0]); i++)
		if (strcmp(schemas[i].name, name) == 0)
			return &schemas[i];
	return NULL;
}

const struct aidl_annot_schema *aidl_annot_schema_at(size_t i)
{
	return i < sizeof(schemas) / sizeof(schemas[0]) ? &schemas[i] : NULL;
}

const char *aidl_annot_context_name(unsigned context)
{
	switch (context) {
	case AC_TYPE: return "a type";
	case AC_INTERFACE: return "an interface";
	case AC_PARCELABLE: return "a parcelable";
	case AC_UNION: return "a union";
	case AC_ENUM: return "an enum";
	case AC_UNSTRUCTURED: return "an unstructured parcelable";
	case AC_CONST: return "a constant";
	case AC_FIELD: return "a field";
	case AC_METHOD: return "a method";
	}
	return "this";
}

/* Check @v, given for parameter @p, against its kind. */
static bool param_ok(const struct aidl_annot_param *p, const struct aidl_expr *v, bool list)
{
	if (list)
		return p->kind == P_STRV;
	if (v->op != 0)
		return p->kind == P_INT || p->kind == P_BOOL; /* an expression: checked no further */
	switch (p->kind) {
	case P_STR:
		return v->lit.kind == V_STRING;
	case P_STRV: /* Android accepts a lone string for a string list */
		return v->lit.kind == V_STRING;
	case P_BOOL:
		return v->lit.kind == V_BOOL;
	case P_INT:
		return v->lit.kind == V_INT && !v->lit.is_char;
	}
	return false;
}

void aidl_annot_param(struct aidl_ctx *ctx, struct aidl_annot *a, const struct aidl_loc *at, const char *key,
		      const struct aidl_expr *v, bool list)
{
	const struct aidl_annot_param *p = NULL;

	for (size_t i = 0; i < AIDL_ANNOT_MAX_PARAMS && a->schema->params[i].name; i++)
		if (strcmp(a->schema->params[i].name, key) == 0)
			p = &a->schema->params[i];
	if (!p)
		aidl_fail(ctx, at, "unknown parameter '%s' of @%s", key, a->name);
	if (!param_ok(p, v, list))
		aidl_fail(ctx, &v->loc, "@%s(%s=...) takes %s", a->name, key,
			  p->kind == P_STR    ? "a string"
			  : p->kind == P_BOOL ? "true or false"
			  : p->kind == P_INT  ? "an integer"
					      : "a string or {\"string\", ...}");
	if (p->kind == P_STR && !list)
		a->value = v->lit.s;
	a->given |= 1u << (p - a->schema->params);
}

void aidl_annot_done(struct aidl_ctx *ctx, const struct aidl_annot *a)
{
	for (size_t i = 0; i < AIDL_ANNOT_MAX_PARAMS && a->schema->params[i].name; i++)
		if (a->schema->params[i].required && !(a->given & (1u << i)))
			aidl_fail(ctx, &a->loc, "@%s needs a %s: @%s(%s=...)", a->name, a->schema->params[i].name,
				  a->name, a->schema->params[i].name);
}

void aidl_annot_check_context(struct aidl_ctx *ctx, const struct aidl_annot *a, unsigned context)
{
	if (!(a->schema->contexts & context))
		aidl_fail(ctx, &a->loc, "@%s cannot be used on %s", a->name, aidl_annot_context_name(context));
}
