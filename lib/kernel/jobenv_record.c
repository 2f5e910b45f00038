/* A recorded node's environment: proc/self/environ of a sysroot, read
 * instead of the live process's when a recorded tree is replayed. */
#include "kernel/jobenv.h"

#include <errno.h>
#include <string.h>

#include "base/sysroot.h"

/* The file as the kernel writes it; a last entry without its NUL (a
 * file cut short) still counts. */
int env_record_read(const struct sysroot *sr, struct env_record *r)
{
	ssize_t n = sysroot_read(sr, ENV_RECORD_PATH, r->buf, sizeof(r->buf));

	if (n < 0) {
		int e = errno;

		r->len = 0;
		r->buf[0] = '\0';
		errno = e;
		return -1;
	}
	r->len = (size_t)n;
	return 0;
}

/* The first entry NAME=... wins, as getenv(3) finds it. */
const char *env_record_get(const struct env_record *r, const char *name)
{
	size_t nl = strlen(name), off = 0;

	if (nl == 0 || r->len > sizeof(r->buf) - 1)
		return NULL;
	while (off < r->len) {
		const char *e = r->buf + off;
		size_t el = strnlen(e, r->len - off);

		if (el > nl && memcmp(e, name, nl) == 0 && e[nl] == '=')
			return e + nl + 1;
		off += el + 1;
	}
	return NULL;
}

/* env_record_get in the shape scan_env_fill takes. */
static const char *record_get(const char *name, void *ctx)
{
	return env_record_get(ctx, name);
}

/* The scan's settings as the recorded process saw them. */
void scan_env_from_record(const struct env_record *r, struct scan_env *e)
{
	scan_env_fill(e, record_get, (void *)r);
}
