/* netprobe mesh, the rendezvous's guard on node 0 (issue 45): a join
 * that has not proved the token is dropped past its deadline, past the
 * count of such joins (the oldest first) and, while node 0 is short of
 * descriptors, once it waited a second, so that unauthenticated
 * connections cannot take the descriptors a member needs; node 0 says
 * when it ran short. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "mesh/mesh_rdv.h"

/* See mesh_int.h: a descriptor duplicated and closed, two system calls,
 * so it is cheap enough for every turn of a loop. */
bool mesh_rdv_fds_short(struct mesh *ms, unsigned long long *limit)
{
	struct rlimit rl;
	int fd;
	long lowest;

	if (ms->rdv == NULL || ms->rdv->wake[0] < 0)
		return false;
	fd = fcntl(ms->rdv->wake[0], F_DUPFD_CLOEXEC, 0);
	if (fd < 0 && errno != EMFILE && errno != ENFILE)
		return false;
	lowest = fd;
	if (fd >= 0)
		close(fd);
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		rl.rlim_cur = 0;
	if (limit != NULL)
		*limit = (unsigned long long)rl.rlim_cur;
	return rdv_fds_short(lowest, (unsigned long long)rl.rlim_cur);
}

/* Drops c, which has not proved the token: told why in one try, its
 * descriptor freed now rather than after a flush. */
static void drop(struct mesh *ms, struct rdv_conn *c, const char *why)
{
	rdv_conn_refuse(c, PROTO_E_DROPPED, why);
	rdv_conn_write(ms, c);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->st = RC_DEAD;
}

/* See mesh_rdv.h. */
void rdv_guard(struct mesh *ms)
{
	struct mesh_rdv *r = ms->rdv;
	long long now = mono_now_us();
	bool fds = mesh_rdv_fds_short(ms, &r->fd_limit);

	if (fds) {
		if (r->fds_short++ == 0)
			cmd_note(&ms->run,
			         "node 0 is short of file descriptors (limit "
			         "%llu): the oldest joins that have not proved "
			         "the token are dropped; raise its limit "
			         "(ulimit -n)",
			         r->fd_limit);
		r->fds_short_joining |= !r->started;
	}
	if (r->capunauth < r->nc) {
		void *v = realloc(r->unauth, r->nc * sizeof(*r->unauth));

		if (v == NULL)
			return;
		r->unauth = v;
		r->capunauth = r->nc;
	}
	for (size_t i = 0; i < r->nc; i++)
		r->unauth[i] = (struct rdv_unauth){r->c[i]->st == RC_NEW ||
		                                       r->c[i]->st == RC_AUTH,
		                                   r->c[i]->since_us};
	for (size_t k = 0; k < r->nc; k++) {
		ssize_t v = rdv_unauth_victim(r->unauth, r->nc, now, fds);

		if (v < 0)
			break;
		r->unauth[v].unauth = false;
		if (now - r->c[v]->since_us >= RDV_UNAUTH_US) {
			r->unauth_late++;
			drop(ms, r->c[v], "did not prove the token within 5 s");
		} else if (fds &&
		           now - r->c[v]->since_us >= RDV_UNAUTH_SHORT_US) {
			r->unauth_fds++;
			drop(ms, r->c[v],
			     "node 0 is short of file descriptors");
			fds = mesh_rdv_fds_short(ms, NULL);
		} else {
			r->unauth_over++;
			drop(ms, r->c[v],
			     "too many joins wait on the token; the oldest "
			     "is dropped");
		}
	}
}

/* See mesh_int.h. */
json_t *mesh_rdv_guard_json(const struct mesh *ms)
{
	const struct mesh_rdv *r = ms->rdv;

	if (r == NULL)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:i, s:i}",
	                 "unauthenticated_late", (json_int_t)r->unauth_late,
	                 "unauthenticated_over", (json_int_t)r->unauth_over,
	                 "unauthenticated_fds", (json_int_t)r->unauth_fds,
	                 "fds_short", (json_int_t)r->fds_short, "fd_limit",
	                 (json_int_t)r->fd_limit, "token_s",
	                 (int)(RDV_UNAUTH_US / 1000000), "unauthenticated_max",
	                 RDV_UNAUTH_MAX);
}
