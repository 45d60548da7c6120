// SPDX-License-Identifier: MIT
/*
 * The policy file.  One statement per line, '#' starts a comment:
 *
 *   allow ACTIONS GLOB WHO...     ACTIONS: add, find or add,find
 *   deny  ACTIONS GLOB WHO...     GLOB: fnmatch(3) pattern on the name
 *                                 WHO: *, root, uid:N, user:NAME,
 *                                      gid:N, group:NAME
 *   declare NAME [updatable-via-apex APEX] [ip ADDRESS port PORT]
 *                                 NAME is declared (Android: in the VINTF
 *                                 manifest): isDeclared, getDeclaredInstances,
 *                                 updatableViaApex, getUpdatableNames and
 *                                 getConnectionInfo answer from these
 *                                 lines, and only a declared NAME may be
 *                                 registered with VINTF stability
 *                                 (declared.c)
 *   max-services N                limits (defaults in sm_policy_new_default)
 *   max-services-per-uid N
 *   max-callbacks N
 *   max-callbacks-per-uid N
 *   isolated-uids FIRST-LAST      uids that find only allow-isolated services
 *   android-release N             AIDL method numbering of Android N (11-16;
 *                                 15-r6, 15-r20: Android 15 variants)
 *   start-command NAME PATH ARG...
 *                                 run PATH ARG... (no shell) when a
 *                                 getService asks for NAME and it is not
 *                                 registered (lazy services)
 *
 * Rules are tried in file order; the first whose action, glob and one of
 * whose principals match decides.  When none matches: root may add, anyone
 * may find.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <arpa/inet.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sm.h"

enum who_kind { WHO_ANY, WHO_UID, WHO_GID };

struct who {
	enum who_kind kind;
	uint32_t id;
};

struct rule {
	bool allow;
	unsigned actions;
	char *glob;
	struct who *who;
	size_t n_who;
};

/* A start-command: the exact service name, then the NULL-terminated
 * argument vector (words of the file, never anything a client sent). */
struct start_cmd {
	char *name;
	char **argv;
};

struct sm_policy {
	struct rule *rules;
	size_t n_rules;
	struct sm_decl *declared; /* in file order */
	size_t n_declared;
	struct start_cmd *starts;
	size_t n_starts;
	struct sm_limits limits;
	int release; /* android-release, 0 when not given */
	int shape;   /* its enum sm_union_shape */
};

bool sm_name_is_valid(const char *name)
{
	size_t n = 0;

	if (!name)
		return false;
	for (; name[n]; n++) {
		unsigned char ch = (unsigned char)name[n];

		if (n >= SM_NAME_MAX)
			return false;
		if (!(isalnum(ch) || ch == '_' || ch == '.' || ch == '-' || ch == '/'))
			return false;
	}
	return n > 0;
}

void sm_caller_init(struct sm_caller *c, uid_t uid, pid_t pid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	int n;

	memset(c, 0, sizeof(*c));
	c->uid = uid;
	c->pid = pid;
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) != 0 || !res)
		return;
	n = (int)(sizeof(c->gids) / sizeof(c->gids[0]));
	if (getgrouplist(pw.pw_name, pw.pw_gid, c->gids, &n) < 0) {
		/* More groups than we keep: the primary one and the first ones. */
		n = (int)(sizeof(c->gids) / sizeof(c->gids[0]));
	}
	c->n_gids = n > 0 ? (size_t)n : 0;
}

static void set_default_limits(struct sm_limits *l)
{
	l->max_services = 4096;
	l->max_services_per_uid = 1024;
	l->max_callbacks = 4096;
	l->max_callbacks_per_uid = 256;
	l->isolated_first = 99000;
	l->isolated_last = 99999;
}

int sm_policy_release(const struct sm_policy *p)
{
	return p ? p->release : 0;
}

int sm_policy_union_shape(const struct sm_policy *p)
{
	return p ? p->shape : SM_UNION_DEFAULT;
}

int sm_policy_new_default(struct sm_policy **ret)
{
	struct sm_policy *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	set_default_limits(&p->limits);
	*ret = p;
	return 0;
}

void sm_policy_free(struct sm_policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_rules; i++) {
		free(p->rules[i].glob);
		free(p->rules[i].who);
	}
	free(p->rules);
	for (size_t i = 0; i < p->n_declared; i++) {
		free(p->declared[i].name);
		free(p->declared[i].apex);
		free(p->declared[i].ip);
	}
	free(p->declared);
	for (size_t i = 0; i < p->n_starts; i++) {
		free(p->starts[i].name);
		for (char **a = p->starts[i].argv; a && *a; a++)
			free(*a);
		free(p->starts[i].argv);
	}
	free(p->starts);
	free(p);
}

/* ---- parsing ------------------------------------------------------------- */

