/* netprobe report, stage 3 of 4 (load, merge, decide, model): pure
 * deciders over the merged documents (report_merge.h). Each file decides
 * one thing; decide_recommend.c calls them in the order the settings
 * appear. Every item cites the node and the finding code or measurement it
 * rests on. Deciders call the merge stage, never the model or a renderer. */
#ifndef NP_REPORT_DECIDE_H
#define NP_REPORT_DECIDE_H

#include "doc/finding.h"
#include "report_merge.h"

/* Shared by the deciders (decide_util.c). */

/* Marks in c->lossy every node that a link-lossy or heartbeat-loss
 * finding is on or names as its other end (rd_pair_of), for
 * rd_pair_lossy (decide_index.c). Once, after rx_findings: no decider
 * changes those findings. Returns 0, or -1 on no memory. */
int rd_index_lossy(struct rctx *c);

/* True when address text a lies in net/len, IPv4 or IPv6 (net's
 * family); false on bad input. */
bool rd_in_net(const char *a, const char *net, long len);

/* True when doc d's peers entry toward an address node to holds did
 * not answer. */
bool rd_failed_toward(const struct rctx *c, const json_t *d, const char *to);

/* True when interface object x carries flag (IFF_* by name). */
bool rd_has_flag(const json_t *x, const char *flag);

/* True when s is one shell-safe word: letters, digits, ".-_" and the
 * characters of extra. */
bool rd_shell_word(const char *s, const char *extra);
/* A citation {node, code}: the node and the finding code or measurement
 * an item rests on. Returns a new object or NULL. */
json_t *rd_cite(const char *node, const char *code);
/* Appends a citation unless an equal one is there. */
void rd_cite_add(json_t *cites, const char *node, const char *code);
/* Cites every finding of node whose class is cls (NULL: any) at or above
 * severity min. */
void rd_cite_findings(const struct rctx *c, json_t *cites, const char *node,
		      const char *cls, int min);
/* The scan a node's recommendation comes from: the latest by `started`,
 * later inputs winning ties; NULL when the node has none. */
const struct report_input *rd_node_scan(const struct rctx *c, const char *node);
/* True when node has a merged finding with one of the codes. */
bool rd_node_has(const struct rctx *c, const char *node,
		 const char *const *codes);
/* True when node has a merged finding that says it sits behind NAT. */
bool rd_node_is_nat(const struct rctx *c, const char *node);
/* A merged finding the report raises itself, from the code's row of the
 * table (its name, title and class): node, severity, summary, fix and the
 * evidence (taken, may be NULL). Returns a new object or NULL. */
json_t *rd_finding(enum finding_code id, const char *node, enum severity sev,
		   const char *summary, const char *fix, json_t *evidence);
/* Appends one setting (value NULL: none works; node NULL: every node). */
void rd_add_setting(json_t *settings, const char *name, const char *val,
		    const char *node, const char *why, json_t *cites);

/* The recommendation, in the order its parts are decided. */

/* Per node: the interface its scan chose into per_node ({node, interface,
 * address, file}), or why it is blocked; scans of one node that disagree
 * into conflicts (decide_choice.c). */
void rd_choice(const struct rctx *c, json_t *per_node, json_t *blocked,
	       json_t *conflicts);
/* The interface of a node whose scan chose none only because it guessed
 * a bridge of veths is a container's (DECIDE_WHY_VETH_BRIDGE), where the
 * mesh measured that bridge's address reaching peers: a per_node entry
 * with `why` (the measured pairs) and its cites; NULL where no peer was
 * measured reaching it (decide_meshpick.c, issue 48). */
json_t *rd_mesh_pick(const struct rctx *c, const char *node,
		     const struct report_input *sc);
/* Evidence that a node's recommended address is behind NAT or unreachable
 * while its scan saw no NAT, into conflicts (decide_nat.c). */
void rd_nat_conflicts(const struct rctx *c, const json_t *per_node,
		      json_t *conflicts);
/* NCCL_SOCKET_IFNAME for every node, when one value is right everywhere.
 * Returns true when it must be set per node instead (decide_ifname.c). */
bool rd_ifname_cluster(const struct rctx *c, const json_t *per_node,
		       const json_t *blocked, json_t *settings);
/* One node's /etc/nccl.conf line, and its NCCL_SOCKET_IFNAME setting when
 * per_node_only (decide_ifname.c). */
void rd_ifname_node(const json_t *p, bool per_node_only, json_t *settings,
		    json_t *nccl_conf);
