// SPDX-License-Identifier: MIT
/*
 * Declared instances: the policy file's "declare" lines stand for what
 * Android reads from its VINTF manifests (the device's and the
 * framework's <hal format="aidl"> entries).  Android 14's servicemanager
 * answers four methods from them and keeps one rule, all here:
 *
 *   isDeclared(name)              the name is declared
 *   getDeclaredInstances(iface)   the INSTANCE of each IFACE/INSTANCE
 *   updatableViaApex(name)        its updatable-via-apex, or null
 *   getUpdatableNames(apex)       the names declared updatable via apex
 *   getConnectionInfo(name)       its ip and port, or null
 *
 * and addService refuses a binder whose stability includes VINTF under a
 * name that is not declared (EX_ILLEGAL_ARGUMENT "VINTF declaration
 * error."; the reason is logged, not sent, since the caller may not be
 * allowed to know the other instances).  Names need not have Android's
 * package.IFoo/instance form to be declared, so that non-AIDL services
 * can use isDeclared; Android's manifests only hold that form.
 *
 * Android's vndservicemanager is built without libvintf: it keeps no
 * rule and answers false, empty or null.  So does vnd mode (struct sm's
 * vnd, checked in handler.c), whatever the policy file declares.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm.h"

const struct sm_decl *sm_policy_declaration(const struct sm_policy *p, const char *name)
{
	size_t n;
	const struct sm_decl *d = sm_policy_declarations(p, &n);

	for (size_t i = 0; name && i < n; i++)
		if (strcmp(d[i].name, name) == 0)
			return &d[i];
	return NULL;
}

bool sm_policy_is_declared(const struct sm_policy *p, const char *name)
{
	return sm_policy_declaration(p, name) != NULL;
}

/* The instance part of @name when it is "@iface/INSTANCE", or NULL. */
static const char *instance_of(const char *name, const char *iface)
{
	size_t il = strlen(iface);

	if (strncmp(name, iface, il) != 0 || name[il] != '/' || !name[il + 1])
		return NULL;
	return name + il + 1;
}

/* Collect, newly allocated and in file order, what @pick returns for each
 * declaration (NULL: skip it). */
static int collect(const struct sm_policy *p, const char *(*pick)(const struct sm_decl *d, const char *key),
		   const char *key, char ***ret, size_t *ret_n)
{
	size_t n_decl, n = 0;
	const struct sm_decl *d = sm_policy_declarations(p, &n_decl);
	char **v = calloc(n_decl + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n_decl; i++) {
		const char *s = pick(&d[i], key);

		if (!s)
			continue;
		if (!(v[n] = strdup(s))) {
			bc_strv_free(v, n);
			return -ENOMEM;
		}
		n++;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

static const char *pick_instance(const struct sm_decl *d, const char *iface)
{
	return instance_of(d->name, iface);
}

static const char *pick_updatable(const struct sm_decl *d, const char *apex)
{
	return d->apex && strcmp(d->apex, apex) == 0 ? d->name : NULL;
}

int sm_policy_declared_instances(const struct sm_policy *p, const char *iface, char ***ret, size_t *ret_n)
{
	return collect(p, pick_instance, iface, ret, ret_n);
}

int sm_policy_updatable_names(const struct sm_policy *p, const char *apex, char ***ret, size_t *ret_n)
{
	return collect(p, pick_updatable, apex, ret, ret_n);
}

/* The interface part of @name ("package.IFoo" of "package.IFoo/x"), or
 * the whole name, into @buf. */
static const char *iface_of(const char *name, char *buf, size_t len)
{
	const char *slash = strchr(name, '/');
	size_t n = slash ? (size_t)(slash - name) : strlen(name);

	snprintf(buf, len, "%.*s", (int)n, name);
	return buf;
}

bool sm_vintf_may_add(const struct sm_policy *p, const char *name, int stability, const char *who)
{
	char iface[SM_NAME_MAX + 1], others[512];
	size_t n_decl, used = 0;
	const struct sm_decl *d;
	int k;

	/* Stability::requiresVintfDeclaration: every VINTF bit set */
	if ((stability & BINDERC_STABILITY_VINTF) != BINDERC_STABILITY_VINTF)
		return true;
	if (sm_policy_is_declared(p, name))
		return true;
	/* As Android, name the interface's declared instances in the log. */
	iface_of(name, iface, sizeof(iface));
	d = sm_policy_declarations(p, &n_decl);
	others[0] = '\0';
	for (size_t i = 0; i < n_decl && used < sizeof(others); i++) {
		if (!instance_of(d[i].name, iface))
			continue;
		k = snprintf(others + used, sizeof(others) - used, "%s%s", used ? ", " : "", d[i].name);
		if (k < 0)
			break;
		used += (size_t)k;
	}
	sm_log(SM_LOG_NOTICE, "add '%s' by %s refused: VINTF stability, but not declared (%s%s)", name, who,
	       used ? "declared instances: " : "no other instance of this interface is declared", others);
	return false;
}