struct parser {
	const char *origin;
	unsigned line;
	char *err;
	size_t errlen;
};

static int perr(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (ps->err && ps->errlen) {
		n = snprintf(ps->err, ps->errlen, "%s:%u: ", ps->origin, ps->line);
		if (n < 0 || (size_t)n >= ps->errlen)
			n = 0;
		va_start(ap, fmt);
		vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Split @s in place on blanks; at most @max words. */
static size_t split(char *s, char **words, size_t max)
{
	size_t n = 0;

	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s)
			break;
		if (n == max)
			return max + 1;
		words[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *ret)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*ret = v;
	return 0;
}

static int parse_who(struct parser *ps, const char *w, struct who *ret)
{
	unsigned long v;

	if (strcmp(w, "*") == 0) {
		ret->kind = WHO_ANY;
		return 0;
	}
	if (strcmp(w, "root") == 0) {
		ret->kind = WHO_UID;
		ret->id = 0;
		return 0;
	}
	if (strncmp(w, "uid:", 4) == 0 || strncmp(w, "gid:", 4) == 0) {
		if (parse_uint(w + 4, UINT32_MAX - 1, &v) < 0)
			return perr(ps, "bad id in '%s'", w);
		ret->kind = w[0] == 'u' ? WHO_UID : WHO_GID;
		ret->id = (uint32_t)v;
		return 0;
	}
	if (strncmp(w, "user:", 5) == 0) {
		struct passwd pw, *res = NULL;
		char buf[4096];

		if (getpwnam_r(w + 5, &pw, buf, sizeof(buf), &res) != 0 || !res)
			return perr(ps, "unknown user '%s'", w + 5);
		ret->kind = WHO_UID;
		ret->id = pw.pw_uid;
		return 0;
	}
	if (strncmp(w, "group:", 6) == 0) {
		struct group gr, *res = NULL;
		char buf[16384];

		if (getgrnam_r(w + 6, &gr, buf, sizeof(buf), &res) != 0 || !res)
			return perr(ps, "unknown group '%s'", w + 6);
		ret->kind = WHO_GID;
		ret->id = gr.gr_gid;
		return 0;
	}
	return perr(ps, "bad principal '%s' (*, root, uid:N, user:NAME, gid:N, group:NAME)", w);
}

static int parse_actions(struct parser *ps, char *s, unsigned *ret)
{
	unsigned a = 0;
	char *save = NULL;

	for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (strcmp(t, "add") == 0)
			a |= SM_ACT_ADD;
		else if (strcmp(t, "find") == 0)
			a |= SM_ACT_FIND;
		else
			return perr(ps, "unknown action '%s' (add, find)", t);
	}
	if (!a)
		return perr(ps, "no action");
	*ret = a;
	return 0;
}

#define MAX_WORDS 64

static int parse_rule(struct parser *ps, struct sm_policy *p, char **w, size_t n)
{
	struct rule r = { 0 };
	struct rule *nr;
	int e;

	if (n < 4)
		return perr(ps, "usage: %s ACTIONS GLOB WHO...", w[0]);
	r.allow = strcmp(w[0], "allow") == 0;
	e = parse_actions(ps, w[1], &r.actions);
	if (e < 0)
		return e;
	if (strlen(w[2]) > 4 * SM_NAME_MAX)
		return perr(ps, "glob too long");
	r.who = calloc(n - 3, sizeof(*r.who));
	r.glob = strdup(w[2]);
	if (!r.who || !r.glob) {
		e = -ENOMEM;
		goto fail;
	}
	for (size_t i = 3; i < n; i++) {
		e = parse_who(ps, w[i], &r.who[r.n_who]);
		if (e < 0)
			goto fail;
		r.n_who++;
	}
	nr = realloc(p->rules, (p->n_rules + 1) * sizeof(*nr));
	if (!nr) {
		e = -ENOMEM;
		goto fail;
	}
	p->rules = nr;
	p->rules[p->n_rules++] = r;
	return 0;
fail:
	free(r.who);
	free(r.glob);
	return e;
}

static int parse_start(struct parser *ps, struct sm_policy *p, char **w, size_t n)
{
	struct start_cmd c = { 0 };
	struct start_cmd *nv;

	if (n < 3 || !sm_name_is_valid(w[1]) || w[2][0] != '/')
		return perr(ps, "usage: start-command NAME /ABSOLUTE/PATH [ARG...]");
	if (sm_policy_start_command(p, w[1]))
		return perr(ps, "a second start-command for '%s'", w[1]);
	c.name = strdup(w[1]);
	c.argv = calloc(n - 1, sizeof(*c.argv));
	if (!c.name || !c.argv)
		goto nomem;
	for (size_t i = 2; i < n; i++)
		if (!(c.argv[i - 2] = strdup(w[i])))
			goto nomem;
	nv = realloc(p->starts, (p->n_starts + 1) * sizeof(*nv));
	if (!nv)
		goto nomem;
	p->starts = nv;
	p->starts[p->n_starts++] = c;
	return 0;
nomem:
	for (size_t i = 0; c.argv && c.argv[i]; i++)
		free(c.argv[i]);
	free(c.argv);
	free(c.name);
	return -ENOMEM;
}

