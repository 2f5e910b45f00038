/* The membership of a job of one process per node, from --hosts or the
 * launcher's variables, in the order hostlist.h gives. */
#include "kernel/hostlist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/launchenv.h"

#define MESH_SIZE_MAX HOSTLIST_MAX

/* See hostlist.h. */
const char *mesh_source_name(enum mesh_source s)
{
	switch (s) {
	case MESH_SRC_HOSTS:
		return "--hosts";
	case MESH_SRC_SLURM:
		return "Slurm";
	case MESH_SRC_TORCHRUN:
		return "torchrun-style variables";
	case MESH_SRC_OMPI:
		return "Open MPI";
	case MESH_SRC_PMIX:
		return "PMIx";
	default:
		return "none";
	}
}

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
	e->source = MESH_SRC_HOSTS;
	e->size = (int)e->nhosts;
	e->rank = -1;
	snprintf(e->vars, sizeof(e->vars), "--hosts");
	return 0;
}

/* Slurm: the step's node list (srun) or the job's, and SLURM_NODEID.
 * Returns 1 when used, 0 when Slurm did not start us, -1 on bad values. */
static int me_slurm(env_get_fn get, void *ctx, struct mesh_env *e,
                    char *err, size_t errlen)
{
	const struct launch_source *sl = &launch_sources[LAUNCH_SLURM_NODES];
	const char *var = sl->hosts[0];
	const char *list = launch_env_str(get, ctx, var);
	int r;

	if (list == NULL) {
		var = sl->hosts[1];
		list = launch_env_str(get, ctx, var);
	}
	if (list == NULL)
		return 0;
	r = launch_env_int(get, ctx, sl->rank, 0, MESH_SIZE_MAX - 1, &e->rank,
	           err, errlen);
	if (r <= 0)
		return r < 0 ? -1
		             : launch_fail(err, errlen,
		                       "%s is set but %s is not "
		                       "(run netprobe mesh under srun)",
		                       var, sl->rank);
	if (me_add_token(e, list, strlen(list), err, errlen) < 0)
		return -1;
	if (e->rank >= (int)e->nhosts)
		return launch_fail(err, errlen,
		               "%s=%d but %s names %zu nodes", sl->rank,
		               e->rank, var, e->nhosts);
	e->size = (int)e->nhosts;
	if (launch_env_int(get, ctx, sl->local_rank, 0, LAUNCH_SIZE_MAX,
	                   &e->local_rank, err, errlen) < 0)
		return -1;
	e->source = MESH_SRC_SLURM;
	snprintf(e->vars, sizeof(e->vars), "%s, %s", var, sl->rank);
	return 1;
}

/* MASTER_PORT when set. Returns 0, or -1 when invalid. */
static int me_port(env_get_fn get, void *ctx, struct mesh_env *e, char *err,
                   size_t errlen)
{
	int port = 0;

	if (launch_env_int(get, ctx, launch_sources[LAUNCH_TORCHRUN].port, 1,
	                   65535, &port, err, errlen) < 0)
		return -1;
	e->port = (unsigned)port;
	return 0;
}

/* torchrun-style: MASTER_ADDR with NODE_RANK and NNODES, else RANK and
 * WORLD_SIZE (a row of launchenv.h's table each, read whole). Returns 1
 * when used, 0 when absent, -1 on bad values. */
static int me_torchrun(env_get_fn get, void *ctx, struct mesh_env *e,
                       char *err, size_t errlen)
{
	enum launch_src src = LAUNCH_TORCH_NODES;
	const struct launch_source *t = &launch_sources[src];
	const char *addr = launch_env_str(get, ctx, t->node0);
	struct launch_vals v;
	int r;

	if (addr == NULL)
		return 0;
	if (launch_env_str(get, ctx, t->rank) == NULL ||
	    launch_env_str(get, ctx, t->size) == NULL) {
		src = LAUNCH_TORCHRUN;
		t = &launch_sources[src];
	}
	r = launch_read(get, ctx, src, MESH_SIZE_MAX, &v, err, errlen);
	if (r < 0)
		return -1;
	if (r == 0 || v.size < 0)
		return launch_fail(err, errlen,
		                   "%s is set but %s or %s is not (set "
		                   "NODE_RANK and NNODES, or RANK and "
		                   "WORLD_SIZE)",
		                   t->node0, t->rank, t->size);
	e->rank = v.rank;
	e->size = v.size;
	e->port = v.port > 0 ? (unsigned)v.port : 0;
	if (v.local_rank >= 0)
		e->local_rank = v.local_rank;
	snprintf(e->node0, sizeof(e->node0), "%s", addr);
	e->source = MESH_SRC_TORCHRUN;
	snprintf(e->vars, sizeof(e->vars), "%s, %s, %s", t->node0, t->rank,
	         t->size);
	return 1;
}

