/* Prometheus's text exposition format: families, samples, histograms,
 * escaping, values, and the textfile collector's file written atomically
 * and removed. */
#include "base/promtext.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* See promtext.h. */
void prom_init(struct prom_buf *b)
{
	memset(b, 0, sizeof(*b));
}

/* See promtext.h. */
void prom_free(struct prom_buf *b)
{
	free(b->p);
	prom_init(b);
}

/* Makes room for n more bytes and the NUL. Returns 0, or -1 (oom). */
static int grow(struct prom_buf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->oom)
		return -1;
	if (b->len + n + 1 <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 1024;
	while (cap < b->len + n + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (p == NULL) {
		b->oom = true;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

/* Appends n bytes of s. */
static int put(struct prom_buf *b, const char *s, size_t n)
{
	if (grow(b, n) < 0)
		return -1;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

/* Appends a string. */
static int puts_(struct prom_buf *b, const char *s)
{
	return put(b, s, strlen(s));
}

/* Appends s escaped: backslash and newline always, the double quote
 * inside a label value only (HELP text keeps it, as the format says). */
static int put_esc(struct prom_buf *b, const char *s, bool quote)
{
	for (; *s; s++) {
		const char *e = NULL;

		if (*s == '\\')
			e = "\\\\";
		else if (*s == '\n')
			e = "\\n";
		else if (*s == '"' && quote)
			e = "\\\"";
		if (e ? puts_(b, e) : put(b, s, 1))
			return -1;
	}
	return 0;
}

/* See promtext.h. */
bool prom_name_ok(const char *name)
{
	if (name == NULL || *name == '\0' ||
	    (*name >= '0' && *name <= '9'))
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == ':'))
			return false;
	return true;
}

/* See promtext.h. */
bool prom_label_ok(const char *name)
{
	return prom_name_ok(name) && strchr(name, ':') == NULL &&
	       strncmp(name, "__", 2) != 0;
}

/* See promtext.h. */
int prom_family(struct prom_buf *b, const char *name, const char *type,
                const char *help)
{
	static const char *const types[] = {"counter", "gauge", "summary",
	                                    "histogram", "untyped"};
	bool known = false;

	for (size_t i = 0; type && i < sizeof(types) / sizeof(types[0]); i++)
		known |= strcmp(type, types[i]) == 0;
	if (!prom_name_ok(name) || !known) {
		b->bad = true;
		return -1;
	}
	if (puts_(b, "# HELP ") || puts_(b, name) || puts_(b, " ") ||
	    put_esc(b, help ? help : "", false) || puts_(b, "\n# TYPE ") ||
	    puts_(b, name) || puts_(b, " ") || puts_(b, type) ||
	    puts_(b, "\n"))
		return -1;
	return 0;
}

/* See promtext.h. */
int prom_metric(struct prom_buf *b, const char *name, const char *type,
                const char *help, const char *const *labels, double value)
{
	if (prom_family(b, name, type, help) < 0)
		return -1;
	return prom_sample(b, name, labels, value);
}

/* See promtext.h. */
char *prom_value(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "NaN");
	else if (isinf(v))
		snprintf(buf, len, "%s", v > 0 ? "+Inf" : "-Inf");
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		snprintf(buf, len, "%.0f", v);
	else
		for (int prec = 6; prec <= 17; prec++) {
			snprintf(buf, len, "%.*g", prec, v);
			if (strtod(buf, NULL) == v)
				break;
		}
	return buf;
}

/* See promtext.h. */
int prom_sample(struct prom_buf *b, const char *name,
                const char *const *labels, double value)
{
	char num[40];
	bool first = true;

	if (!prom_name_ok(name)) {
		b->bad = true;
		return -1;
	}
	if (puts_(b, name))
		return -1;
	for (size_t i = 0; labels != NULL && labels[i] != NULL; i += 2) {
		if (labels[i + 1] == NULL)
			continue;
		if (!prom_label_ok(labels[i])) {
			b->bad = true;
			return -1;
		}
		if (puts_(b, first ? "{" : ",") || puts_(b, labels[i]) ||
		    puts_(b, "=\"") || put_esc(b, labels[i + 1], true) ||
		    puts_(b, "\""))
			return -1;
		first = false;
	}
	if ((!first && puts_(b, "}")) || puts_(b, " ") ||
	    puts_(b, prom_value(value, num, sizeof(num))) || puts_(b, "\n"))
		return -1;
	return 0;
}

/* See promtext.h. */
int prom_histogram(struct prom_buf *b, const char *name,
                   const char *const *labels, const double *le,
                   const unsigned long long *count, size_t n, double sum,
                   unsigned long long total)
{
	const char *lab[2 * PROM_HIST_LABELS + 3];
	char sub[256], bound[40];
	unsigned long long cum = 0;
	size_t k = 0;

	for (; labels != NULL && labels[k] != NULL; k += 2)
		if (k >= 2 * PROM_HIST_LABELS || strcmp(labels[k], "le") == 0)
			goto bad;
	if (k > 0)
		memcpy(lab, labels, k * sizeof(lab[0]));
	lab[k] = "le";
	lab[k + 2] = NULL;
	if ((size_t)snprintf(sub, sizeof(sub), "%s_bucket", name) >=
	    sizeof(sub))
		goto bad;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(le[i]) || (i > 0 && le[i] <= le[i - 1]))
			goto bad;
		cum += count[i];
		lab[k + 1] = prom_value(le[i], bound, sizeof(bound));
		if (prom_sample(b, sub, lab, (double)cum) < 0)
			return -1;
	}
	if (total < cum)
		goto bad;
	lab[k + 1] = "+Inf";
	lab[k] = "le";
	if (prom_sample(b, sub, lab, (double)total) < 0)
		return -1;
	lab[k] = NULL;
	snprintf(sub, sizeof(sub), "%s_sum", name);
	if (prom_sample(b, sub, lab, sum) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s_count", name);
	return prom_sample(b, sub, lab, (double)total);
bad:
	b->bad = true;
	return -1;
}