/* An APEX name, as Android's apex manifests spell them. */
static bool apex_name_is_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > SM_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_')
			return false;
	return true;
}

static bool ip_is_valid(const char *s)
{
	unsigned char buf[16];

	return inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1;
}

/* declare NAME [updatable-via-apex APEX] [ip ADDRESS port PORT] */
static int parse_declare(struct parser *ps, struct sm_policy *p, char **w, size_t n)
{
	static const char usage[] = "usage: declare NAME [updatable-via-apex APEX] [ip ADDRESS port PORT]";
	struct sm_decl d = { 0 };
	const char *apex = NULL, *ip = NULL;
	unsigned long port = 0;
	bool has_port = false;
	struct sm_decl *nd;

	if (n < 2 || !sm_name_is_valid(w[1]))
		return perr(ps, "%s (NAME: 1..%d of [A-Za-z0-9_.-/])", usage, SM_NAME_MAX);
	for (size_t i = 2; i < n; i += 2) {
		if (i + 1 >= n)
			return perr(ps, "%s", usage);
		if (strcmp(w[i], "updatable-via-apex") == 0 && !apex) {
			if (!apex_name_is_valid(w[i + 1]))
				return perr(ps, "bad APEX name '%s'", w[i + 1]);
			apex = w[i + 1];
		} else if (strcmp(w[i], "ip") == 0 && !ip) {
			if (!ip_is_valid(w[i + 1]))
				return perr(ps, "bad IP address '%s'", w[i + 1]);
			ip = w[i + 1];
		} else if (strcmp(w[i], "port") == 0 && !has_port) {
			if (parse_uint(w[i + 1], 65535, &port) < 0 || port == 0)
				return perr(ps, "bad port '%s' (1..65535)", w[i + 1]);
			has_port = true;
		} else {
			return perr(ps, "%s", usage);
		}
	}
	/* getConnectionInfo answers only with both (Android's too) */
	if (!ip != !has_port)
		return perr(ps, "ip and port go together");
	if (sm_policy_declaration(p, w[1]))
		return perr(ps, "'%s' is declared twice", w[1]);
	d.name = strdup(w[1]);
	d.apex = apex ? strdup(apex) : NULL;
	d.ip = ip ? strdup(ip) : NULL;
	d.port = (uint16_t)port;
	nd = realloc(p->declared, (p->n_declared + 1) * sizeof(*nd));
	if (!d.name || (apex && !d.apex) || (ip && !d.ip) || !nd) {
		if (nd)
			p->declared = nd;
		free(d.name);
		free(d.apex);
		free(d.ip);
		return -ENOMEM;
	}
	p->declared = nd;
	p->declared[p->n_declared++] = d;
	return 0;
}

static int parse_line(struct parser *ps, struct sm_policy *p, char *line)
{
	char *w[MAX_WORDS];
	char *hash = strchr(line, '#');
	size_t n;
	unsigned long v;

	if (hash)
		*hash = '\0';
	n = split(line, w, MAX_WORDS);
	if (n == 0)
		return 0;
	if (n > MAX_WORDS)
		return perr(ps, "too many words");
	if (strcmp(w[0], "allow") == 0 || strcmp(w[0], "deny") == 0)
		return parse_rule(ps, p, w, n);
	if (strcmp(w[0], "declare") == 0)
		return parse_declare(ps, p, w, n);
	if (strcmp(w[0], "start-command") == 0)
		return parse_start(ps, p, w, n);
	if (strcmp(w[0], "android-release") == 0) {
		if (n != 2 || sm_parse_release(w[1], &p->release, &p->shape) < 0)
			return perr(ps, "usage: android-release N (%d..%d, or 15-r6, 15-r20)", SM_RELEASE_FIRST,
				    SM_RELEASE_LAST);
		return 0;
	}
	if (strcmp(w[0], "isolated-uids") == 0) {
		unsigned long a, b;
		char *dash = n == 2 ? strchr(w[1], '-') : NULL;

		if (!dash)
			return perr(ps, "usage: isolated-uids FIRST-LAST");
		*dash = '\0';
		if (parse_uint(w[1], UINT32_MAX - 1, &a) < 0 || parse_uint(dash + 1, UINT32_MAX - 1, &b) < 0 || a > b)
			return perr(ps, "bad uid range");
		p->limits.isolated_first = (uid_t)a;
		p->limits.isolated_last = (uid_t)b;
		return 0;
	}
	{
		static const struct {
			const char *key;
			size_t off;
		} keys[] = {
			{ "max-services", offsetof(struct sm_limits, max_services) },
			{ "max-services-per-uid", offsetof(struct sm_limits, max_services_per_uid) },
			{ "max-callbacks", offsetof(struct sm_limits, max_callbacks) },
			{ "max-callbacks-per-uid", offsetof(struct sm_limits, max_callbacks_per_uid) },
		};
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strcmp(w[0], keys[i].key) != 0)
				continue;
			if (n != 2 || parse_uint(w[1], 1u << 20, &v) < 0)
				return perr(ps, "usage: %s N (0..%u)", keys[i].key, 1u << 20);
			*(unsigned *)((char *)&p->limits + keys[i].off) = (unsigned)v;
			return 0;
		}
	}
	return perr(ps, "unknown statement '%s'", w[0]);
}

