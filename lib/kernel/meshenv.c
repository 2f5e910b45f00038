/* The membership of a job of one process per node, from --hosts or the
 * launcher's variables, in the order hostlist.h gives. */
#include "kernel/hostlist.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"

#define MESH_SIZE_MAX HOSTLIST_MAX

/* Ignores ctx; reads the process environment. */
const char *mesh_getenv_process(const char *name, void *ctx)
{
	(void)ctx;
	return getenv(name);
}

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

static int me_fail(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Formats the reason and returns -1. */
static int me_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* The value of name when set and not empty, else NULL. */
static const char *me_get(mesh_getenv_fn get, void *ctx, const char *name)
{
	const char *v = get(name, ctx);

	return v != NULL && *v != '\0' ? v : NULL;
}

/* Reads integer variable name in [lo, hi] into *out: 1 set and valid, 0
 * unset, -1 invalid (err filled). */
static int me_int(mesh_getenv_fn get, void *ctx, const char *name, long long lo,
                  long long hi, int *out, char *err, size_t errlen)
{
	const char *s = me_get(get, ctx, name), *why;
	long long v;

	if (s == NULL)
		return 0;
	if (parse_num(s, lo, hi, &v, &why) < 0)
		return me_fail(err, errlen, "%s='%.40s': %s", name, s, why);
	*out = (int)v;
	return 1;
}

/* Appends the names of one whitespace-separated token (a Slurm list). */
static int me_add_token(struct mesh_env *e, const char *tok, size_t len,
                        char *err, size_t errlen)
{
	char buf[4096], **v, **grown;
	size_t n;

	if (len >= sizeof(buf))
		return me_fail(err, errlen, "host entry '%.40s...' too long",
		               tok);
	memcpy(buf, tok, len);
	buf[len] = '\0';
	if (hostlist_expand(buf, &v, &n, err, errlen) < 0)
		return -1;
	if (e->nhosts + n > HOSTLIST_MAX) {
		hostlist_free(v, n);
		return me_fail(err, errlen, "more than %d hosts", HOSTLIST_MAX);
	}
	grown = realloc(e->hosts, (e->nhosts + n + 1) * sizeof(*grown));
	if (grown == NULL) {
		hostlist_free(v, n);
		return me_fail(err, errlen, "out of memory");
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
		return me_fail(err, errlen, "--hosts names no host");
	e->source = MESH_SRC_HOSTS;
	e->size = (int)e->nhosts;
	e->rank = -1;
	snprintf(e->vars, sizeof(e->vars), "--hosts");
	return 0;
}

/* Slurm: the step's node list (srun) or the job's, and SLURM_NODEID.
 * Returns 1 when used, 0 when Slurm did not start us, -1 on bad values. */
static int me_slurm(mesh_getenv_fn get, void *ctx, struct mesh_env *e,
                    char *err, size_t errlen)
{
	const char *var = "SLURM_STEP_NODELIST";
	const char *list = me_get(get, ctx, var);
	int r;

	if (list == NULL) {
		var = "SLURM_JOB_NODELIST";
		list = me_get(get, ctx, var);
	}
	if (list == NULL)
		return 0;
	r = me_int(get, ctx, "SLURM_NODEID", 0, MESH_SIZE_MAX - 1, &e->rank,
	           err, errlen);
	if (r <= 0)
		return r < 0 ? -1
		             : me_fail(err, errlen,
		                       "%s is set but SLURM_NODEID is not "
		                       "(run netprobe mesh under srun)",
		                       var);
	if (me_add_token(e, list, strlen(list), err, errlen) < 0)
		return -1;
	if (e->rank >= (int)e->nhosts)
		return me_fail(err, errlen,
		               "SLURM_NODEID=%d but %s names %zu nodes",
		               e->rank, var, e->nhosts);
	e->size = (int)e->nhosts;
	if (me_int(get, ctx, "SLURM_LOCALID", 0, 1 << 20, &e->local_rank, err,
	           errlen) < 0)
		return -1;
	e->source = MESH_SRC_SLURM;
	snprintf(e->vars, sizeof(e->vars), "%s, SLURM_NODEID", var);
	return 1;
}

/* MASTER_PORT when set. Returns 0, or -1 when invalid. */
static int me_port(mesh_getenv_fn get, void *ctx, struct mesh_env *e, char *err,
                   size_t errlen)
{
	int port = 0;

	if (me_int(get, ctx, "MASTER_PORT", 1, 65535, &port, err, errlen) < 0)
		return -1;
	e->port = (unsigned)port;
	return 0;
}

/* torchrun-style: MASTER_ADDR with NODE_RANK and NNODES, else RANK and
 * WORLD_SIZE. Returns 1 when used, 0 when absent, -1 on bad values. */
static int me_torchrun(mesh_getenv_fn get, void *ctx, struct mesh_env *e,
                       char *err, size_t errlen)
{
	const char *addr = me_get(get, ctx, "MASTER_ADDR");
	const char *rk = "NODE_RANK", *sz = "NNODES";
	int a, b;

	if (addr == NULL)
		return 0;
	if (me_get(get, ctx, rk) == NULL || me_get(get, ctx, sz) == NULL) {
		rk = "RANK";
		sz = "WORLD_SIZE";
	}
	a = me_int(get, ctx, rk, 0, MESH_SIZE_MAX - 1, &e->rank, err, errlen);
	b = a < 0
	        ? -1
	        : me_int(get, ctx, sz, 1, MESH_SIZE_MAX, &e->size, err, errlen);
	if (a < 0 || b < 0)
		return -1;
	if (a == 0 || b == 0)
		return me_fail(err, errlen,
		               "MASTER_ADDR is set but %s or %s is not "
		               "(set NODE_RANK and NNODES, or RANK and "
		               "WORLD_SIZE)",
		               rk, sz);
	if (e->rank >= e->size)
		return me_fail(err, errlen, "%s=%d but %s=%d", rk, e->rank, sz,
		               e->size);
	if (me_port(get, ctx, e, err, errlen) < 0 ||
	    me_int(get, ctx, "LOCAL_RANK", 0, 1 << 20, &e->local_rank, err,
	           errlen) < 0)
		return -1;
	snprintf(e->node0, sizeof(e->node0), "%s", addr);
	e->source = MESH_SRC_TORCHRUN;
	snprintf(e->vars, sizeof(e->vars), "MASTER_ADDR, %s, %s", rk, sz);
	return 1;
}

/* Open MPI, then PMIx: a rank and a size; node 0's address from
 * MASTER_ADDR when set. Returns 1 when used, 0 when absent, -1 bad. */
static int me_mpi(mesh_getenv_fn get, void *ctx, struct mesh_env *e, char *err,
                  size_t errlen)
{
	const char *addr = me_get(get, ctx, "MASTER_ADDR");
	int r;

	r = me_int(get, ctx, "OMPI_COMM_WORLD_RANK", 0, MESH_SIZE_MAX - 1,
	           &e->rank, err, errlen);
	if (r < 0)
		return -1;
	if (r > 0) {
		e->source = MESH_SRC_OMPI;
		snprintf(e->vars, sizeof(e->vars),
		         "OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE");
		if (me_int(get, ctx, "OMPI_COMM_WORLD_LOCAL_RANK", 0, 1 << 20,
		           &e->local_rank, err, errlen) < 0)
			return -1;
	} else {
		r = me_int(get, ctx, "PMIX_RANK", 0, MESH_SIZE_MAX - 1,
		           &e->rank, err, errlen);
		if (r <= 0)
			return r;
		e->source = MESH_SRC_PMIX;
		snprintf(e->vars, sizeof(e->vars), "PMIX_RANK, %s",
		         me_get(get, ctx, "OMPI_COMM_WORLD_SIZE")
		             ? "OMPI_COMM_WORLD_SIZE"
		             : "WORLD_SIZE");
	}
	r = me_int(get, ctx, "OMPI_COMM_WORLD_SIZE", 1, MESH_SIZE_MAX, &e->size,
	           err, errlen);
	if (r == 0 && e->source == MESH_SRC_PMIX)
		r = me_int(get, ctx, "WORLD_SIZE", 1, MESH_SIZE_MAX, &e->size,
		           err, errlen);
	if (r < 0)
		return -1;
	if (r == 0)
		return me_fail(err, errlen,
		               "%s gives this process's rank but nothing gives "
		               "the number of nodes: pass --hosts",
		               e->source == MESH_SRC_OMPI
		                   ? "OMPI_COMM_WORLD_RANK"
		                   : "PMIX_RANK");
	if (e->rank >= e->size)
		return me_fail(err, errlen, "rank %d but only %d processes",
		               e->rank, e->size);
	if (addr != NULL)
		snprintf(e->node0, sizeof(e->node0), "%s", addr);
	return me_port(get, ctx, e, err, errlen) < 0 ? -1 : 1;
}

/* See hostlist.h. */
int mesh_env_detect(mesh_getenv_fn get, void *ctx, const char *hosts_text,
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
		r = me_fail(err, errlen,
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
		me_fail(err, errlen,
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
