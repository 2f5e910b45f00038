/* "HOST[:PORT]" split and joined (hostport.h). */
#include "base/hostport.h"

#include <stdio.h>
#include <string.h>

#include "base/parse.h"

/* Sets *why and returns code, for `return fail(...)`. */
static int hp_fail(const char **why, const char *msg, int code)
{
	*why = msg;
	return code;
}

/* See hostport.h. */
int hostport_parse(const char *spec, unsigned def_port, char *host,
                   size_t hostlen, unsigned *port, const char **why,
                   const char **bad)
{
	const char *colon, *pstr = NULL, *errstr;
	long long v;
	size_t n;

	if (bad != NULL)
		*bad = NULL;
	if (spec == NULL || *spec == '\0')
		return hp_fail(why, "empty", HOSTPORT_E_HOST);
	if (spec[0] == '[') {
		const char *end = strchr(spec, ']');

		if (end == NULL)
			return hp_fail(why, "missing ']'", HOSTPORT_E_HOST);
		if (end[1] == ':')
			pstr = end + 2;
		else if (end[1] != '\0')
			return hp_fail(why, "text after ']'", HOSTPORT_E_HOST);
		n = (size_t)(end - spec - 1);
		spec++;
	} else {
		colon = strchr(spec, ':');
		/* two colons or more: a bare IPv6 address, no port */
		if (colon != NULL && strchr(colon + 1, ':') == NULL)
			pstr = colon + 1;
		n = pstr != NULL ? (size_t)(colon - spec) : strlen(spec);
	}
	if (n == 0)
		return hp_fail(why, "no host", HOSTPORT_E_HOST);
	if (n >= hostlen)
		return hp_fail(why, "host too long", HOSTPORT_E_HOST);
	*port = def_port;
	if (pstr != NULL) {
		/* parse_num takes a sign; a port is digits only */
		if (*pstr == '+' ||
		    parse_num(pstr, 1, 65535, &v, &errstr) < 0) {
			if (bad != NULL)
				*bad = pstr;
			return hp_fail(why,
			               *pstr == '\0'  ? "no port after ':'"
			               : *pstr == '+' ? "not a number"
			                              : errstr,
			               HOSTPORT_E_PORT);
		}
		*port = (unsigned)v;
	}
	memcpy(host, spec, n);
	host[n] = '\0';
	return HOSTPORT_OK;
}

/* See hostport.h. */
int hostport_format(const char *host, unsigned port, char *buf, size_t len)
{
	int n = snprintf(buf, len, strchr(host, ':') ? "[%s]:%u" : "%s:%u",
	                 host, port);

	return n < 0 || (size_t)n >= len ? -1 : n;
}
