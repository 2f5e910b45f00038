/* The source address every client connection of this process binds,
 * when one is set: a mesh member living on its own loopback address
 * (netprobe mesh --bind) must be seen there by its peers. */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <stddef.h>
#include <string.h>

#include "wire/client.h"
#include "wire/client_conn.h"

static struct sockaddr_storage source;
static socklen_t source_len;

/* See client.h. */
int client_set_source(const char *addr)
{
	struct sockaddr_in *a4 = (struct sockaddr_in *)&source;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&source;

	memset(&source, 0, sizeof(source));
	source_len = 0;
	if (addr == NULL)
		return 0;
	if (inet_pton(AF_INET, addr, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		source_len = sizeof(*a4);
		return 0;
	}
	if (inet_pton(AF_INET6, addr, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		source_len = sizeof(*a6);
		return 0;
	}
	return -1;
}

/* See client_conn.h. */
int client_bind_source(int fd, int family)
{
	if (source_len == 0 || source.ss_family != family)
		return 0;
	return bind(fd, (const struct sockaddr *)&source, source_len);
}
