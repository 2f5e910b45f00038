/* The membership of a job of one process per node, from --hosts or the
 * launcher's variables, in the order hostlist.h gives. */
#include "kernel/hostlist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/launchenv.h"

#define MESH_SIZE_MAX HOSTLIST_MAX

/* Appends the names of one whitespace-separated token (a Slurm list). */
static int me_add_token(struct mesh_env *e, const char *tok, size_t len,
                        char *err, size_t errlen)
{
	char buf[4096], **v, **grown;
	size_t n;

	if (len >= sizeof(buf))
		return launch_fail(err, errlen, "host entry '%.40s...' too long",
		               tok);
	memcpy(buf, tok, len);
	buf[len] = '\0';
	if (hostlist_expand(buf, &v, &n, err, errlen) < 0)
		return -1;
	if (e->nhosts + n > HOSTLIST_MAX) {
		hostlist_free(v, n);
		return launch_fail(err, errlen, "more than %d hosts", HOSTLIST_MAX);
	}
	grown = realloc(e->hosts, (e->nhosts + n + 1) * sizeof(*grown));
	if (grown == NULL) {
		hostlist_free(v, n);
		return launch_fail(err, errlen, "out of memory");
	}
	e->hosts = grown;
	memcpy(e->hosts + e->nhosts, v, n * sizeof(*v));
	e->nhosts += n;
	free(v);
	return 0;
}

/* --hosts: tokens separated by blanks, newlines (or commas, which the
 * list syntax splits), '#' to the end of a line a comment. */
static int me_hosts(struct mesh_env *e, const char *text, char *err,
                    size_t errlen)
{
	const char *p = text;

	while (*p != '\0') {
		const char *q;

		if (*p == '#') {
			while (*p != '\0' && *p != '\n')
				p++;
			continue;
		}
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			p++;
			continue;
		}
		q = p;
		while (*q != '\0' && *q != ' ' && *q != '\t' && *q != '\n' &&
		       *q != '\r' && *q != '#')
			q++;
		if (me_add_token(e, p, (size_t)(q - p), err, errlen) < 0)
			return -1;
		p = q;
	}
	if (e->nhosts == 0)
		return launch_fail(err, errlen, "--hosts names no host");
	e->src = LAUNCH_NSRC;
	e->source = "--hosts";
	e->size = (int)e->nhosts;
	e->rank = -1;
	snprintf(e->vars, sizeof(e->vars), "--hosts");
	return 0;
}

/* What the launcher said (launchenv.c reads it), into e: Slurm's node
 * list expanded, the others' size. Returns 1 used, 0 no launcher, -1 bad
 * values or a rank past the list. */
static int me_launcher(env_get_fn get, void *ctx, struct mesh_env *e,
                       char *err, size_t errlen)
{
	struct launch_node n;
	int r = launch_detect_node(get, ctx, MESH_SIZE_MAX, &n, err, errlen);

	if (r <= 0)
		return r;
	e->rank = n.rank;
	if (n.hosts != NULL) {
		if (me_add_token(e, n.hosts, strlen(n.hosts), err, errlen) < 0)
			return -1;
		if (e->rank >= (int)e->nhosts)
			return launch_fail(err, errlen,
			                   "%s=%d but %s names %zu nodes",
			                   launch_sources[n.src].rank, e->rank,
			                   n.hosts_var, e->nhosts);
		e->size = (int)e->nhosts;
	} else {
		e->size = n.size;
	}
	e->local_rank = n.local_rank;
	e->port = n.port;
	if (n.node0 != NULL)
		snprintf(e->node0, sizeof(e->node0), "%s", n.node0);
	e->src = n.src;
	e->source = launch_sources[n.src].label;
	snprintf(e->vars, sizeof(e->vars), "%s", n.vars);
	return 1;
}

/* See hostlist.h. */
int mesh_env_detect(env_get_fn get, void *ctx, const char *hosts_text,
                    const char *rendezvous, struct mesh_env *out, char *err,
                    size_t errlen)
{
	const struct launch_source *t = &launch_sources[LAUNCH_TORCHRUN];
	int r;

	memset(out, 0, sizeof(*out));
	out->rank = -1;
	out->src = LAUNCH_NSRC;
	out->source = "none";
	if (hosts_text != NULL)
		r = me_hosts(out, hosts_text, err, errlen) < 0 ? -1 : 1;
	else
		r = me_launcher(get, ctx, out, err, errlen);
	if (r == 0)
		r = launch_fail(err, errlen,
		            "no membership: pass --hosts FILE|LIST, or run "
		            "under srun, mpirun or a launcher that sets "
		            "%s, %s and %s", t->node0, t->rank, t->size);
	if (r < 0) {
		mesh_env_free(out);
		return -1;
	}
	if (rendezvous != NULL && *rendezvous != '\0')
		snprintf(out->node0, sizeof(out->node0), "%s", rendezvous);
	else if (out->nhosts > 0 && out->node0[0] == '\0')
		snprintf(out->node0, sizeof(out->node0), "%s", out->hosts[0]);
	if (out->node0[0] == '\0') {
		launch_fail(err, errlen,
		        "%s gives rank %d of %d but not node 0's address: pass "
		        "--rendezvous HOST[:PORT], --hosts, or set %s",
		        out->vars, out->rank, out->size, t->node0);
		mesh_env_free(out);
		return -1;
	}
	return 0;
}

/* See hostlist.h. */
void mesh_env_free(struct mesh_env *e)
{
	hostlist_free(e->hosts, e->nhosts);
	e->hosts = NULL;
	e->nhosts = 0;
}
