// SPDX-License-Identifier: MIT
/*
 * Where the instantiations of generic parcelables (instance.c) go.
 *
 * P<int, String> is known only to the files that use it, not to P's own,
 * and C has no templates, so every file using it carries it:
 *  - its header declares the struct and the functions, inside
 *    #ifndef BCAIDL_INST_<name>, so a source that includes several
 *    headers using the same instantiation sees one declaration (a
 *    typedef of the struct comes first, outside the guard, as C11 allows
 *    a typedef to be repeated: the file's own structs may point to it);
 *  - its source defines the functions, marked weak (#pragma weak, gcc and
 *    clang), so a program linking two files that both use P<int, String>
 *    gets one copy of identical code instead of a duplicate symbol.
 * With separate compilation nothing has to know all the instantiations:
 * each user's .c is complete, and each header self-contained.
 */
#include <string.h>

#include "gen.h"

static bool placed(const struct gen *g, const struct aidl_decl *d)
{
	for (size_t i = 0; i < g->n_all; i++)
		if (g->all[i] == d)
			return true;
	return false;
}

/* A field's type this file must declare before @d's struct: an enum or
 * parcelable of the same file held by value, or an instantiation so held. */
static bool needed_first(const struct gen *g, const struct aidl_decl *d, const struct aidl_type *t)
{
	if (t->basic != B_USER || !t->decl || t->decl == d)
		return false;
	if (t->decl->inst_of)
		return !t->array && !t->nullable;
	if (aidl_root(t->decl) != g->root)
		return false;
	return t->decl->kind == K_ENUM || (t->decl->kind == K_PARCELABLE && !t->array && !t->nullable);
}

/* Append @d after what its C declaration needs (value cycles are refused
 * by the resolver), and its nested types. */
static void place(struct gen *g, const struct aidl_decl *d)
{
	if (placed(g, d))
		return;
	for (size_t i = 0; i < d->n_fields; i++)
		if (needed_first(g, d, &d->fields[i].type))
			place(g, d->fields[i].type.decl);
	for (size_t i = 0; i < d->n_nested; i++)
		place(g, d->nested[i]);
	if (!placed(g, d))
		g->all[g->n_all++] = d;
}

static void use(struct gen *g, const struct aidl_type *t)
{
	if (t->basic == B_USER && t->decl && t->decl->inst_of)
		place(g, t->decl);
}

void gen_place(struct gen *g, const struct aidl_decl *d)
{
	place(g, d);
	/* then every instantiation the file uses by pointer only (arrays,
	 * @nullable, arguments), and those these use, until none is new */
	for (size_t k = 0; k < g->n_all; k++) {
		const struct aidl_decl *u = g->all[k];

		for (size_t i = 0; i < u->n_fields; i++)
			use(g, &u->fields[i].type);
		for (size_t i = 0; i < u->n_methods; i++) {
			use(g, &u->methods[i].ret);
			for (size_t j = 0; j < u->methods[i].n_params; j++)
				use(g, &u->methods[i].params[j].type);
		}
	}
}

void gen_inst_typedefs(struct gen *g)
{
	bool any = false;

	for (size_t k = 0; k < g->n_all; k++) {
		if (!g->all[k]->inst_of)
			continue;
		if (!any)
			fprintf(g->h, "/* Instantiations of generic parcelables this file uses. */\n");
		any = true;
		fprintf(g->h, "typedef struct %s %s;\n", g->all[k]->cname, g->all[k]->cname);
	}
	if (any)
		fprintf(g->h, "\n");
}

void gen_inst_weak(struct gen *g)
{
	static const char *const fns[] = {
		"zero",	      "init",	       "clear",		 "write_array",		"free_array",
		"new_array",  "read_array",    "write_nullable", "free",		"read_nullable",
		"write_nullable_array", "free_nullable_array", "read_nullable_array", "write", "read",
	};
	bool any = false;

	for (size_t k = 0; k < g->n_all; k++) {
		if (!g->all[k]->inst_of)
			continue;
		if (!any)
			fprintf(g->c, "/* Every file using an instantiation defines it: one copy is linked. */\n"
				      "#if defined(__GNUC__) || defined(__clang__)\n");
		any = true;
		for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
			fprintf(g->c, "#pragma weak %s_%s\n", g->all[k]->cname, fns[i]);
	}
	if (any)
		fprintf(g->c, "#endif\n\n");
}
