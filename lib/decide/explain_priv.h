/* The parts of netprobe explain's decider shared between its files:
 * explain.c (the hits to causes) and explain_rules.c (the rules that
 * need several lines: an interface list, an address two hosts share,
 * printed GIDs, and the lines that contradict a decided cause). */
#ifndef NP_EXPLAIN_PRIV_H
#define NP_EXPLAIN_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "decide/explain.h"

/* What the whole log says, gathered before any rule runs. */
struct explain_ctx {
	const struct explain_log *lg;
	bool failed;	    /* a failure or a symptom line */
	/* a failure line of the network (not a symptom, a fact, a cause
	 * that is not the network or normal operation): what lets a
	 * symptom's candidates open (issue 42: a timeout alone is none) */
	bool net_line;
	bool other;	    /* a cause that is not the network */
	bool expect_ib;	    /* the job set NCCL_IB_* or NCCL_NET */
	/* every line is a retried warning (torch's IPv6 lookup): no
	 * failure (issue 42) */
	bool retry_alone;
	const char *ifname; /* NCCL_SOCKET_IFNAME as echoed, or NULL */
	bool http_client;   /* the log shows an HTTP client's frames */
};

struct explain_cause *explain_cause_for(struct explain_result *r,
					enum explain_kind kind, bool open,
					const char *codes);
void explain_add_ref(struct explain_cause *c, const struct explain_hit *h);
/* Opens a set of candidates with h, its why and the command that decides
 * (next; NULL: explain_next_command's for h). */
void explain_open(struct explain_result *r, const struct explain_hit *h,
		  const char *codes, const char *why, const char *next);

/* What to collect when a symptom is all the log holds: the settings
 * or logs that would tell (explain_facts.c). */
void explain_collect_next(const struct explain_hit *h, char *buf,
			  size_t len);

/* The counters that decide a listen backlog that overflowed. */
void explain_backlog_next(char *buf, size_t len);

/* The one command that decides an open cause, from what the line names. */
void explain_next_command(const struct explain_hit *h, char *buf,
			  size_t len);

/* The host a line was printed on ("node1" of NCCL's "node1:812:830 [0]"
 * prefix), into buf. Returns false when the line names none. */
bool explain_hit_host(const struct explain_hit *h, char *buf, size_t len);

/* explain_rules.c: the rules over several lines, after the per-line
 * causes; then every decided cause that another line contradicts is
 * demoted to an open one that names that line. */
void explain_rules(const struct explain_ctx *x, struct explain_result *r);
/* torch's loopback fallback with a failed Gloo connect: decides
 * hostname-unbindable and drops what the connect lines alone gave; run
 * after the symptoms' candidates. */
void explain_rule_gloo_fallback(const struct explain_ctx *x,
				struct explain_result *r);
void explain_contradict(const struct explain_ctx *x,
			struct explain_result *r);
/* explain_oddaddr.c: a retried store address no host can use (0.0.0.0/8,
 * or Paddle's retried loopback) opens the host name's entry; with r
 * NULL it only tells whether the line names one. */
bool explain_odd_store_addr(const struct explain_log *lg,
			    const struct explain_hit *h,
			    struct explain_result *r);
/* The fix in the words of the framework that printed h (gRPC's cluster
 * spec, Paddle's --host), where the catalogue's would not apply. */
void explain_framework_fix(const struct explain_hit *h, const char *code,
			   struct explain_cause *c);

/* The failures of a transport's own (explain_transport.c): an RDMA
 * completion with a local protection error, UCX's TCP transport on the
 * peer's loopback; explain_transport_other records the cause that is
 * not the network for either. */
bool explain_rdma_local(const struct explain_hit *h);
bool explain_transport_loopback(const struct explain_hit *h);
void explain_transport_other(const struct explain_hit *h,
			     struct explain_result *r);
/* Open MPI's unreachable pair on one host: not the network
 * (explain_mpi.c). */
bool explain_mpi_one_host(const struct explain_log *lg,
			  const struct explain_hit *h);
void explain_mpi_other(const struct explain_log *lg,
		       const struct explain_hit *h, struct explain_result *r);
/* A launch into containers across hosts that ended with no error line:
 * the interfaces the ranks picked themselves stay open (explain_mpi.c). */
