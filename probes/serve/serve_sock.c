/* netprobe serve's addresses and sockets: names for logs, reflections of
 * addresses, and sockets bound to the serve address and a port. */
#include "serve/serve_sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "serve/serve_int.h"
#include "wire/client.h"

/* "addr:port" of a sockaddr, unmapping IPv4-mapped IPv6. */
void sv_sa_name(const struct sockaddr_storage *ss, char *out, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;

	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
			inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], a,
			          sizeof(a));
		else
			inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
		port = ntohs(s6->sin6_port);
	} else if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s4 = (const void *)ss;

		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
		port = ntohs(s4->sin_port);
	}
	snprintf(out, len, "%s:%u", a, port);
}

/* The reflection of an address: IPv4-mapped addresses go out as IPv4. */
void sv_reflect_of(const struct sockaddr_storage *ss,
                   struct proto_reflect_reply *r)
{
	memset(r, 0, sizeof(*r));
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		r->port = ntohs(s6->sin6_port);
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
			r->family = 4;
			memcpy(r->addr, &s6->sin6_addr.s6_addr[12], 4);
		} else {
			r->family = 6;
			memcpy(r->addr, &s6->sin6_addr, 16);
		}
	} else {
		const struct sockaddr_in *s4 = (const void *)ss;

		r->family = 4;
		r->port = ntohs(s4->sin_port);
		memcpy(r->addr, &s4->sin_addr, 4);
	}
}

/* A socket of the listening family bound to the serve address and port.
 * Returns the fd, or -1 with errno. */
int sv_bind_socket(struct server *s, int type, unsigned port)
{
	struct sockaddr_storage ss = {0};
	socklen_t sl;
	int fd, one = 1, zero = 0;

	if (s->o.bind) {
		char err[CLIENT_ERR_MAX];

		if (client_resolve(s->o.bind, port, type, &ss, &sl, err,
		                   sizeof(err)) < 0) {
			errno = EADDRNOTAVAIL;
			return -1;
		}
	} else if (s->family == AF_INET6) {
		struct sockaddr_in6 *s6 = (void *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_any;
		s6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (void *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_addr.s_addr = htonl(INADDR_ANY);
		s4->sin_port = htons((uint16_t)port);
		sl = sizeof(*s4);
	}
	fd = socket(ss.ss_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (type == SOCK_STREAM)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0 ||
	    (type == SOCK_STREAM && listen(fd, SERVE_BACKLOG) < 0)) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}
