/* netprobe scan's own parts, shared between its files: the run's state
 * and one entry point per job. Calls go one way: scan.c runs the
 * command line (scan_cli.c), the local collection (scan_collect.c), the
 * peers (scan_peers.c, through probe/peercheck.h), the deciders
 * (scan_decide.c) and the output (scan_doc.c, scan_text.c). */
#ifndef NP_SCAN_INT_H
#define NP_SCAN_INT_H

#include <arpa/inet.h>
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "base/sysroot.h"
#include "kernel/rpfilter.h"
#include "decide/advertise.h"
#include "decide/decide.h"
#include "decide/fwcmd.h"
#include "kernel/fwrules.h"
#include "decide/recommend.h"
#include "doc/cmdrun.h"
#include "doc/doc.h"
#include "kernel/hostlim.h"
#include "kernel/natredir.h"
#include "kernel/xfrm.h"
#include "kernel/hostname.h"
#include "kernel/neigh.h"
#include "kernel/qdisc.h"
#include "kernel/nl.h"
#include "layers/layers.h"
#include "probe/peer.h"

#define SCAN_MAX_PEERS 16
#define SCAN_MAX_ROUTES 16
#define RESOLVE_MS 300 /* per name: the scan must answer in well under 1 s */
#define FWRULES_MS 2000 /* nft or iptables-legacy-save, each */
/* Each peer: 1 s per request (connect and hello, reflection,
 * connect-back) and 1.4 s to retry connect-back ports whose SYN got no
 * answer (probe/synretry.h), 1 s of heartbeat, about 1.5 s of outbound
 * connects to the peer's ephemeral samples and 1.4 s to retry the lost
 * ones, 2 s of path MTU search; a peer that started inside PEER_BOUND_US
 * times the peers finishes within it. */
#define PEER_STEP_US 1000000LL
#define PEER_HEARTBEAT_US 1000000LL
#define PEER_PATH_US 2000000LL
#define PEER_BOUND_US 11000000LL
#define PEER_SLACK_US 1000000LL

struct scan_opts {
	bool export, quick; /* --json, -o, -q: the run's (cmdrun.h) */
	bool rank0; /* --rank0: this node runs rank 0, export MASTER_ADDR */
	const char *sysroot;
	const char *token_file;
	const char *peers[SCAN_MAX_PEERS];
	size_t npeers;
};

/* Everything collected, decided and emitted by one run. */
struct scan {
	struct scan_opts o;
	struct sysroot sr;
	struct cmd_run run; /* its document, its errors (the runtime) */
	struct iface_list ifaces;
	struct rpf_facts rpf; /* rp_filter of all and each interface */
	struct route_info defaults[SCAN_MAX_ROUTES];
	size_t ndefaults;
	bool routes_known;
	struct route_info lookup; /* the route toward the first peer */
	bool have_lookup;
	struct layers ly;
	bool have_layers;
	struct hostname_info host;
	struct scan_env env;
	struct env_record envrec; /* a recorded sysroot's environment */
	struct nccl_conf nccl_conf; /* NCCL's configuration files */
	char comm_id_numeric[INET6_ADDRSTRLEN + 16];
	struct master_info master;
	struct peer_verdict *peers; /* room for o.npeers (or the mesh's) */
	json_t **peer_json;         /* the probes' objects, owned */
	size_t npeers, cap_peers;
	/* a mesh's node 0: the route toward each member that did not join
	 * and did not answer (mesh_missing.c), for the routing table's
	 * deciders only (decide_ecmp.h); malloc'd */
	struct peer_verdict *lost;
	size_t nlost;
	struct advert adv[ADV_MAX]; /* what the frameworks will advertise */
	size_t nadv;
	struct reach_result reach[SCAN_MAX_PEERS * ADV_MAX];
	size_t nreach; /* the peers' answers for each advertised address */
	struct src_reach sreach[SRC_REACH_MAX]; /* scan_setting_reach */
	size_t nsreach;
	unsigned eph_lo, eph_hi; /* this node's ip_local_port_range */
	struct fw_plan fw;       /* what the failed checks ask to open */
	struct fw_rules *fwrules; /* the live packet filter, NULL unread */
	struct host_limits lim;   /* port range, backlog, limit rules */
	/* the nat table's redirects to this node (issue 48), NULL unread */
	struct nat_redirs *natredir;
	unsigned mesh_port; /* the mesh's port (mesh.c), 0: 7470 */
	struct xfrm_db *xfrm; /* IPsec policies and states, NULL unread */
	struct neigh_statics *statics; /* static neighbours, NULL unread */
	struct qdisc_list *qdiscs; /* root and ingress qdiscs, NULL unread */
	struct recommendation rec;
	struct nccl_default nccl;
	bool color;
	struct scan_rdma *rdma; /* scan_rdma.c; NULL when not collected */
};