/* One node's GLOO_SOCKET_IFNAME (decide_settings.c). */
void rd_gloo(const struct rctx *c, const json_t *p, json_t *settings);

/* The node that leads the job: rank 0 or the first with an address. */
struct rd_head {
	const char *node;
	const char *addr;
	const char *how; /* why this node */
};
/* Chooses the head and sets MASTER_ADDR to it. Returns false when no node
 * qualifies (decide_settings.c). */
bool rd_master(const struct rctx *c, const json_t *per_node, json_t *settings,
	       struct rd_head *head);
/* RAY_ADDRESS: the Ray head on the job's head node (decide_ray.c). */
void rd_ray(const struct rd_head *head, json_t *settings);
/* Variables the scans recommend beyond those decided above: for every
 * node when all agree, else per node (decide_settings.c). */
void rd_other_env(const struct rctx *c, const json_t *per_node,
		  json_t *settings);
/* Marks settings that rest on a node with conflicting evidence
 * (decide_settings.c). */
void rd_mark_disputed(json_t *settings, const json_t *conflicts);

/* The mesh section from node 0's mesh document: size, membership, who
 * joined and who did not and why, the plan, the probes run and answered
 * (decide_mesh.c). json_null() without a mesh document, NULL on no
 * memory. */
json_t *rd_mesh(const struct rctx *c);

/* Ports to open per node, folded and with firewall commands
 * (decide_ports.c). Returns a new array or NULL. */
json_t *rd_firewall(const struct rctx *c);
/* A reset from a port netprobe mesh's responder was asked to hold but
 * did not (free, and nobody listens) is no fault: such port-closed
 * findings become info, their summary says why (decide_ports.c). */
void rd_unheld_resets(const struct rctx *c);
/* Drops single ports a range already opens and sorts the rest (returns 0,
 * or -1 on no memory); adds the nftables, ufw and firewalld commands
 * (decide_fwrules.c): written against the node's ruleset where its scan
 * read one (the table, chain and rule that drop), else generic. */
int rd_fw_fold(json_t *fw);
void rd_fw_commands(const struct rctx *c, json_t *fw);
/* The firewall entry of node in fw, created when missing
 * (decide_fwrules.c). */
json_t *rd_fw_node(json_t *fw, const char *node);

/* Container, WSL and host changes that are the fix (decide_changes.c). */
json_t *rd_changes(const struct rctx *c);
/* MTUs to set (decide_mtu.c). */
json_t *rd_mtu(const struct rctx *c);
/* What the recommendation could not cover and which run would fill the
 * gap (decide_notes.c). */
json_t *rd_notes(const struct rctx *c);

/* Root causes across nodes (decide_causes.c): one per node's MTU, NAT
 * layer, firewall or hostname mapping, owning every finding it explains
 * (each such finding gets `root_cause`, the cause's id) and taking the
 * recommendation's firewall, change and MTU entries as its fix (they get
 * `root_cause` too). Sorted worst first, then by node and kind. Returns a
 * new array or NULL. */
json_t *rd_causes(const struct rctx *c, json_t *rec);

/* The first node other than self that text names (a node's name or
 * address), or NULL (decide_subject.c). */
const char *rd_text_node(const struct rctx *c, const char *text,
			 const char *self);
/* The node a finding is about: the node behind NAT its probe failed
 * toward; the node itself for what it says of itself; else the target of
 * the document it came from, or the first other node its summary or
 * evidence names (decide_subject.c). */
const char *rd_subject(const struct rctx *c, const json_t *f);
/* The other node of a finding about a pair (its subject, else the first
 * other node its summary or evidence names), or NULL (decide_subject.c). */
const char *rd_pair_of(const struct rctx *c, const json_t *f);
/* True for a finding whose fix is a setting of its node's own
 * ("MASTER_ADDR=node01 ...", "GLOO_SOCKET_IFNAME=lan0 ..."): with its
 * command, the node's environment is the cause, on its own evidence,
 * whatever its peers show; no pair's shape (a peer's limit, loss or
 * firewall) explains it (decide_util.c; generated seeds 324, 369, 383,
 * and 66 and 84 with GEN48_DRAW). */
bool rd_fix_is_setting(const json_t *f);
/* The route or undecided cause that covers the pair (a, b), or NULL
 * (decide_blame.c). */