int sm_policy_parse(const char *text, const char *origin, struct sm_policy **ret, char *err, size_t errlen)
{
	struct parser ps = { origin ? origin : "policy", 0, err, errlen };
	struct sm_policy *p;
	int e;

	if (err && errlen)
		err[0] = '\0';
	e = sm_policy_new_default(&p);
	if (e < 0)
		return e;
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char buf[4096];

		ps.line++;
		if (len >= sizeof(buf)) {
			e = perr(&ps, "line too long");
			goto fail;
		}
		memcpy(buf, text, len);
		buf[len] = '\0';
		if (memchr(buf, '\0', len)) {
			e = perr(&ps, "NUL byte");
			goto fail;
		}
		e = parse_line(&ps, p, buf);
		if (e < 0)
			goto fail;
		text += len + (nl ? 1 : 0);
	}
	*ret = p;
	return 0;
fail:
	sm_policy_free(p);
	return e;
}

int sm_policy_load(const char *path, struct sm_policy **ret, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int e;

	if (err && errlen)
		err[0] = '\0';
	if (!f) {
		e = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(-e));
		return e;
	}
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *nt;

			if (cap > (1u << 20)) {
				fclose(f);
				free(text);
				if (err && errlen)
					snprintf(err, errlen, "%s: larger than 1 MiB", path);
				return -EFBIG;
			}
			nt = realloc(text, cap + 8192);
			if (!nt) {
				fclose(f);
				free(text);
				return -ENOMEM;
			}
			text = nt;
			cap += 8192;
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	e = ferror(f) ? -EIO : 0;
	fclose(f);
	if (e == 0) {
		text[len] = '\0';
		if (strlen(text) != len) {
			if (err && errlen)
				snprintf(err, errlen, "%s: NUL byte", path);
			e = -EINVAL;
		} else {
			e = sm_policy_parse(text, path, ret, err, errlen);
		}
	}
	free(text);
	return e;
}

/* ---- queries ------------------------------------------------------------- */

static bool who_matches(const struct who *w, const struct sm_caller *c)
{
	switch (w->kind) {
	case WHO_ANY:
		return true;
	case WHO_UID:
		return c->uid == (uid_t)w->id;
	case WHO_GID:
		for (size_t i = 0; i < c->n_gids; i++)
			if (c->gids[i] == (gid_t)w->id)
				return true;
		return false;
	}
	return false;
}

bool sm_policy_allows(const struct sm_policy *p, unsigned action, const char *name, const struct sm_caller *c)
{
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct rule *r = &p->rules[i];

		if (!(r->actions & action) || fnmatch(r->glob, name, 0) != 0)
			continue;
		for (size_t j = 0; j < r->n_who; j++)
			if (who_matches(&r->who[j], c))
				return r->allow;
	}
	return action == SM_ACT_ADD ? c->uid == 0 : true;
}

bool sm_policy_uses_groups(const struct sm_policy *p)
{
	for (size_t i = 0; i < p->n_rules; i++)
		for (size_t j = 0; j < p->rules[i].n_who; j++)
			if (p->rules[i].who[j].kind == WHO_GID)
				return true;
	return false;
}

const struct sm_decl *sm_policy_declarations(const struct sm_policy *p, size_t *ret_n)
{
	*ret_n = p ? p->n_declared : 0;
	return p ? p->declared : NULL;
}

const struct sm_limits *sm_policy_limits(const struct sm_policy *p)
{
	return &p->limits;
}

bool sm_policy_is_isolated(const struct sm_policy *p, uid_t uid)
{
	return uid >= p->limits.isolated_first && uid <= p->limits.isolated_last;
}

const char *const *sm_policy_start_command(const struct sm_policy *p, const char *name)
{
	for (size_t i = 0; i < p->n_starts; i++)
		if (strcmp(p->starts[i].name, name) == 0)
			return (const char *const *)p->starts[i].argv;
	return NULL;
}