/* scan.c: releases everything the run holds, not s itself. */
void scan_free(struct scan *s);

/* scan_cli.c: parses the command line into o. Returns 0, 1 for --help
 * (printed), or 2 for bad usage (reported on stderr). */
int scan_parse(struct cmd_run *r, int argc, char **argv, struct scan_opts *o);

/* scan_collect.c: interfaces, default routes, layering, hostname, the
 * environment, MASTER_ADDR and NCCL_COMM_ID. Returns 0, or 2 when the
 * scan cannot run (reported). */
int scan_collect(struct scan *s);

/* scan_peers.c: one verdict per --peer, from the route toward it and its
 * responder. Returns 0, or 2 when a peer is malformed or does not resolve
 * (reported). */
int scan_peers(struct scan *s);

/* scan_peers.c: how long the next hops of a failed peer's multipath
 * route may take to settle in the neighbour table (3 solicitations a
 * second apart, and a stale entry's 5 s delay before they start). */
#define NH_SETTLE_US 6500000LL

/* scan_peers.c: the neighbour states of the gateways of v's multipath
 * route, read until they settle, where v did not answer (issue 48); a
 * table that cannot be read is an error in d. */
void scan_peer_settle(struct peer_verdict *v, struct doc *d);

/* scan_peers.c: v's tables' route (a drop or a multipath route) as obj's
 * "route_match". Returns 0 (also when there is none), -1 on no memory. */
int scan_peer_match_json(const struct peer_verdict *v, json_t *obj);

/* scan_peers.c: the route-only verdict toward peer spec (HOST[:PORT]),
 * its name resolved within resolve_ms:
 * its address, the route's interface and source (`ip route get`) into v,
 * the route into ri (*have_ri). No route is an error in d, not a
 * failure. Returns 0, or -1 with err filled when spec is malformed or
 * does not resolve. Safe in several threads with distinct v, ri, d. */
int scan_peer_route(const char *spec, int resolve_ms, struct peer_verdict *v,
                    struct route_info *ri, bool *have_ri, struct doc *d,
                    char *err, size_t errlen);

/* scan_peers.c: room for n peers (peers and peer_json). Returns 0, or
 * -1 on no memory. */
int scan_peers_alloc(struct scan *s, size_t n);

/* scan_reach.c: from each interface NCCL_SOCKET_IFNAME or
 * GLOO_SOCKET_IFNAME selects that is not the route's toward an answering
 * peer, one connection to that peer's responder; into s->sreach and the
 * peer's `reach_from`. Live system only. */
void scan_setting_reach(struct scan *s);

/* scan_decide.c: recommend() over what was collected. Returns 0, or 2 on
 * no memory (reported). */
int scan_recommend(struct scan *s);

/* scan_decide.c: the recommendation, then every decider's findings.
 * Returns 0, or 2 on no memory (reported). */
int scan_decide(struct scan *s);

/* scan_doc.c: the document's results. Returns 0, or -1 on no memory. */
int scan_build_doc(struct scan *s);

/* scan_text.c: writes the chosen output (text, --json, --export).
 * Returns 0, or -1 when writing failed. */
int scan_emit(struct scan *s);

/* scan_rdma.c: the RDMA devices, NCCL's IB choice and the rdma-*
 * findings; collect never fails (errors go in the document). */
void scan_rdma_collect(struct scan *s);
int scan_rdma_decide(struct scan *s);
int scan_rdma_doc(struct scan *s);
void scan_rdma_text(const struct scan *s);
void scan_rdma_export(const struct scan *s, const char *indent);
void scan_rdma_free(struct scan *s);

#endif
