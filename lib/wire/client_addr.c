/* Where the responder is: "HOST[:PORT]" specs, name resolution, and the
 * numeric form of an address for messages. No socket is opened here. */
#include "wire/client.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include "base/hostport.h"
#include "wire/client_conn.h"

/* base/hostport.h's parser, worded as the client's errors; see client.h. */
int client_parse_peer(const char *spec, unsigned def_port, char *host,
                      size_t hostlen, unsigned *port, char *err, size_t errlen)
{
	const char *why, *bad;
	int rc = hostport_parse(spec, def_port, host, hostlen, port, &why,
	                        &bad);

	if (rc == HOSTPORT_OK)
		return 0;
	if (spec == NULL || *spec == '\0')
		snprintf(err, errlen, "empty peer");
	else if (rc == HOSTPORT_E_PORT)
		snprintf(err, errlen, "invalid port '%s'", bad);
	else
		snprintf(err, errlen, "invalid peer '%s': %s", spec, why);
	return -1;
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
