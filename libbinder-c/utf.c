/* SPDX-License-Identifier: MIT */
/* UTF-8 <-> UTF-16 conversion for String16. */
#include <errno.h>

#include "internal.h"

ssize_t bc__utf8_to_utf16(const char *str, size_t len, uint16_t *out)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n = 0;

	while (i < len) {
		uint32_t c = s[i], min;
		size_t extra;

		if (c < 0x80) {
			extra = 0;
			min = 0;
		} else if ((c & 0xe0) == 0xc0) {
			extra = 1;
			c &= 0x1f;
			min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			extra = 2;
			c &= 0x0f;
			min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			extra = 3;
			c &= 0x07;
			min = 0x10000;
		} else {
			return -EILSEQ;
		}
		if (extra > len - i - 1)
			return -EILSEQ;
		for (size_t k = 1; k <= extra; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return -EILSEQ;
			c = (c << 6) | (s[i + k] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return -EILSEQ;
		i += extra + 1;
		if (c >= 0x10000) {
			if (out) {
				c -= 0x10000;
				out[n] = (uint16_t)(0xd800 | (c >> 10));
				out[n + 1] = (uint16_t)(0xdc00 | (c & 0x3ff));
			}
			n += 2;
		} else {
			if (out)
				out[n] = (uint16_t)c;
			n++;
		}
	}
	return (ssize_t)n;
}

ssize_t bc__utf16_to_utf8(const uint16_t *s, size_t len, char *out)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		uint32_t c = s[i];
		size_t bytes;

		if (c >= 0xd800 && c <= 0xdbff) {
			if (i + 1 >= len || s[i + 1] < 0xdc00 || s[i + 1] > 0xdfff)
				return -EILSEQ;
			c = 0x10000 + (((c & 0x3ff) << 10) | (s[i + 1] & 0x3ff));
			i++;
		} else if (c >= 0xdc00 && c <= 0xdfff) {
			return -EILSEQ;
		}
		bytes = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
		if (out) {
			char *o = out + n;
			switch (bytes) {
			case 1:
				o[0] = (char)c;
				break;
			case 2:
				o[0] = (char)(0xc0 | (c >> 6));
				o[1] = (char)(0x80 | (c & 0x3f));
				break;
			case 3:
				o[0] = (char)(0xe0 | (c >> 12));
				o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
				o[2] = (char)(0x80 | (c & 0x3f));
				break;
			default:
				o[0] = (char)(0xf0 | (c >> 18));
				o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
				o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
				o[3] = (char)(0x80 | (c & 0x3f));
				break;
			}
		}
		n += bytes;
	}
	return (ssize_t)n;
}