void explain_mpi_hang(const struct explain_ctx *x, struct explain_result *r);
/* NCCL's socket transport on an IPoIB interface (the node has IB). */
bool explain_socket_ipoib(const struct explain_hit *h);
/* NCCL's Using lines: whether the log shows an interface in use. */
bool explain_nccl_using(const struct explain_ctx *x);
/* NCCL connected to an address it never filled in: nccl-ifname-nomatch
 * opens where the log echoes NCCL_SOCKET_IFNAME and shows no interface
 * in use. UCX's connection manager routed to a device UCX_NET_DEVICES
 * leaves out: decides mpi-btl-iface with the fix naming the device. */
void explain_nccl_addr_unset(const struct explain_ctx *x,
			     const struct explain_hit *h,
			     struct explain_result *r);
void explain_ucx_device_off(const struct explain_hit *h,
			    struct explain_result *r);
/* NCCL dialled lo's own address: a rank's interface choice, not a
 * hostname mapping; its candidates (explain_transport.c). */
bool explain_nccl_lo(const struct explain_hit *h);
void explain_nccl_lo_cause(const struct explain_ctx *x,
			   const struct explain_hit *h,
			   struct explain_result *r);
/* NCCL's "no socket interface found" where the log shows no include
 * list: both NCCL_SOCKET_IFNAME candidates open (explain_transport.c). */
/* explain_ephem.c: NCCL's No route to host toward an advertised
 * address and its bind's Address already in use only open (issue 42). */
bool explain_nccl_noroute(const struct explain_hit *h,
			  struct explain_result *r);
bool explain_nccl_bind_in_use(const struct explain_log *lg,
			      const struct explain_hit *h,
			      struct explain_result *r);
/* explain_ephem.c: a bootstrap trace in a log that shows no interface
 * NCCL used and no NCCL_SOCKET_IFNAME opens NCCL's own pick too. */
bool explain_nccl_iface_unseen(const struct explain_ctx *x,
			       const struct explain_hit *h,
			       struct explain_result *r);
bool explain_nccl_no_iface(const struct explain_ctx *x,
			   const struct explain_hit *h,
			   struct explain_result *r);

/* explain_names.c: the names a log looked up. The fix for a name that
 * did not resolve; a host list's syntax that reached a lookup as a name
 * (launcher-syntax) and its cause; a name the launcher cut short from
 * one the log gives it (into buf, *dot when cut at its first dot) and
 * its cause; mpirun's daemons that ssh already explained (their
 * candidates go); a name ssh retried, which stays open. */
void explain_name_fix(const struct explain_hit *h, char *buf, size_t len);
bool explain_launcher_syntax(const struct explain_hit *h);
void explain_launcher_cause(const struct explain_hit *h,
			    struct explain_result *r);
const char *explain_name_cut(const struct explain_log *lg,
			     const struct explain_hit *h, char *buf,
			     size_t len, bool *dot);
void explain_cut_cause(const struct explain_hit *h, const char *given,
		       bool dot, struct explain_result *r);
void explain_ssh_orte(const struct explain_log *lg, struct explain_result *r);
/* Whether a name looked up holds a shell or Kubernetes variable never
 * expanded ($VAR, ${VAR}, $(VAR)): the variable's own text, which no
 * retry and no IPv4 lookup resolves (issue 42: blind42j d12, a
 * LeaderWorkerSet's args with $LWS_LEADER_ADDRESS, which Kubernetes
 * expands only as $(LWS_LEADER_ADDRESS)). */
bool explain_name_unexpanded(const char *n);
void explain_name_retried(const struct explain_log *lg,
			  struct explain_result *r);

/* explain_oddaddr.c: what an address of a special class adds beside a
 * line's own candidates (a container pool: container-bridge-nat; a VM's
 * NAT address: nat-detected, address-conflict), or NULL; and the rule
 * that opens a VM's NAT address wherever a process chose it. */
const char *explain_addr_extra(const struct explain_hit *h);
/* A peer's address of a special class on h: a loopback or link-local
 * one decides (its code returned), a container pool's opens NAT
 * (*open); a loopback address on a log that names no other host opens
 * EXPLAIN_LOOPBACK_ONE_HOST instead (explain_chosen_loopback). */