/* Open MPI, then PMIx: a rank and a size; node 0's address from
 * MASTER_ADDR when set. Returns 1 when used, 0 when absent, -1 bad. */
static int me_mpi(env_get_fn get, void *ctx, struct mesh_env *e, char *err,
                  size_t errlen)
{
	const struct launch_source *om = &launch_sources[LAUNCH_OMPI];
	const struct launch_source *px = &launch_sources[LAUNCH_PMIX];
	const struct launch_source *t = &launch_sources[LAUNCH_TORCHRUN];
	const char *addr = launch_env_str(get, ctx, t->node0);
	int r;

	r = launch_env_int(get, ctx, om->rank, 0, MESH_SIZE_MAX - 1, &e->rank,
	                   err, errlen);
	if (r < 0)
		return -1;
	if (r > 0) {
		e->source = MESH_SRC_OMPI;
		snprintf(e->vars, sizeof(e->vars), "%s, %s", om->rank,
		         om->size);
		if (launch_env_int(get, ctx, om->local_rank, 0,
		                   LAUNCH_SIZE_MAX, &e->local_rank, err,
		                   errlen) < 0)
			return -1;
	} else {
		r = launch_env_int(get, ctx, px->rank, 0, MESH_SIZE_MAX - 1,
		                   &e->rank, err, errlen);
		if (r <= 0)
			return r;
		e->source = MESH_SRC_PMIX;
		snprintf(e->vars, sizeof(e->vars), "%s, %s", px->rank,
		         launch_env_str(get, ctx, om->size) ? om->size
		                                            : t->size);
	}
	/* PMIx alone names no size mpirun would: Open MPI's, else torch's */
	r = launch_env_int(get, ctx, om->size, 1, MESH_SIZE_MAX, &e->size,
	                   err, errlen);
	if (r == 0 && e->source == MESH_SRC_PMIX)
		r = launch_env_int(get, ctx, t->size, 1, MESH_SIZE_MAX,
		                   &e->size, err, errlen);
	if (r < 0)
		return -1;
	if (r == 0)
		return launch_fail(err, errlen,
		                   "%s gives this process's rank but nothing "
		                   "gives the number of nodes: pass --hosts",
		                   e->source == MESH_SRC_OMPI ? om->rank
		                                              : px->rank);
	if (e->rank >= e->size)
		return launch_fail(err, errlen, "rank %d but only %d processes",
		                   e->rank, e->size);
	if (addr != NULL)
		snprintf(e->node0, sizeof(e->node0), "%s", addr);
	return me_port(get, ctx, e, err, errlen) < 0 ? -1 : 1;
}

/* See hostlist.h. */
int mesh_env_detect(env_get_fn get, void *ctx, const char *hosts_text,
                    const char *rendezvous, struct mesh_env *out, char *err,
                    size_t errlen)
{
	int r;

	memset(out, 0, sizeof(*out));
	out->rank = -1;
	if (hosts_text != NULL)
		r = me_hosts(out, hosts_text, err, errlen) < 0 ? -1 : 1;
	else if ((r = me_slurm(get, ctx, out, err, errlen)) == 0 &&
	         (r = me_torchrun(get, ctx, out, err, errlen)) == 0)
		r = me_mpi(get, ctx, out, err, errlen);
	if (r == 0)
		r = launch_fail(err, errlen,
		            "no membership: pass --hosts FILE|LIST, or run "
		            "under srun, mpirun or a launcher that sets "
		            "MASTER_ADDR, RANK and WORLD_SIZE");
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
		        "--rendezvous HOST[:PORT], --hosts, or set MASTER_ADDR",
		        out->vars, out->rank, out->size);
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