json_t *rd_pair_cause(const json_t *causes, const char *a, const char *b);
/* Encapsulation (decide_blame.c, issue 31): a node whose ruleset drops
 * its overlay's UDP port (VXLAN 4789 or 8472, Geneve 6081), from every
 * source or from a peer it failed with, gets that port to open in the
 * recommendation's firewall entries (marked "encap"), with its commands,
 * before the firewall causes are made. */
void rd_encap(const struct rctx *c, json_t *rec);
/* True when IPv4 address a lies in src ("10.0.0.5", "10.0.0.0/24");
 * the overlay's UDP port block b of node doc d's ruleset drops, into
 * port and ifc (decide_blame.c). */
bool rd_in_src(const char *a, const char *src);
bool rd_encap_hit(const json_t *d, const json_t *b, long *port, char *ifc,
		  size_t len);
/* A member that did not join node 0 (decide_missing.c, issue 31): node
 * 0's own rule that drops its joins (the mesh's port from its source, or
 * the overlay's port from every source) becomes a port to open in node
 * 0's firewall entry; rd_missing_owner is the cause of a
 * mesh-node-missing finding (that firewall cause, or the pair's
 * undecided one); rd_missing_blame makes the undecided cause of a member
 * that runs where node 0's ruleset drops nothing of it. */
void rd_missing(const struct rctx *c, json_t *rec);
json_t *rd_missing_owner(const struct rctx *c, const json_t *causes,
			 const json_t *f);
void rd_missing_blame(const struct rctx *c, json_t *causes);
/* A member that joined and stopped before its results (mesh-node-died)
 * is about that member, not about node 0 that saw it: rd_died_owner is
 * the pair's undecided cause, and rd_died_blame makes it, with the
 * commands that decide on the member, where owner (the causes' owner
 * rule) gives the finding no other cause (issue 48: blind48 07). */
json_t *rd_died_owner(const struct rctx *c, const json_t *causes,
		      const json_t *f);
void rd_died_blame(const struct rctx *c, json_t *causes,
		   json_t *(*owner)(const struct rctx *, const json_t *,
				    const json_t *));
/* Node 0 that no member joined, every one for its own firewall's rule:
 * that cause, which its interface warnings follow from (no peer measured
 * chose its interface); NULL otherwise (decide_missing.c). */
json_t *rd_missing_alone(const struct rctx *c, const json_t *causes,
			 const char *node);
/* The address-conflict finding that involves node name: on it (it
 * holds another's address), or naming it as the address's owner; NULL
 * when none (decide_blame.c). */
const json_t *rd_conflict_of(const struct rctx *c, const char *name);
/* True when the link of a or b was measured lossy (a link-lossy or
 * heartbeat-loss finding on either, or naming either) (decide_blame.c). */
bool rd_pair_lossy(const struct rctx *c, const char *a, const char *b);
/* True when the link between a and b itself was measured lossy: a loss
 * finding on a whose other end is b, or on b whose other end is a
 * (decide_blame.c, issue 48). */
bool rd_pair_lossy_exact(const struct rctx *c, const char *a,
			 const char *b);
/* No blame without evidence (decide_blame.c, issue 31): route causes from
 * the nodes' own route lookups; every failed pair no cause explains is
 * loss (its findings made info) where the link was measured lossy, else
 * one "undecided" cause on the pair. owner is decide_cause_owner.c's. */
void rd_blame(const struct rctx *c, json_t *causes,
	      json_t *(*owner)(const struct rctx *, const json_t *,
			       const json_t *));

/* Elimination over the pairs left undecided (decide_elim.c, issue 48):
 * each pair's evidence and the cluster's shape run through the table of
 * elim.c; pairs whose only hypothesis left is a box on the path between
 * two subnets become one "path" cause per subnet pair (named by its hop,
 * no node blamed), the others carry what remains and why the rest went.
 * rd_path_owner is the path cause that holds finding f's pair, or NULL. */
void rd_elim(const struct rctx *c, json_t *causes);
/* True when node doc d's ruleset (as its scan read it) drops port/proto
 * from source address src ("" unknown: only a block of every source
 * matches): a drop or reject rule that matches, or a drop policy that no
 * accept of the same shape lets through (decide_elim.c). */
bool rd_rules_drop(const json_t *d, long port, const char *proto,
		   const char *src);
json_t *rd_path_owner(const struct rctx *c, const json_t *causes,
		      const json_t *f);
/* Errors a cause explains: a probe toward a node behind NAT that timed
 * out (a peer's scan could not reach its responder) is the NAT's symptom,
 * not a part that could not run. Each such error of the node table
 * (rn_table) gets `root_cause` and joins the cause's evidence. */