const char *explain_addr_cause(const struct explain_log *lg,
			       const struct explain_hit *h, char *why,
			       size_t len, const char **open);
/* What a connect toward loopback leaves open on a log that names no
 * other host (issue 42: blind42n d05, trl's client timing out on the
 * vLLM server's port that another service held, both on one host). */
#define EXPLAIN_LOOPBACK_ONE_HOST "port-closed,port-in-use,hostname-loopback"
/* Whether addr is the loopback address a program picks (127.0.0.1,
 * ::1, localhost) on a log that names no other host. */
bool explain_chosen_loopback(const struct explain_log *lg, const char *addr);
void explain_vm_nat(const struct explain_ctx *x, struct explain_result *r);
/* explain_published.c: a reset or an empty reply beside a port Docker
 * publishes opens a listener on the container's loopback (or none). */
void explain_docker_published(const struct explain_ctx *x,
			      struct explain_result *r);
/* A handshake's first message with no answer anywhere in the log (curl's
 * TLS Client hello, ssh's key exchange) opens the MTU pair
 * (explain_tls.c). */
void explain_handshake_unanswered(const struct explain_ctx *x,
				  struct explain_result *r);

/* An interface listing in which a container bridge, a veth or an
 * overlay device has a larger MTU than any uplink listed opens the MTU
 * pair (explain_mtu.c). */
void explain_mtu_listing(const struct explain_ctx *x, struct explain_result *r);

/* A pasted /etc/hosts line that maps a host name to 127.x opens
 * hostname-loopback (explain_hosts.c). */
void explain_hosts_loopback(const struct explain_ctx *x,
			    struct explain_result *r);

/* Whether a kernel "Link down" hit's interface came back: a later "Link
 * up" of the same interface in the same file (a cable plugged, a flap
 * that ended; issue 42: blind42t d02). */
bool explain_link_came_back(const struct explain_log *lg,
			    const struct explain_hit *h);

/* explain_generic.c: the lines of logsig_generic.def (the errno words
 * any program prints) open their candidates with the command that
 * decides, unless a framework row decided a network cause; quiet where
 * the log shows an HTTP client (a download's connect). */
void explain_generic(const struct explain_ctx *x, struct explain_result *r);
bool explain_generic_quiet(const struct explain_ctx *x,
			   const struct explain_hit *h);
/* Whether the log shows an HTTP client's frames (explain_ctx's
 * http_client, set once by gather). */
bool explain_http_client(const struct explain_log *lg);
/* The hit a cause's line reference points at, or NULL
 * (explain_rules.c). */
/* The first hit of a row whose id starts with prefix, or NULL
 * (explain_facts.c). */
const struct explain_hit *explain_first_hit(const struct explain_log *lg,
					    const char *prefix);
const struct explain_hit *explain_ref_hit(const struct explain_log *lg,
					  const struct explain_ref *f);
/* A character of a host name or an IPv4 address; an IPv4 or IPv6
 * literal (explain_genname.c). */
bool explain_host_char(int c);
bool explain_is_ip(const char *s);
/* The name a failed lookup's line names, after the words that
 * introduce it ("resolve host NAME", "lookup NAME", Java's
 * "UnknownHostException: NAME"), into name; false when none. Whether
 * the lookup is one no resolver was asked in earnest (a cut IPv6
 * literal, an unset setting, a shell's split argument)
 * (explain_genname.c). */
bool explain_line_name(const char *t, char *name, size_t len);
bool explain_name_not_asked(const char *t);
/* The first endpoint line t names (an IPv4 address, a bracketed IPv6
 * one, host:port), with its port when one follows; false when none. */
bool explain_line_endpoint(const char *t, char *addr, size_t alen,
			   char *port, size_t plen);
/* Whether a host name is a cluster's own (.svc, .local, .internal,
 * .lan): a peer of the job, not a public service. */
bool explain_cluster_name(const char *host);
/* explain_stale.c: a connect's open set whose line names the peer's
 * name and the address it gave adds hosts-stale, decided by getent. */
void explain_stale_name(const struct explain_log *lg,
			struct explain_result *r);
/* Whether the endpoint near h (explain_near.h) is a peer of the job, as
 * an HTTP client's connect toward it is (not a download's). */
bool explain_near_peer(const struct explain_hit *h);

#endif
