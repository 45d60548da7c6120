// SPDX-License-Identifier: MIT
/*
 * The static helpers at the top of every generated source: the non-null
 * rules of AIDL (a non-nullable String, binder, array or parcelable is
 * refused when NULL on the way out and when null on the way in), the
 * status header and the out-array size.  Emitted as static inline, marked
 * unused where the compiler knows how, so a source that needs only some
 * of them compiles without warnings under gcc and clang.  No strdup():
 * the generated code must not depend on the includer's feature macros.
 */
#include "gen.h"

static const char helpers[] =
	"/* Not every source uses every helper. */\n"
	"#if defined(__GNUC__) || defined(__clang__)\n#define BCAIDL_HELPER static inline __attribute__((unused))\n"
	"#else\n#define BCAIDL_HELPER static inline\n#endif\n\n"
	"/* strdup() without depending on the includer's feature macros. */\n"
	"BCAIDL_HELPER char *bcaidl_strdup(const char *s)\n"
	"{\n\tsize_t n = strlen(s) + 1;\n\tchar *d = malloc(n);\n\n\treturn d ? memcpy(d, s, n) : NULL;\n}\n\n"
	"/* Non-nullable values: NULL is refused on writing (-EINVAL), a null on\n"
	" * the wire on reading (-EBADMSG). */\n"
	"BCAIDL_HELPER int bcaidl_write_str(bc_parcel *p, const char *s)\n"
	"{\n\treturn s ? bc_parcel_write_string16(p, s) : -EINVAL;\n}\n\n"
	"BCAIDL_HELPER int bcaidl_read_str(bc_parcel *p, char **ret)\n"
	"{\n\tchar *s = NULL;\n\tint r = bc_parcel_read_string16(p, &s, NULL);\n\n"
	"\tif (r < 0)\n\t\treturn r;\n\tif (!s)\n\t\treturn -EBADMSG;\n\t*ret = s;\n\treturn 0;\n}\n\n"
	"BCAIDL_HELPER int bcaidl_write_binder(bc_parcel *p, bc_binder *b)\n"
	"{\n\treturn b ? bc_parcel_write_binder(p, b) : -EINVAL;\n}\n\n"
	"BCAIDL_HELPER int bcaidl_read_binder(bc_parcel *p, bc_binder **ret)\n"
	"{\n\tbc_binder *b = NULL;\n\tint r = bc_parcel_read_binder(p, &b);\n\n"
	"\tif (r < 0)\n\t\treturn r;\n\tif (!b)\n\t\treturn -EBADMSG;\n\t*ret = b;\n\treturn 0;\n}\n\n"
	"/* A parcelable value is preceded by int32 1 (0 would be null). */\n"
	"BCAIDL_HELPER int bcaidl_read_marker(bc_parcel *p)\n"
	"{\n\tint32_t m = 0;\n\tint r = bc_parcel_read_int32(p, &m);\n\n"
	"\treturn r < 0 ? r : m == 0 ? -EBADMSG : 0;\n}\n\n"
	"/* out T[]: the request carries the caller's array size. */\n"
	"BCAIDL_HELPER int bcaidl_write_size(bc_parcel *p, size_t n)\n"
	"{\n\treturn n > INT32_MAX ? -EINVAL : bc_parcel_write_int32(p, (int32_t)n);\n}\n\n"
	"/* The stub's side; a bound keeps a request from making it allocate\n"
	" * gigabytes for an array it will only fill. */\n"
	"BCAIDL_HELPER int bcaidl_read_size(bc_parcel *p, size_t *ret)\n"
	"{\n\tint32_t n = 0;\n\tint r = bc_parcel_read_int32(p, &n);\n\n"
	"\tif (r < 0)\n\t\treturn r;\n\tif (n < 0 || n > (1 << 20))\n\t\treturn -EBADMSG;\n"
	"\t*ret = (size_t)n;\n\treturn 0;\n}\n\n"
	"BCAIDL_HELPER int bcaidl_write_bytes(bc_parcel *p, const int8_t *v, size_t n)\n"
	"{\n\tif (!v && n)\n\t\treturn -EINVAL;\n\treturn bc_parcel_write_byte_array(p, v ? (const void *)v : \"\", n);\n}\n\n"
	"BCAIDL_HELPER int bcaidl_read_bytes(bc_parcel *p, int8_t **ret, size_t *ret_n)\n"
	"{\n\tconst void *d = NULL;\n\tsize_t n = 0;\n\tint8_t *c;\n\tint r = bc_parcel_read_byte_array(p, &d, &n);\n\n"
	"\tif (r < 0)\n\t\treturn r;\n\tif (!d)\n\t\treturn -EBADMSG;\n"
	"\tc = malloc(n ? n : 1);\n\tif (!c)\n\t\treturn -ENOMEM;\n\tif (n)\n\t\tmemcpy(c, d, n);\n"
	"\t*ret = c;\n\t*ret_n = n;\n\treturn 0;\n}\n\n"
	"/* @nullable byte[]: NULL for null, else a malloc'd copy. */\n"
	"BCAIDL_HELPER int bcaidl_read_bytes_nullable(bc_parcel *p, int8_t **ret, size_t *ret_n)\n"
	"{\n\tconst void *d = NULL;\n\tsize_t n = 0;\n\tint8_t *c;\n\tint r = bc_parcel_read_byte_array(p, &d, &n);\n\n"
	"\tif (r < 0)\n\t\treturn r;\n\tif (!d) {\n\t\t*ret = NULL;\n\t\t*ret_n = 0;\n\t\treturn 0;\n\t}\n"
	"\tc = malloc(n ? n : 1);\n\tif (!c)\n\t\treturn -ENOMEM;\n\tif (n)\n\t\tmemcpy(c, d, n);\n"
	"\t*ret = c;\n\t*ret_n = n;\n\treturn 0;\n}\n\n"
	"/* File descriptors: the parcel gets its own duplicate (Android's\n"
	" * writeDupFileDescriptor), so the writer keeps its fd and a stub may\n"
	" * close an output before the reply is sent. */\n"
	"BCAIDL_HELPER int bcaidl_write_fd(bc_parcel *p, int fd)\n"
	"{\n\tint d, r;\n\n\tif (fd < 0)\n\t\treturn -EINVAL;\n\td = fcntl(fd, F_DUPFD_CLOEXEC, 0);\n"
	"\tif (d < 0)\n\t\treturn -errno;\n\tr = bc_parcel_write_fd(p, d, true);\n\tif (r < 0)\n\t\tclose(d);\n"
	"\treturn r;\n}\n\n"
	"/* ParcelFileDescriptor: int32 1 (non-null), int32 0 (no comm fd), the fd;\n"
	" * null (fd -1, when nullable): int32 0. */\n"
	"BCAIDL_HELPER int bcaidl_write_pfd(bc_parcel *p, int fd, bool nullable)\n"
	"{\n\tint r;\n\n\tif (fd < 0)\n\t\treturn nullable ? bc_parcel_write_int32(p, 0) : -EINVAL;\n"
	"\tr = bc_parcel_write_int32(p, 1);\n\tif (r == 0)\n\t\tr = bc_parcel_write_int32(p, 0);\n"
	"\treturn r < 0 ? r : bcaidl_write_fd(p, fd);\n}\n\n"
	"BCAIDL_HELPER int bcaidl_read_pfd(bc_parcel *p, int *ret, bool nullable)\n"
	"{\n\tint32_t present = 0, comm = 0;\n\tint r = bc_parcel_read_int32(p, &present);\n\n"
	"\tif (r < 0)\n\t\treturn r;\n\tif (!present) {\n\t\t*ret = -1;\n\t\treturn nullable ? 0 : -EBADMSG;\n\t}\n"
	"\tr = bc_parcel_read_int32(p, &comm);\n\tif (r < 0)\n\t\treturn r;\n"
	"\tif (comm) /* a comm channel fd follows: not supported */\n\t\treturn -EBADMSG;\n"
	"\treturn bc_parcel_read_dup_fd(p, ret);\n}\n\n"
	"/* IBinder[] and interface arrays: int32 count, then each binder\n"
	" * (non-null, as Android's writeStrongBinderVector requires). */\n"
	"BCAIDL_HELPER int bcaidl_write_binderv(bc_parcel *p, bc_binder *const *v, size_t n)\n"
	"{\n\tint r;\n\n\tif ((!v && n) || n > INT32_MAX)\n\t\treturn -EINVAL;\n"
	"\tfor (size_t i = 0; i < n; i++)\n\t\tif (!v[i])\n\t\t\treturn -EINVAL;\n"
	"\tr = bc_parcel_write_int32(p, (int32_t)n);\n"
	"\tfor (size_t i = 0; r == 0 && i < n; i++)\n\t\tr = bc_parcel_write_binder(p, v[i]);\n\treturn r;\n}\n\n"
	"BCAIDL_HELPER void bcaidl_free_binderv(bc_binder **v, size_t n)\n"
	"{\n\tfor (size_t i = 0; v && i < n; i++)\n\t\tbc_binder_unref(v[i]);\n\tfree(v);\n}\n\n"
	"BCAIDL_HELPER int bcaidl_read_binderv(bc_parcel *p, bc_binder ***ret, size_t *ret_n)\n"
	"{\n\tint32_t n = 0;\n\tbc_binder **v;\n\tint r = bc_parcel_read_int32(p, &n);\n\n"
	"\tif (r < 0)\n\t\treturn r;\n\tif (n < 0 || (size_t)n > bc_parcel_remaining(p) / 4)\n\t\treturn -EBADMSG;\n"
	"\tv = calloc(n ? (size_t)n : 1, sizeof(*v));\n\tif (!v)\n\t\treturn -ENOMEM;\n"
	"\tfor (int32_t i = 0; i < n; i++) {\n\t\tr = bcaidl_read_binder(p, &v[i]);\n\t\tif (r < 0) {\n"
	"\t\t\tbcaidl_free_binderv(v, (size_t)n);\n\t\t\treturn r;\n\t\t}\n\t}\n"
	"\t*ret = v;\n\t*ret_n = (size_t)n;\n\treturn 0;\n}\n\n"
	"BCAIDL_HELPER int bcaidl_write_strv(bc_parcel *p, const char *const *v, size_t n)\n"
	"{\n\tstatic const char *const none[1] = { \"\" };\n\n\tif (!v && n)\n\t\treturn -EINVAL;\n"
	"\tfor (size_t i = 0; i < n; i++)\n\t\tif (!v[i])\n\t\t\treturn -EINVAL;\n"
	"\treturn bc_parcel_write_string16_array(p, v ? v : none, n);\n}\n\n"
	"BCAIDL_HELPER int bcaidl_read_strv(bc_parcel *p, char ***ret, size_t *ret_n)\n"
	"{\n\tchar **v = NULL;\n\tsize_t n = 0;\n\tint r = bc_parcel_read_string16_array(p, &v, &n);\n\n"
	"\tif (r < 0)\n\t\treturn r;\n\tif (!v)\n\t\treturn -EBADMSG;\n"
	"\tfor (size_t i = 0; i < n; i++) {\n\t\tif (!v[i]) {\n\t\t\tbc_strv_free(v, n);\n\t\t\treturn -EBADMSG;\n\t\t}\n\t}\n"
	"\t*ret = v;\n\t*ret_n = n;\n\treturn 0;\n}\n\n"
	"/* n empty strings: what an out String[] of size n starts as. */\n"
	"BCAIDL_HELPER int bcaidl_strv_new(size_t n, char ***ret)\n"
	"{\n\tchar **v = calloc(n ? n : 1, sizeof(*v));\n\n\tif (!v)\n\t\treturn -ENOMEM;\n"
	"\tfor (size_t i = 0; i < n; i++) {\n\t\tv[i] = bcaidl_strdup(\"\");\n\t\tif (!v[i]) {\n"
	"\t\t\tbc_strv_free(v, i);\n\t\t\treturn -ENOMEM;\n\t\t}\n\t}\n\t*ret = v;\n\treturn 0;\n}\n\n"
	"/* The reply's status header: 0, a positive service-specific error, or\n"
	" * -EREMOTEIO for any other AIDL exception. */\n"
	"BCAIDL_HELPER int bcaidl_read_status(bc_parcel *p)\n"
	"{\n\tbc_status st = BINDERC_STATUS_INIT;\n\tint r = bc_parcel_read_status(p, &st);\n\n"
	"\tif (r == 0 && st.exception != BINDERC_EX_NONE)\n"
	"\t\tr = st.exception == BINDERC_EX_SERVICE_SPECIFIC && st.service_error > 0 ? st.service_error : -EREMOTEIO;\n"
	"\tbc_status_clear(&st);\n\treturn r;\n}\n\n"
	"BCAIDL_HELPER int bcaidl_write_service_error(bc_parcel *p, int code)\n"
	"{\n\tbc_status st = BINDERC_STATUS_INIT;\n\tint r = bc_status_set_service_error(&st, code, NULL);\n\n"
	"\tif (r == 0)\n\t\tr = bc_parcel_write_status(p, &st);\n\tbc_status_clear(&st);\n\treturn r;\n}\n\n"
	"/* A stub answers a request it cannot decode with BAD_VALUE. */\n"
	"BCAIDL_HELPER int bcaidl_bad_request(int r)\n"
	"{\n\treturn r == -ENOMEM ? r : -EINVAL;\n}\n\n";

