/* netprobe explain: Open MPI's "unable to reach each other" between two
 * processes of one host (issue 42: blind42f b11). The help text names
 * the pair's hosts on lines of their own; where both are the same host,
 * no network between nodes was in the way: Open MPI found no transport
 * on that node (shared memory not loaded or excluded, "BTLs attempted:
 * self"; open-mpi/ompi#10955) or failed in its own exchange of
 * addresses (open-mpi/ompi#4277: pmix_base_async_modex=1). A cause that
 * is not the network, so the help text's network candidates stay shut.
 * explain.c calls them. And a launch into containers across hosts that
 * ended with no error line (explain_mpi_hang, from explain_rules). */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <stdio.h>
#include <string.h>

/* How far below the help text's first line its host lines may be. */
#define MPI_HOST_LINES 12

/* The host the help text below h names for process proc ("1" or "2"),
 * or NULL. */
static const char *pair_host(const struct explain_log *lg,
			     const struct explain_hit *h, const char *proc)
{
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *o = &lg->hits[i];
		const char *p = logmatch_field(&o->m, "proc");

		if (strcmp(o->m.sig->id, "ompi-unreachable-host") != 0 ||
		    o->file != h->file || o->line <= h->line ||
		    o->line > h->line + MPI_HOST_LINES || p == NULL ||
		    strcmp(p, proc) != 0)
			continue;
		return logmatch_field(&o->m, "host");
	}
	return NULL;
}

/* True when h is Open MPI's unreachable pair and the help text puts
 * both processes on one known host. */
bool explain_mpi_one_host(const struct explain_log *lg,
			  const struct explain_hit *h)
{
	const char *a, *b;

	if (strcmp(h->m.sig->id, "ompi-unreachable") != 0)
		return false;
	a = pair_host(lg, h, "1");
	b = pair_host(lg, h, "2");
	return a != NULL && b != NULL && strcmp(a, b) == 0 &&
	       strcmp(a, "unknown") != 0;
}

/* The cause that is not the network, with what decides it. */
void explain_mpi_other(const struct explain_log *lg,
		       const struct explain_hit *h, struct explain_result *r)
{
	struct explain_cause *c = explain_cause_for(r, EXPLAIN_OTHER, false,
						    "mpi-transport");

	if (c == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] != '\0')
		return;
	snprintf(c->why, sizeof(c->why), "both processes are on host %s: "
		 "no network between nodes is involved; Open MPI found no "
		 "transport on that node (shared memory not loaded or "
		 "excluded) or failed in its own address exchange",
		 pair_host(lg, h, "1"));
	snprintf(c->next, sizeof(c->next), "on %s: ompi_info | grep 'MCA "
		 "btl'; rerun with --mca btl_base_verbose 100",
		 pair_host(lg, h, "1"));
}

/* True when the command line pins the interfaces itself: Open MPI's
 * include or exclude list, NCCL_SOCKET_IFNAME, Horovod's flag. */
static bool iface_pinned(const struct explain_ctx *x, const char *cmd)
{
	static const char *const pin[] = {"btl_tcp_if_", "oob_tcp_if_",
					  "NCCL_SOCKET_IFNAME",
					  "--network-interface", "GLOO_IFACE"};

	if (x->ifname != NULL)
		return true;
	for (size_t i = 0; i < sizeof(pin) / sizeof(pin[0]); i++)
		if (strstr(cmd, pin[i]) != NULL)
			return true;
	return false;
}

/* Horovod's documented hang (docs/troubleshooting: "hangs due to
 * non-routed network interfaces"): a launch into containers on several
 * hosts (launch-container-ssh) that ended with no error line at all,
 * while nothing pinned the interfaces. Inside the containers docker0
 * and veth interfaces sit beside the one the hosts share, and Open
 * MPI's TCP transport and NCCL try them (issue 42: blind42f b07,
 * horovod/horovod#212, fixed by btl_tcp_if_exclude docker0,lo,veth;
 * b19, horovod/horovod#2568, fixed by --network-interface). The log
 * shows no cause: both stay open, with the commands that decide. */
void explain_mpi_hang(const struct explain_ctx *x, struct explain_result *r)
{
	const struct explain_log *lg = x->lg;

	if (x->failed || x->other)
		return;
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];
		const char *port = logmatch_field(&h->m, "ssh_port");
		struct explain_cause *c;

		if (strcmp(h->m.sig->id, "launch-container-ssh") != 0 ||
		    port == NULL || strcmp(port, "22") == 0 ||
		    iface_pinned(x, h->text))
			continue;
		c = explain_cause_for(r, EXPLAIN_NET, true,
				      "mpi-btl-iface,nccl-default-iface-unsafe");
		if (c == NULL)
			return;
		explain_add_ref(c, h);
		snprintf(c->why, sizeof(c->why), "a launch into containers on "
			 "%s (ssh on port %s) that ended with no error line, "
			 "and nothing pinned the interfaces: Open MPI and NCCL "
			 "pick among docker0, veth and the shared one "
			 "themselves", logmatch_field(&h->m, "hosts_given"),
			 port);
		snprintf(c->next, sizeof(c->next), "on each host: netprobe "
			 "ifaces (the interface the hosts share); then launch "
			 "with --mca btl_tcp_if_include IFACE -x "
			 "NCCL_SOCKET_IFNAME=IFACE (horovodrun: "
			 "--network-interface IFACE)");
		return;
	}
}
