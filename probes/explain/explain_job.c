/* netprobe explain --job: the hung job's state from NCCL's RAS service
 * (NCCL 2.24+), and the nodes of the ranks it names as peers to probe. */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain/explain_int.h"
#include "probe/ras.h"

#define RAS_CONNECT_MS 1500

/* True when node is one of this host's own addresses: RAS names nodes by
 * address, and this node needs no probe toward itself. */
bool explain_is_local_addr(const char *node)
{
	struct ifaddrs *ifa, *i;
	char buf[INET6_ADDRSTRLEN];
	bool local = false;

	if (getifaddrs(&ifa) < 0)
		return false;
	for (i = ifa; i && !local; i = i->ifa_next) {
		const void *a;

		if (i->ifa_addr == NULL)
			continue;
		if (i->ifa_addr->sa_family == AF_INET)
			a = &((struct sockaddr_in *)(void *)i->ifa_addr)
				     ->sin_addr;
		else if (i->ifa_addr->sa_family == AF_INET6)
			a = &((struct sockaddr_in6 *)(void *)i->ifa_addr)
				     ->sin6_addr;
		else
			continue;
		if (inet_ntop(i->ifa_addr->sa_family, a, buf, sizeof(buf)) &&
		    strcmp(buf, node) == 0)
			local = true;
	}
	freeifaddrs(ifa);
	return local;
}

/* What RAS answered made UTF-8: a node name, a version, or the bytes a
 * port that is no RAS answered with (quoted in ras_why) go into the
 * document, which jansson refuses when one is not UTF-8. */
static void ras_utf8(struct explain_run *r)
{
	struct ras_state *st = &r->ras;

	explain_utf8(r->ras_addr, sizeof(r->ras_addr));
	explain_utf8(r->ras_why, sizeof(r->ras_why));
	explain_utf8(st->nccl_version, sizeof(st->nccl_version));
	for (size_t i = 0; i < st->nprocs && i < RAS_MAX_PROCS; i++) {
		struct ras_proc *p = &st->procs[i];

		explain_utf8(p->node, sizeof(p->node));
		explain_utf8(p->gpu, sizeof(p->gpu));
		explain_utf8(p->comm, sizeof(p->comm));
	}
	for (size_t i = 0; i < st->ncomms && i < RAS_MAX_COMMS; i++) {
		explain_utf8(st->comms[i].id, sizeof(st->comms[i].id));
		explain_utf8(st->comms[i].what, sizeof(st->comms[i].what));
	}
}

/* Asks the RAS service and reads its answer into r->ras. */
static int ras_ask(struct explain_run *r)
{
	const char *spec = r->o.ras ? r->o.ras : getenv("NCCL_RAS_ADDR");
	char host[96], port[16], self[256], *answer = NULL;

	r->ras_tried = true;
	if (ras_addr_split(spec, host, sizeof(host), port, sizeof(port)) < 0) {
		snprintf(r->ras_why, sizeof(r->ras_why),
			 "invalid RAS address '%s'", spec);
		return -1;
	}
	snprintf(r->ras_addr, sizeof(r->ras_addr), "%s:%s", host, port);
	if (ras_query(host, port, RAS_CONNECT_MS, r->o.ras_timeout_s, &answer,
		      r->ras_why, sizeof(r->ras_why)) < 0)
		return -1;
	if (ras_parse(answer, &r->ras) < 0) {
		snprintf(r->ras_why, sizeof(r->ras_why), "%s answered, but not "
			 "with a RAS status", r->ras_addr);
		free(answer);
		return -1;
	}
	free(answer);
	r->ras_answered = true;
	ras_utf8(r);
	if (gethostname(self, sizeof(self)) < 0)
		self[0] = '\0';
	self[sizeof(self) - 1] = '\0';
	for (size_t i = 0; i < r->ras.nprocs; i++) {
		const char *node = r->ras.procs[i].node;
		bool dup = node[0] == '\0' || strcmp(node, self) == 0 ||
			   strcmp(node, "localhost") == 0 ||
			   explain_is_local_addr(node);

		for (int j = 0; j < r->njob_nodes && !dup; j++)
			dup = strcmp(r->job_nodes[j], node) == 0;
		if (!dup && r->njob_nodes < 4)
			snprintf(r->job_nodes[r->njob_nodes++],
				 sizeof(r->job_nodes[0]), "%s", node);
	}
	return 0;
}

int explain_job(struct explain_run *r)
{
	int rc = ras_ask(r);

	ras_utf8(r);
	return rc;
}
