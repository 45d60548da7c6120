// SPDX-License-Identifier: MIT
/*
 * The AIDL lexer: identifiers, integer/floating/string/char literals and
 * operators, each with the file:line:column where it starts.  Comments
 * (// and block) are skipped.  Anything it does not know is an error at
 * its exact position, so a stray byte can never be misread as something
 * else.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aidl.h"

void aidl_lexer_init(struct aidl_lexer *lx, struct aidl_ctx *ctx, const char *file, const char *src, size_t len)
{
	lx->ctx = ctx;
	lx->file = file;
	lx->src = lx->p = src;
	lx->end = src + len;
	lx->line = lx->col = 1;
}

static int peek(const struct aidl_lexer *lx, size_t ahead)
{
	return (size_t)(lx->end - lx->p) > ahead ? (unsigned char)lx->p[ahead] : -1;
}

static void advance(struct aidl_lexer *lx)
{
	if (*lx->p == '\n') {
		lx->line++;
		lx->col = 1;
	} else {
		lx->col++;
	}
	lx->p++;
}

static struct aidl_loc here(const struct aidl_lexer *lx)
{
	return (struct aidl_loc){ lx->file, lx->line, lx->col };
}

static void skip_space(struct aidl_lexer *lx)
{
	for (;;) {
		int c = peek(lx, 0);

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			advance(lx);
		} else if (c == '/' && peek(lx, 1) == '/') {
			while (peek(lx, 0) >= 0 && peek(lx, 0) != '\n')
				advance(lx);
		} else if (c == '/' && peek(lx, 1) == '*') {
			struct aidl_loc start = here(lx);

			advance(lx), advance(lx);
			while (!(peek(lx, 0) == '*' && peek(lx, 1) == '/')) {
				if (peek(lx, 0) < 0)
					aidl_fail(lx->ctx, &start, "unterminated comment");
				advance(lx);
			}
			advance(lx), advance(lx);
		} else {
			return;
		}
	}
}

/* One UTF-8 sequence starting at lx->p as a code point; -1 if invalid. */
static long utf8_char(struct aidl_lexer *lx)
{
	int c = peek(lx, 0), n, i;
	long cp;

	if (c < 0x80)
		n = 0, cp = c;
	else if ((c & 0xe0) == 0xc0)
		n = 1, cp = c & 0x1f;
	else if ((c & 0xf0) == 0xe0)
		n = 2, cp = c & 0x0f;
	else if ((c & 0xf8) == 0xf0)
		n = 3, cp = c & 0x07;
	else
		return -1;
	for (i = 1; i <= n; i++) {
		int d = peek(lx, (size_t)i);
		if (d < 0 || (d & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (d & 0x3f);
	}
	if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	for (i = 0; i <= n; i++)
		advance(lx);
	return cp;
}

/* An escape after the backslash: the byte it stands for. */
static int escape(struct aidl_lexer *lx)
{
	struct aidl_loc at = here(lx);
	int c = peek(lx, 0);

	switch (c) {
	case 'n': advance(lx); return '\n';
	case 't': advance(lx); return '\t';
	case 'r': advance(lx); return '\r';
	case 'b': advance(lx); return '\b';
	case 'f': advance(lx); return '\f';
	case '0': advance(lx); return '\0';
	case '\\': case '"': case '\'': advance(lx); return c;
	default:
		aidl_fail(lx->ctx, &at, "unsupported escape sequence in a literal");
	}
}

static void lex_string(struct aidl_lexer *lx, struct aidl_token *t)
{
	size_t cap = 16, n = 0;
	char *buf = aidl_alloc(lx->ctx, cap);

	advance(lx); /* opening quote */
	for (;;) {
		int c = peek(lx, 0);
		const char *from = lx->p;

		if (c < 0 || c == '\n')
			aidl_fail(lx->ctx, &t->loc, "unterminated string literal");
		if (c == '"') {
			advance(lx);
			break;
		}
		if (n + 5 > cap) {
			char *nb = aidl_alloc(lx->ctx, cap * 2);
			memcpy(nb, buf, n);
			buf = nb, cap *= 2;
		}
		if (c == '\\') {
			advance(lx);
			buf[n++] = (char)escape(lx);
		} else if (c >= 0x80) {
			struct aidl_loc at = here(lx);
			if (utf8_char(lx) < 0)
				aidl_fail(lx->ctx, &at, "invalid UTF-8 in a string literal");
			memcpy(buf + n, from, (size_t)(lx->p - from));
			n += (size_t)(lx->p - from);
		} else if (c < 0x20 && c != '\t') {
			aidl_fail(lx->ctx, &t->loc, "control character in a string literal");
		} else {
			buf[n++] = (char)c;
			advance(lx);
		}
	}
	buf[n] = '\0';
	t->kind = TK_STRING;
	t->text = buf;
	t->len = n;
}

static void lex_char(struct aidl_lexer *lx, struct aidl_token *t)
{
	long cp;

	advance(lx);
	if (peek(lx, 0) == '\\') {
		advance(lx);
		cp = escape(lx);
	} else if (peek(lx, 0) < 0 || peek(lx, 0) == '\'' || peek(lx, 0) == '\n') {
		aidl_fail(lx->ctx, &t->loc, "empty or unterminated character literal");
	} else {
		cp = utf8_char(lx);
		if (cp < 0)
			aidl_fail(lx->ctx, &t->loc, "invalid UTF-8 in a character literal");
		if (cp > 0xffff)
			aidl_fail(lx->ctx, &t->loc, "character literal does not fit in one UTF-16 unit");
	}
	if (peek(lx, 0) != '\'')
		aidl_fail(lx->ctx, &t->loc, "unterminated character literal");
	advance(lx);
	t->kind = TK_CHAR;
	t->ival = (uint64_t)cp;
}

static void lex_number(struct aidl_lexer *lx, struct aidl_token *t)
{
	const char *s = lx->p;
	bool hex = peek(lx, 0) == '0' && (peek(lx, 1) == 'x' || peek(lx, 1) == 'X');
	bool flt = false;
	char buf[128];
	size_t n;
	char *endp;

	if (hex) {
		advance(lx), advance(lx);
		if (!isxdigit(peek(lx, 0)))
			aidl_fail(lx->ctx, &t->loc, "hexadecimal literal without digits");
		while (isxdigit(peek(lx, 0)))
			advance(lx);
	} else {
		while (isdigit(peek(lx, 0)))
			advance(lx);
		if (peek(lx, 0) == '.' && isdigit(peek(lx, 1))) {
			flt = true;
			advance(lx);
			while (isdigit(peek(lx, 0)))
				advance(lx);
		}
		if (peek(lx, 0) == 'e' || peek(lx, 0) == 'E') {
			int o = (peek(lx, 1) == '+' || peek(lx, 1) == '-') ? 2 : 1;
			if (!isdigit(peek(lx, (size_t)o)))
				aidl_fail(lx->ctx, &t->loc, "exponent without digits");
			flt = true;
			while (o--)
				advance(lx);
			while (isdigit(peek(lx, 0)))
				advance(lx);
		}
	}
	n = (size_t)(lx->p - s);
	if (n >= sizeof(buf))
		aidl_fail(lx->ctx, &t->loc, "numeric literal too long");
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (flt || ((peek(lx, 0) == 'f' || peek(lx, 0) == 'F') && !hex)) {
		t->kind = TK_FLOAT;
		t->dval = strtod(buf, &endp);
		if (peek(lx, 0) == 'f' || peek(lx, 0) == 'F') {
			t->is_float = true;
			advance(lx);
		}
	} else {
		t->kind = TK_INT;
		errno = 0;
		t->ival = strtoull(buf, &endp, hex ? 16 : 10);
		if (errno == ERANGE)
			aidl_fail(lx->ctx, &t->loc, "integer literal too large");
		if (peek(lx, 0) == 'l' || peek(lx, 0) == 'L') {
			t->is_long = true;
			advance(lx);
		} else if (peek(lx, 0) == 'u' && peek(lx, 1) == '8') {
			/* Android 14's byte literal: 0..255, the byte of those bits */
			if (t->ival > 0xff)
				aidl_fail(lx->ctx, &t->loc, "a u8 literal must be 0..255");
			t->is_u8 = true;
			advance(lx);
			advance(lx);
		}
	}
	if (isalnum(peek(lx, 0)) || peek(lx, 0) == '_')
		aidl_fail(lx->ctx, &t->loc, "invalid suffix on a numeric literal");
	t->text = aidl_strdup(lx->ctx, buf);
	t->len = n;
}

static const char *const two_char_ops[] = { "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };

void aidl_lex(struct aidl_lexer *lx, struct aidl_token *t)
{
	int c;

	skip_space(lx);
	memset(t, 0, sizeof(*t));
	t->loc = here(lx);
	c = peek(lx, 0);
	if (c < 0) {
		t->kind = TK_EOF;
		t->text = "end of file";
		return;
	}
	if (isalpha(c) || c == '_') {
		const char *s = lx->p;
		while (isalnum(peek(lx, 0)) || peek(lx, 0) == '_')
			advance(lx);
		t->kind = TK_IDENT;
		t->len = (size_t)(lx->p - s);
		t->text = aidl_strndup(lx->ctx, s, t->len);
		return;
	}
	if (isdigit(c) || (c == '.' && isdigit(peek(lx, 1)))) {
		lex_number(lx, t);
		return;
	}
	if (c == '"') {
		lex_string(lx, t);
		return;
	}
	if (c == '\'') {
		lex_char(lx, t);
		return;
	}
	for (size_t i = 0; i < sizeof(two_char_ops) / sizeof(two_char_ops[0]); i++) {
		if (c == two_char_ops[i][0] && peek(lx, 1) == two_char_ops[i][1]) {
			advance(lx), advance(lx);
			t->kind = TK_PUNCT;
			t->text = two_char_ops[i];
			t->len = 2;
			return;
		}
	}
	if (c < 0x80 && strchr("{}()[]<>;,=.@-+~!*/%&|^?:", c)) {
		advance(lx);
		t->kind = TK_PUNCT;
		t->text = aidl_strndup(lx->ctx, (const char[]){ (char)c }, 1);
		t->len = 1;
		return;
	}
	if (c >= 0x20 && c < 0x7f)
		aidl_fail(lx->ctx, &t->loc, "unexpected character '%c'", c);
	aidl_fail(lx->ctx, &t->loc, "unexpected byte 0x%02x", c);
}
