/* netprobe mesh's held ports: before training nothing listens yet on the
 * ports a job will use (--ports), so each node's responder holds the ones
 * that are free, and peers test the path and its firewalls, not whether a
 * service runs. A port another process holds already is named with its
 * process, as `ss -ltnp` names it. */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/sockinfo.h"
#include "mesh/mesh_int.h"
#include "probe/portspec.h"

/* A listener on port, dual-stack where IPv6 is there. Returns the fd, -2
 * when the port is in use, or -1 with errno. */
static int hold_one(uint16_t port)
{
	int fams[2] = {AF_INET6, AF_INET};

	for (int k = 0; k < 2; k++) {
		struct sockaddr_storage ss = {0};
		socklen_t sl;
		int fd, one = 1, zero = 0, e;

		if (fams[k] == AF_INET6) {
			struct sockaddr_in6 *s6 = (void *)&ss;

			s6->sin6_family = AF_INET6;
			s6->sin6_port = htons(port);
			sl = sizeof(*s6);
		} else {
			struct sockaddr_in *s4 = (void *)&ss;

			s4->sin_family = AF_INET;
			s4->sin_port = htons(port);
			sl = sizeof(*s4);
		}
		fd = socket(fams[k], SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		            0);
		if (fd < 0)
			continue; /* no IPv6 here: IPv4 */
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (fams[k] == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero,
			           sizeof(zero));
		if (bind(fd, (struct sockaddr *)&ss, sl) == 0 &&
		    listen(fd, 1024) == 0)
			return fd;
		e = errno;
		close(fd);
		if (e == EADDRINUSE)
			return -2;
		errno = e;
	}
	return -1;
}

/* True when port is held or known taken already. */
static bool known(const struct mesh *ms, uint16_t port)
{
	size_t n = atomic_load(&ms->nheld);

	for (size_t i = 0; i < n; i++)
		if (ms->held_ports[i] == port)
			return true;
	for (size_t i = 0; i < ms->ntaken; i++)
		if (ms->taken[i].port == port)
			return true;
	for (size_t i = 0; i < ms->nsamples; i++)
		if (ms->sample_ports[i] == port)
			return true;
	return port == ms->port;
}

/* See mesh_int.h. */
void mesh_hold_ports(struct mesh *ms, const char *spec)
{
	struct port_list pl;
	struct portspec_err e;
	struct sysroot sr;

	if (spec == NULL || *spec == '\0')
		return;
	port_list_init(&pl);
	if (portspec_parse(spec, &pl, &e) < 0 || sysroot_init(&sr, NULL) < 0)
		goto out;
	for (size_t i = 0; i < pl.n; i++) {
		const struct port_req *r = &pl.v[i];
		size_t nh = atomic_load(&ms->nheld);
		int fd;

		if (r->proto != IPPROTO_TCP || (r->flags & PSPEC_F_SAMPLE) ||
		    known(ms, r->port))
			continue;
		if (nh >= MESH_HOLD_MAX || ms->ntaken >= MESH_HOLD_MAX) {
			ms->hold_over = true;
			break;
		}
		fd = hold_one(r->port);
		if (fd >= 0) {
			ms->held_fds[nh] = fd;
			ms->held_ports[nh] = r->port;
			/* the responder's thread reads nheld, then the fd */
			atomic_store(&ms->nheld, nh + 1);
		} else if (fd == -2) {
			struct mesh_taken *t = &ms->taken[ms->ntaken++];

			t->port = r->port;
			if (sockowner_find(&sr, r->port, &t->o) != 0)
				memset(&t->o, 0, sizeof(t->o));
		}
	}
out:
	port_list_free(&pl);
}

/* See mesh_int.h. */
void mesh_hold_accept(struct mesh *ms)
{
	size_t n = atomic_load(&ms->nheld);

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 64; k++) {
			int fd =
			    accept4(ms->held_fds[i], NULL, NULL, SOCK_CLOEXEC);

			if (fd < 0)
				break;
			close(fd);
		}
}

/* See mesh_int.h. */
void mesh_hold_close(struct mesh *ms)
{
	size_t n = atomic_load(&ms->nheld);

	for (size_t i = 0; i < n; i++)
		close(ms->held_fds[i]);
	atomic_store(&ms->nheld, 0);
}

/* See mesh_int.h. */
json_t *mesh_hold_json(const struct mesh *ms)
{
	json_t *held = json_array(), *taken = json_array();
	size_t n = atomic_load(&ms->nheld);

	for (size_t i = 0; held != NULL && i < n; i++)
		json_array_append_new(held, json_integer(ms->held_ports[i]));
	for (size_t i = 0; taken != NULL && i < ms->ntaken; i++) {
		const struct mesh_taken *t = &ms->taken[i];

		json_array_append_new(
		    taken,
		    json_pack(
		        "{s:i, s:o, s:o, s:o}", "port", (int)t->port, "pid",
		        t->o.pid ? json_integer(t->o.pid) : json_null(),
		        "process",
		        t->o.comm[0] ? json_string(t->o.comm) : json_null(),
		        "address",
		        t->o.addr[0] ? json_string(t->o.addr) : json_null()));
	}
	return json_pack("{s:o, s:o, s:b}", "held", held, "taken", taken,
	                 "truncated", ms->hold_over);
}
