/* Slurm host lists expanded as `scontrol show hostnames` does: ranges in
 * brackets, zero padding as wide as the lower bound, suffixes after the
 * bracket, several bracket groups as their product. */
#include "kernel/hostlist.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The growing result of one expansion. */
struct hl_out {
	char **v;
	size_t n, cap;
	char *err;
	size_t errlen;
};

static int hl_fail(struct hl_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Formats the error and returns -1. */
static int hl_fail(struct hl_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->err, o->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Appends a copy of name. Returns 0, or -1 (too many, no memory). */
static int hl_push(struct hl_out *o, const char *name, size_t len)
{
	if (o->n >= HOSTLIST_MAX)
		return hl_fail(o, "more than %d hosts in the list",
		               HOSTLIST_MAX);
	if (len > HOSTLIST_NAME_MAX)
		return hl_fail(o, "host name '%.40s...' longer than %d bytes",
		               name, HOSTLIST_NAME_MAX);
	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 16;
		char **v = realloc(o->v, cap * sizeof(*v));

		if (v == NULL)
			return hl_fail(o, "out of memory");
		o->v = v;
		o->cap = cap;
	}
	o->v[o->n] = strndup(name, len);
	if (o->v[o->n] == NULL)
		return hl_fail(o, "out of memory");
	o->n++;
	return 0;
}

/* Reads an unsigned decimal at *p (at most 9 digits). Returns the digit
 * count, 0 when there is none. */
static size_t hl_num(const char **p, unsigned long *v)
{
	size_t k = 0;

	*v = 0;
	while (**p >= '0' && **p <= '9' && k < 9) {
		*v = *v * 10 + (unsigned long)(**p - '0');
		(*p)++;
		k++;
	}
	return k;
}

static int hl_expand(struct hl_out *o, const char *pfx, size_t plen,
                     const char *rest, size_t rlen, const char *entry);

/* Expands one bracket group (body of blen bytes, between '[' and ']')
 * for every number: prefix + number + the expansion of what follows. */
static int hl_group(struct hl_out *o, const char *pfx, size_t plen,
                    const char *body, size_t blen, const char *rest,
                    size_t rlen, const char *entry)
{
	const char *p = body, *end = body + blen;
	char buf[HOSTLIST_NAME_MAX + 16];

	if (plen > HOSTLIST_NAME_MAX)
		return hl_fail(o, "host name in '%.60s' longer than %d bytes",
		               entry, HOSTLIST_NAME_MAX);
	memcpy(buf, pfx, plen);
	while (p < end) {
		unsigned long lo, hi;
		size_t width = hl_num(&p, &lo);

		if (width == 0)
			return hl_fail(o,
			               "bad range in '%.60s': expected a "
			               "number",
			               entry);
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			if (hl_num(&p, &hi) == 0)
				return hl_fail(o,
				               "bad range in '%.60s': expected "
				               "a number after '-'",
				               entry);
			if (hi < lo)
				return hl_fail(o,
				               "bad range in '%.60s': %lu-%lu "
				               "runs backwards",
				               entry, lo, hi);
		}
		if (p < end && *p != ',')
			return hl_fail(o,
			               "bad range in '%.60s': unexpected "
			               "'%c'",
			               entry, *p);
		if (p < end)
			p++;
		if (hi - lo >= HOSTLIST_MAX)
			return hl_fail(o,
			               "range %lu-%lu in '%.60s' holds more "
			               "than %d hosts",
			               lo, hi, entry, HOSTLIST_MAX);
		for (unsigned long v = lo; v <= hi; v++) {
			int k = snprintf(buf + plen, sizeof(buf) - plen,
			                 "%0*lu", (int)width, v);

			if (hl_expand(o, buf, plen + (size_t)k, rest, rlen,
			              entry) < 0)
				return -1;
		}
	}
	return 0;
}

/* Expands prefix + rest, where rest may hold more bracket groups. */
static int hl_expand(struct hl_out *o, const char *pfx, size_t plen,
                     const char *rest, size_t rlen, const char *entry)
{
	const char *open = memchr(rest, '[', rlen), *close;
	char buf[2 * HOSTLIST_NAME_MAX + 2];
	size_t head;

	if (open == NULL) {
		if (plen + rlen > HOSTLIST_NAME_MAX)
			return hl_fail(o,
			               "host name in '%.60s' longer than "
			               "%d bytes",
			               entry, HOSTLIST_NAME_MAX);
		memcpy(buf, pfx, plen);
		memcpy(buf + plen, rest, rlen);
		return hl_push(o, buf, plen + rlen);
	}
	close = memchr(open, ']', rlen - (size_t)(open - rest));
	if (close == NULL)
		return hl_fail(o, "unbalanced '[' in '%.60s'", entry);
	head = (size_t)(open - rest);
	if (plen + head > HOSTLIST_NAME_MAX)
		return hl_fail(o, "host name in '%.60s' longer than %d bytes",
		               entry, HOSTLIST_NAME_MAX);
	memcpy(buf, pfx, plen);
	memcpy(buf + plen, rest, head);
	return hl_group(o, buf, plen + head, open + 1,
	                (size_t)(close - open - 1), close + 1,
	                rlen - (size_t)(close + 1 - rest), entry);
}

/* See hostlist.h. */
int hostlist_expand(const char *list, char ***names, size_t *n, char *err,
                    size_t errlen)
{
	struct hl_out o = {NULL, 0, 0, err, errlen};
	const char *p = list;

	*names = NULL;
	*n = 0;
	if (errlen > 0)
		err[0] = '\0';
	while (p != NULL && *p != '\0') {
		const char *q = p;
		int depth = 0;
		char entry[HOSTLIST_NAME_MAX + 1];

		/* an entry ends at a comma outside brackets */
		while (*q != '\0' && (depth > 0 || *q != ',')) {
			if (*q == '[')
				depth++;
			else if (*q == ']' && --depth < 0)
				break;
			q++;
		}
		snprintf(entry, sizeof(entry), "%.*s", (int)(q - p), p);
		if (depth != 0 || *q == ']') {
			hl_fail(&o, "unbalanced '%c' in '%.60s'",
			        depth > 0 ? '[' : ']', entry);
			goto fail;
		}
		for (const char *c = p; c < q; c++)
			if (*c <= ' ' || *c > '~') {
				hl_fail(&o, "invalid character in '%.60s'",
				        entry);
				goto fail;
			}
		if (q > p &&
		    hl_expand(&o, "", 0, p, (size_t)(q - p), entry) < 0)
			goto fail;
		p = *q == ',' ? q + 1 : q;
	}
	*names = o.v;
	*n = o.n;
	return 0;
fail:
	hostlist_free(o.v, o.n);
	return -1;
}

/* See hostlist.h. */
void hostlist_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
