/* Next hops' neighbour states, read until they settle (nhsettle.h). */
#include "probe/nhsettle.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/neighbour.h>

#include "base/monoclock.h"
#include "kernel/neigh.h"

/* Between two reads of the table. */
#define NH_STEP_NS 100000000L

/* One datagram to gateway gw's discard port (9), out of interface ifname
 * where one is named, so the kernel resolves gw's link-layer address.
 * Failures are ignored: the read after says what happened. */
static void nudge(int family, const unsigned char *gw, const char *ifname)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons(9);
		memcpy(&s4->sin_addr, gw, 4);
		sl = sizeof(*s4);
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(9);
		memcpy(&s6->sin6_addr, gw, 16);
		sl = sizeof(*s6);
	}
	if (ifname[0] != '\0')
		(void)setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname,
		                 (socklen_t)strlen(ifname) + 1);
	(void)sendto(fd, "", 0, MSG_DONTWAIT, (struct sockaddr *)&ss, sl);
	close(fd);
}

/* True while an entry is still being resolved or confirmed. */
static bool unsettled(const struct route_nexthop *h)
{
	return !h->neigh_read ||
	       (h->neigh & (NUD_INCOMPLETE | NUD_DELAY | NUD_PROBE)) != 0;
}

/* See nhsettle.h. */
int nh_settle(struct route_info *r, long long deadline_us)
{
	unsigned char gw[ROUTE_NH_MAX][16];
	bool ok[ROUTE_NH_MAX] = {false}, nudged[ROUTE_NH_MAX] = {false};

	for (size_t i = 0; i < r->nnh; i++)
		ok[i] = r->nh[i].gateway[0] != '\0' &&
		        inet_pton(r->family, r->nh[i].gateway, gw[i]) == 1;
	for (int round = 0; round < 200; round++) {
		bool wait = false;

		for (size_t i = 0; i < r->nnh; i++) {
			struct route_nexthop *h = &r->nh[i];
			struct neigh_entry e;
			int got;

			if (!ok[i])
				continue;
			if ((got = neigh_get(r->family, gw[i], h->oif, &e)) < 0)
				return -1;
			h->neigh_read = got == 1;
			h->neigh = got == 1 ? e.state : 0;
			if (got == 0 && !nudged[i]) {
				nudge(r->family, gw[i], h->ifname);
				nudged[i] = true;
			}
			if (unsettled(h))
				wait = true;
		}
		if (!wait || mono_now_us() + NH_STEP_NS / 1000 > deadline_us)
			break;
		nanosleep(&(struct timespec){0, NH_STEP_NS}, NULL);
	}
	return 0;
}