static const char *const array_fns[][2] = {
	{ "bool", "bool" }, { "char", "uint16_t" }, { "int32", "int32_t" },
	{ "int64", "int64_t" }, { "float", "float" }, { "double", "double" },
};

void gen_helpers(FILE *f)
{
	fputs(helpers, f);
	for (size_t i = 0; i < sizeof(array_fns) / sizeof(array_fns[0]); i++) {
		const char *fn = array_fns[i][0], *t = array_fns[i][1];

		fprintf(f,
			"BCAIDL_HELPER int bcaidl_write_%s_array(bc_parcel *p, const %s *v, size_t n)\n"
			"{\n\tstatic const %s none[1];\n\n\tif (!v && n)\n\t\treturn -EINVAL;\n"
			"\treturn bc_parcel_write_%s_array(p, v ? v : none, n);\n}\n\n",
			fn, t, t, fn);
		fprintf(f,
			"BCAIDL_HELPER int bcaidl_read_%s_array(bc_parcel *p, %s **ret, size_t *ret_n)\n"
			"{\n\t%s *v = NULL;\n\tsize_t n = 0;\n\tint r = bc_parcel_read_%s_array(p, &v, &n);\n\n"
			"\tif (r < 0)\n\t\treturn r;\n\tif (!v)\n\t\treturn -EBADMSG;\n"
			"\t*ret = v;\n\t*ret_n = n;\n\treturn 0;\n}\n\n",
			fn, t, t, fn);
	}
}