void rd_own_errors(const struct rctx *c, json_t *nodes, json_t *causes);

/* The whole `recommendation` (decide_recommend.c). Returns it or NULL. */
json_t *rd_recommend(const struct rctx *c);

/* Beyond the recommendation. */

/* `matrix` (node to node connectivity, null when nothing was measured)
 * and `heartbeats` (decide_matrix.c). Returns 0, or -1 on no memory. */
int rd_matrix(const struct rctx *c, json_t **matrix, json_t **heartbeats);
/* `nccl`: one entry per ncclcheck run with its bandwidth series
 * (decide_nccl.c). Returns a new array or NULL. */
json_t *rd_nccl(const struct rctx *c);
/* `checks`: one per node per check class that ran, per gate check, for
 * the cluster recommendation and per unreadable input, sorted by suite
 * (decide_checks.c). Returns a new array or NULL. */
json_t *rd_checks(const struct rctx *c, const json_t *rec, const json_t *nccl);
/* The verdict, the worst of findings, gates, blocks, conflicts and inputs
 * that could not be read; counts faults and warnings (decide_checks.c). */
const char *rd_verdict(const struct rctx *c, const json_t *rec,
		       const json_t *nccl, int *nfaults, int *nwarnings);

/* rdma-fabric-mismatch findings into c->findings: link layers, RoCE GID
 * types, rates or MTUs of the ports NCCL uses that differ between nodes
 * (decide_rdma.c). The caller sorts the findings again. */
void rd_rdma_fabric(struct rctx *c);
/* Which node is which beyond its name (decide_identity.c, issue 31): an
 * IPv4 address two nodes hold (address-conflict, a fault: on the one that
 * holds it beside its own first address, with the command that drops it;
 * on both where neither does), and mesh members that share a hostname
 * (hostname-shared, a warning on each). Appends to c->findings. */
void rd_identity(struct rctx *c);
/* Names and addresses that cut one node off from some peers
 * (decide_names.c, issue 48): hosts-stale, prefix-narrow and
 * bridge-route-shadow faults on the node whose own state is wrong, each
 * with its one command and the peers it cuts off ("cuts"). Appends to
 * c->findings; a scan's NCCL_SOCKET_IFNAME or GLOO_SOCKET_IFNAME fault
 * ("selects") becomes info where another node holds an address in a
 * subnet of the interfaces it selects. */
void rd_names(struct rctx *c);
/* The finding of rd_names that explains the pair a, b (on either, cutting
 * off the other), or with b NULL any of them on a; NULL when none. The
 * scan's bridge-port-addressed counts, with the cuts rd_names gave it. */
const json_t *rd_names_cut(const struct rctx *c, const char *a,
			   const char *b);
/* The cuts of the scan's nic-noarp and bridge-port-stuck on node a,
 * from its document d (decide_ownif.c, issue 48); rd_names calls it. */
void rd_ownif(struct rctx *c, const char *a, const json_t *d);
/* node's own qdisc-drops-frames finding (a shaper that drops every full
 * frame it sends), or NULL (decide_qdisc.c, issue 48): the MTU deciders
 * leave its paths to that finding's setting cause. */
const json_t *rd_qdisc_of(const struct rctx *c, const char *node);
/* The elimination's evidence of queueing disciplines for the pair
 * e->a, e->b (decide_qdisc.c): da, db their documents, ea, eb each one's
 * peer entry for the other (any NULL). */
struct elim_ev;
/* Appends to why (of size len) the command that tells a shaper from a
 * hop where large frames fail with the MTUs equal and from's or to's
 * root qdiscs were not read (decide_qdisc.c, issue 48). */
void rd_qdisc_hint(const struct rctx *c, const char *from, const char *to,
		   const char *ifc, char *why, size_t len);
void rd_qdisc_ev(const struct rctx *c, const json_t *da, const json_t *db,
		 const json_t *ea, const json_t *eb, struct elim_ev *e);
/* A static neighbour entry that outlived a peer's NIC (decide_neigh.c,
 * issue 48): neigh-stale-static faults into c->findings, on the node
 * whose PERMANENT or NOARP entry for a member's address names a MAC that
 * member does not hold, where their pair failed; each with its command
 * and the peer it cuts off ("cuts", found by rd_names_cut). */
