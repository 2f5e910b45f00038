/* Who holds a responder's port: the process, as `ss -ltnp` names it, and
 * which netprobe answers there, so that serve and the mesh name each
 * other when one finds the other on its port (issue 44). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kernel/sockowner.h"
#include "serve/serve.h"
#include "wire/client.h"
#include "wire/proto_msg.h"

#define HOLDER_HELLO_US 1000000LL

/* The address to say HELLO to: the bind address, else the holder's own
 * when it listens on one, else loopback. */
static const char *hello_addr(const char *bind, const struct sock_owner *o)
{
	if (bind != NULL)
		return bind;
	if (o->addr[0] == '\0' || strcmp(o->addr, "0.0.0.0") == 0 ||
	    strcmp(o->addr, "::") == 0)
		return "127.0.0.1";
	return o->addr;
}

/* See serve.h. */
enum serve_holder serve_holder_find(const char *bind, unsigned port, char *who,
                                    size_t len)
{
	struct sock_owner o;
	struct sysroot sr;
	struct np_client c;
	enum serve_holder k = SERVE_HOLDER_UNKNOWN;
	const char *what = NULL;
	char pid[32] = "";

	memset(&o, 0, sizeof(o));
	if (sysroot_init(&sr, NULL) < 0 ||
	    sockowner_find(&sr, (uint16_t)port, &o) != 0)
		memset(&o, 0, sizeof(o));
	if (o.pid > 0) {
		snprintf(pid, sizeof(pid), "pid %d", o.pid);
		k = SERVE_HOLDER_OTHER;
	}
	if (client_open(&c, hello_addr(bind, &o), port, HOLDER_HELLO_US,
	                NULL) == 0) {
		bool mesh =
		    c.hello.flags & (PROTO_HELLO_MESH | PROTO_HELLO_MEMBER);

		k = mesh ? SERVE_HOLDER_MESH : SERVE_HOLDER_SERVE;
		what = mesh ? "netprobe mesh" : "netprobe serve";
	}
	client_close(&c);
	if (what != NULL)
		snprintf(who, len, "%s%s%s%s", what, pid[0] ? " (" : "", pid,
		         pid[0] ? ")" : "");
	else if (o.pid > 0)
		snprintf(who, len, "%s (%s)", o.comm[0] ? o.comm : "a process",
		         pid);
	else
		snprintf(who, len, "%s", "");
	return k;
}
