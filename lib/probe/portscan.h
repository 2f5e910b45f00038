/* Parallel TCP port checks: non-blocking connects under epoll, each with
 * its own deadline, classified from SO_ERROR and the ICMP error queue
 * (IP_RECVERR); and the findings `netprobe ports` and `scan --peer` draw
 * from the results. */
#ifndef NP_PORTSCAN_H
#define NP_PORTSCAN_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <jansson.h>

#include "doc/doc.h"
#include "probe/portspec.h"
#include "wire/portstate.h"

#define PORTSCAN_DEFAULT_PARALLEL 4096
#define PORTSCAN_DEFAULT_TIMEOUT_US 2000000LL

/* One port's verdict. */
struct port_result {
	uint16_t port;
	uint8_t proto;         /* IPPROTO_TCP or IPPROTO_UDP */
	uint8_t flags;         /* PSPEC_F_* of the request */
	const char *why;       /* preset that asked for it, or NULL */
	bool pending;          /* portscan_tcp is to test it */
	bool loopback_only;    /* the local socket table: bound to loopback */
	bool held;             /* the responder's temporary listener: an
				* answer proves the path, not a service */
	enum port_state state;
	char reason[40];       /* "syn-ack", "rst", "timeout", "icmp type 3
				* code 13", "no route", "no responder" */
	long long rtt_us;      /* until the answer; -1 none (timeout) */
	uint8_t attempts;      /* connects made: 0 untested, 2 when the
				* first got no answer (probe/synretry.h) */
	bool synack_lost;      /* inbound: the peer's connect timed out
				* while our kernel holds its SYN half open,
				* our SYN-ACK resent: the SYN came, our
				* answer did not get back */
	char icmp_from[INET6_ADDRSTRLEN]; /* sender of the ICMP error, "" */
};

/* What ended one connect attempt: the input of the classifier. */
struct conn_outcome {
	int err;          /* connect()'s errno or SO_ERROR; 0 connected */
	bool timed_out;   /* the deadline passed with no answer */
	bool icmp;        /* an ICMP error was read from the error queue */
	bool icmp6;       /* ... and it was ICMPv6 */
	int icmp_type, icmp_code;
};

struct portscan_opts {
	long long timeout_us; /* per port, from its own connect() */
	int parallel;         /* most connects in flight */
};

/* Pure: the state for an outcome, and what settled it written to reason
 * ("syn-ack", "rst", "timeout", "icmp type 3 code 13", "no route", ...). */
enum port_state portscan_classify(const struct conn_outcome *c, char *reason,
				  size_t len);

/* Fresh results for every port of pl (pending set, state unknown). Returns
 * the array (caller frees) with its length in *n, or NULL with errno. */
struct port_result *portscan_results(const struct port_list *pl, size_t *n);

/* Connects to addr (its port replaced) on every result with pending and
 * proto TCP, at most o->parallel at once, each abandoned o->timeout_us
 * after its own start; fills state, reason, rtt_us and clears pending.
 * Bounded: returns within about (ports / parallel + 1) timeouts. Returns
 * 0, or -1 with errno when epoll or memory failed (results untouched). */
int portscan_tcp(const struct sockaddr *addr, socklen_t alen,
		 struct port_result *r, size_t n,
		 const struct portscan_opts *o);

/* The most connects this process can hold open at once: the soft
 * RLIMIT_NOFILE less a reserve, at least 1. */
int portscan_fd_budget(void);

/* Marks, from the local socket table, the TCP results whose port has a
 * listener bound to loopback addresses only (see sockinfo.h). Returns how
 * many were marked. */
struct sock_table;
size_t portscan_mark_loopback(struct port_result *r, size_t n,
			      const struct sock_table *t);

/* The state as JSON and text name it: "reachable" for an open port the
 * responder held (the path and firewalls let it through, nothing else
 * listens there), else port_state_name(). */
const char *portscan_state_name(const struct port_result *r);

/* The JSON port object {port, proto, state, reason, rtt_us, preset,
 * attempts, held}. */
json_t *portscan_json_port(const struct port_result *r);

/* An array of port objects; NULL on no memory. */
json_t *portscan_json_ports(const struct port_result *r, size_t n);

/* True when every tested result is open, so the exit status is 0. Ports
 * left unknown count as not open. */
bool ports_all_open(const struct port_result *r, size_t n);

#endif