void rd_neigh_stale(struct rctx *c);
/* One overlay's VXLAN devices that differ between members
 * (decide_vxlan.c, issue 48): a vxlan-vni-mismatch or
 * vxlan-port-mismatch fault into c->findings on the member whose device
 * differs from a majority of three or more, where its pairs with them
 * failed, with the command that makes it again and the members it cuts
 * off ("cuts"); with two members or no majority a warning on each that
 * names both values and the command that decides. */
void rd_vxlan_mismatch(struct rctx *c);
/* True when the pair of members a and b failed, either way, or one of
 * them never joined node 0 (decide_vxlan.c). */
bool rd_vxlan_pair_failed(const struct rctx *c, const char *a, const char *b);
/* A member's proxy VXLAN device (learning off, no l3miss) with no static
 * neighbour entry for a peer's overlay address, where the member's own
 * probes toward that address failed (decide_vxlan_neigh.c, issue 48;
 * flannel-io/flannel#203): a vxlan-proxy-neigh-missing fault on the
 * member with the command that installs the entry with the peer's
 * device MAC and the peer it cuts off ("cuts"); a warning naming the
 * deciding commands where the peer's MAC is not in any scan. */
void rd_vxlan_proxy_neigh(struct rctx *c);
/* True when x, an interface of scan d, is a proxy VXLAN device (learning
 * and l3miss off) and d's table holds no static entry for addr on it
 * (decide_vxlan_neigh.c): d's ARP for addr never leaves. */
bool rd_vxlan_proxy_lacks(const json_t *d, const json_t *x, const char *addr);
/* Where node x's scan d reaches address addr of member who (that never
 * joined) by an up VXLAN device of d, a sentence for the undecided
 * pair: the device's VNI and port, and the command on who that decides
 * whether its overlay differs (decide_vxlan.c); "" else. */
void rd_vxlan_hint(const json_t *d, const char *x, const char *who,
		   const char *addr, char *buf, size_t len);
/* Whether node a's scan holds a static neighbour entry stale against
 * node b (b holds its address with another MAC): 1, 0 when not, -1
 * when a's scan recorded no neighbour table. */
int rd_neigh_toward(const struct rctx *c, const char *a, const char *b);
/* Two macvlan siblings in VEPA or private mode (decide_vepa.c, issue
 * 48): a macvlan-vepa-peer fault into c->findings on each end of a pair
 * whose addresses sit on such macvlans on one subnet and that fails both
 * ways while each end reaches other members; each with the command that
 * puts its macvlan in bridge mode and the peer it cuts off. */
void rd_macvlan_vepa(struct rctx *c);
/* Whether nodes a and b both hold their address on a VEPA or private
 * macvlan, on one subnet: 1, 0 when not, -1 when either has no scan. */
int rd_vepa_toward(const struct rctx *c, const char *a, const char *b);
/* The peers each node's own notrack-untracked-drop (its scan's) cuts it
 * off from (decide_untracked.c, issue 48): the members its exemption
 * covers whose pair with it failed, into the finding's "cuts" (found by
 * rd_names_cut). */
void rd_untracked_cuts(struct rctx *c);
/* The peers each node's own ecmp-dead-nexthop and route-type-drop (its
 * scan's: its routing table sends them to a dead next hop, or drops
 * them) cut it off from, into the finding's "cuts" (decide_rtdrop.c,
 * issue 48): the members its route evidence names. */
void rd_route_cuts(struct rctx *c);
/* True when node a's finding of code (one of those two) cuts it off
 * from node b. */
bool rd_route_toward(const struct rctx *c, const char *a, const char *b,
		     enum finding_code code);
/* Whether node a's notrack-untracked-drop cuts it off from node b: 1, 0
 * when not, -1 when a's scan read no ruleset's exemptions (none, an
 * iptables-legacy one without its raw table, or exemptions left unread:
 * notrack_unread). */
int rd_untracked_toward(const struct rctx *c, const char *a, const char *b);

/* link-down-during-watch findings into c->findings (decide_watch.c,
 * issue 44): each pair the change log of the mesh document's watch shows
 * down, a fault on the member that probed it, with when it went down and
 * came back and for how long (or that it was down at the end). The caller
 * sorts the findings again. Returns 0, or -1 on no memory. */
int rd_watch_down(struct rctx *c);

/* The latest mesh document of the set (later inputs win ties), or NULL:
 * what decide_mesh.c and decide_missing.c read the membership from. */
const json_t *rd_mesh_doc(const struct rctx *c);

#endif
