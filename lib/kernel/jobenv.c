/* The frameworks' variables read from the live process (the recorded
 * ones: jobenv_record.c): deciders only ever see the structs of
 * kernel/jobenv.h. */
#include "kernel/jobenv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The three variables NCCL's interface selection reads. */
void nccl_env_from_process(struct nccl_env *env)
{
	env->socket_ifname = getenv("NCCL_SOCKET_IFNAME");
	env->socket_family = getenv("NCCL_SOCKET_FAMILY");
	env->comm_id = getenv("NCCL_COMM_ID");
}

/* The live process's environment. */
void scan_env_from_process(struct scan_env *e)
{
	scan_env_fill(e, env_get_process, NULL);
}

/* The scan's settings, and how many nodes the launcher says the job has. */
void scan_env_fill(struct scan_env *e,
                   env_get_fn get, void *ctx)
{
	memset(e, 0, sizeof(*e));
	e->nccl_socket_ifname = get("NCCL_SOCKET_IFNAME", ctx);
	e->nccl_socket_family = get("NCCL_SOCKET_FAMILY", ctx);
	e->nccl_comm_id = get("NCCL_COMM_ID", ctx);
	e->gloo_socket_ifname = get("GLOO_SOCKET_IFNAME", ctx);
	e->ompi_if_include = get("OMPI_MCA_btl_tcp_if_include", ctx);
	e->ompi_if_exclude = get("OMPI_MCA_btl_tcp_if_exclude", ctx);
	e->oob_if_include = get("OMPI_MCA_oob_tcp_if_include", ctx);
	e->oob_if_exclude = get("OMPI_MCA_oob_tcp_if_exclude", ctx);
	/* the launcher's: launchenv.c reads them */
	e->master_addr = launch_job_master(get, ctx);
	e->nodes = launch_job_nodes(get, ctx);
}

/* One configuration file into c, when it can be read. */
static void conf_file(const struct sysroot *sr, const char *path,
		      struct nccl_conf *c)
{
	static char buf[65536];

	if (sysroot_read(sr, path, buf, sizeof(buf)) >= 0)
		nccl_conf_parse(buf, path, c);
}

/* initEnvFunc's order (src/misc/param.cc); the environment is applied by
 * the callers, above every file. */
static void conf_files(const struct sysroot *sr, struct nccl_conf *c)
{
	const char *user = getenv("NCCL_CONF_FILE"), *home = getenv("HOME");
	char path[1024];

	memset(c, 0, sizeof(*c));
	if (user != NULL && *user != '\0') {
		conf_file(sr, user, c);
	} else if (home != NULL && sysroot_is_live(sr)) {
		snprintf(path, sizeof(path), "%s/.nccl.conf", home);
		conf_file(sr, path, c);
	}
	conf_file(sr, "/etc/nccl.conf", c);
}

void nccl_env_apply_conf(struct nccl_env *env, const struct sysroot *sr,
			 struct nccl_conf *c)
{
	conf_files(sr, c);
	if (env->socket_ifname == NULL && c->ifname_from[0] != '\0')
		env->socket_ifname = c->ifname;
	if (env->socket_family == NULL && c->family_from[0] != '\0')
		env->socket_family = c->family;
	if (env->comm_id == NULL && c->comm_id_from[0] != '\0')
		env->comm_id = c->comm_id;
}

void scan_env_apply_conf(struct scan_env *e, const struct sysroot *sr,
			 struct nccl_conf *c)
{
	conf_files(sr, c);
	/* a value the environment overrides is not what NCCL uses */
	if (e->nccl_socket_ifname != NULL)
		c->ifname_from[0] = '\0';
	else if (c->ifname_from[0] != '\0')
		e->nccl_socket_ifname = c->ifname;
	if (e->nccl_socket_family != NULL)
		c->family_from[0] = '\0';
	else if (c->family_from[0] != '\0')
		e->nccl_socket_family = c->family;
	if (e->nccl_comm_id != NULL)
		c->comm_id_from[0] = '\0';
	else if (c->comm_id_from[0] != '\0')
		e->nccl_comm_id = c->comm_id;
}