/* Fills why like snprintf and keeps errno. */
static int fail(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t whylen, const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	errno = e;
	return -1;
}

/* The mode and owner the new file takes: an existing regular target's,
 * else 0644 (whatever the umask), so a rewrite never widens, narrows or
 * takes over a file an administrator set up. Owner: -1 when kept as is. */
static void target_attrs(const char *path, mode_t *mode, uid_t *uid,
                         gid_t *gid)
{
	struct stat st;

	*mode = 0644;
	*uid = (uid_t)-1;
	*gid = (gid_t)-1;
	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	*mode = st.st_mode & 07777;
	if (st.st_uid != geteuid())
		*uid = st.st_uid;
	if (st.st_gid != getegid())
		*gid = st.st_gid;
}

/* Gives fd the target's mode and, where this process may, its owner (only
 * root may give a file away; a group it is in it may keep). Returns 0, or
 * -1 with errno set. */
static int take_attrs(int fd, mode_t mode, uid_t uid, gid_t gid)
{
	if (fchmod(fd, mode) < 0)
		return -1;
	if (uid == (uid_t)-1 && gid == (gid_t)-1)
		return 0;
	if (fchown(fd, uid, gid) == 0)
		return 0;
	if (errno != EPERM)
		return -1;
	if (gid != (gid_t)-1 && fchown(fd, (uid_t)-1, gid) < 0 &&
	    errno != EPERM)
		return -1;
	return 0;
}

/* Writes all of text to fd and makes it durable. Returns 0, or -1 with
 * errno set. */
static int write_all(int fd, const char *text, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		off += (size_t)w;
	}
	return fsync(fd) < 0 && errno != EINVAL ? -1 : 0;
}

/* See promtext.h. */
int prom_textfile_write(const char *dir, const char *name, const char *text,
                        size_t len, char *why, size_t whylen)
{
	char path[4096], tmp[4096];
	mode_t mode;
	uid_t uid;
	gid_t gid;
	int fd, e = 0;

	if (*name == '\0' || strchr(name, '/') != NULL ||
	    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	        sizeof(path) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >=
	        sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return fail(why, whylen, "invalid textfile path '%s/%s'", dir,
		            name);
	}
	target_attrs(path, &mode, &uid, &gid);
	/* a name of its own, made with O_CREAT|O_EXCL: another writer's
	 * temporary file, or a link planted at a guessed name, is never
	 * opened, truncated or written through */
	fd = mkostemp(tmp, O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return fail(why, whylen, "cannot write '%s': %s", path,
		            strerror(errno));
	if (take_attrs(fd, mode, uid, gid) < 0 ||
	    write_all(fd, text, len) < 0)
		e = errno;
	if (close(fd) < 0 && e == 0)
		e = errno;
	if (e == 0 && rename(tmp, path) < 0)
		e = errno;
	if (e != 0) {
		unlink(tmp);
		errno = e;
		return fail(why, whylen, "cannot write '%s': %s", path,
		            strerror(e));
	}
	return 0;
}

/* See promtext.h. */
int prom_textfile_remove(const char *dir, const char *name, char *why,
                         size_t whylen)
{
	char path[4096];

	if (*name == '\0' || strchr(name, '/') != NULL ||
	    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	        sizeof(path)) {
		errno = ENAMETOOLONG;
		return fail(why, whylen, "invalid textfile path '%s/%s'", dir,
		            name);
	}
	if (unlink(path) < 0 && errno != ENOENT)
		return fail(why, whylen, "cannot remove '%s': %s", path,
		            strerror(errno));
	return 0;
}
