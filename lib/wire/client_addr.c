/* Where the responder is: "HOST[:PORT]" specs, name resolution, and the
 * numeric form of an address for messages. No socket is opened here. */
#include "wire/client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/client_conn.h"

/* Splits HOST[:PORT], [V6]:PORT or a bare IPv6 address; see client.h. */
int client_parse_peer(const char *spec, unsigned def_port, char *host,
                      size_t hostlen, unsigned *port, char *err, size_t errlen)
{
	const char *colon, *hend, *pstr = NULL;
	char *end;
	unsigned long v;
	size_t n;

	if (!spec || !*spec) {
		snprintf(err, errlen, "empty peer");
		return -1;
	}
	if (spec[0] == '[') {
		hend = strchr(spec, ']');
		if (!hend) {
			snprintf(err, errlen, "invalid peer '%s': missing ']'",
			         spec);
			return -1;
		}
		n = (size_t)(hend - spec - 1);
		spec++;
		if (hend[1] == ':')
			pstr = hend + 2;
		else if (hend[1] != '\0') {
			snprintf(err, errlen, "invalid peer '%s'", spec - 1);
			return -1;
		}
	} else {
		colon = strchr(spec, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL; /* a bare IPv6 address */
		n = colon ? (size_t)(colon - spec) : strlen(spec);
		pstr = colon ? colon + 1 : NULL;
	}
	if (n == 0 || n >= hostlen) {
		snprintf(err, errlen, "invalid peer '%s': bad host", spec);
		return -1;
	}
	memcpy(host, spec, n);
	host[n] = '\0';
	*port = def_port;
	if (pstr) {
		errno = 0;
		v = strtoul(pstr, &end, 10);
		if (!*pstr || *end || errno || v < 1 || v > 65535 ||
		    *pstr == '-' || *pstr == '+' || *pstr == ' ') {
			snprintf(err, errlen, "invalid port '%s'", pstr);
			return -1;
		}
		*port = (unsigned)v;
	}
	return 0;
}

/* getaddrinfo, first answer, retried without AI_ADDRCONFIG for
 * namespaces that have only loopback; see client.h. */
int client_resolve(const char *host, unsigned port, int socktype,
                   struct sockaddr_storage *ss, socklen_t *sslen, char *err,
                   size_t errlen)
{
	struct addrinfo hints = {0}, *res = NULL;
	char pbuf[8];
	int rc;

	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = socktype;
	hints.ai_flags = AI_ADDRCONFIG;
	snprintf(pbuf, sizeof(pbuf), "%u", port);
	rc = getaddrinfo(host, pbuf, &hints, &res);
	if (rc == EAI_ADDRFAMILY || rc == EAI_NONAME) {
		hints.ai_flags = 0; /* lab namespaces may lack addresses */
		rc = getaddrinfo(host, pbuf, &hints, &res);
	}
	if (rc != 0 || !res) {
		snprintf(err, errlen, "cannot resolve '%s': %s", host,
		         rc ? gai_strerror(rc) : "no address");
		return -1;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*sslen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* Numeric address and port of a sockaddr. */
void client_sa_format(const struct sockaddr_storage *ss, char *addr, size_t len,
                      unsigned *port)
{
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
			inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], addr,
			          (socklen_t)len);
		else
			inet_ntop(AF_INET6, &s6->sin6_addr, addr,
			          (socklen_t)len);
		if (port)
			*port = ntohs(s6->sin6_port);
	} else {
		const struct sockaddr_in *s4 = (const void *)ss;

		inet_ntop(AF_INET, &s4->sin_addr, addr, (socklen_t)len);
		if (port)
			*port = ntohs(s4->sin_port);
	}
}
