/* Interfaces of a recorded sysroot: /sys/class/net, /proc/net/if_inet6,
 * /proc/net/fib_trie and /proc/net/route, in the kernel's own formats. */
#include "nl.h"

#include <errno.h>

int iface_replay(struct iface_list *out, const struct sysroot *sr)
{
	(void)out;
	(void)sr;
	errno = ENOSYS;
	return -1;
}

int route_defaults_replay(const struct sysroot *sr, struct route_info *out,
			  size_t max, size_t *n)
{
	(void)sr;
	(void)out;
	(void)max;
	*n = 0;
	errno = ENOSYS;
	return -1;
}
