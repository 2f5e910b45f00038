/* One retry of a lost SYN, past the kernel's retransmission time, before
 * a port is called filtered: for the outbound connects and for the
 * responder's connect-back. */
#include "probe/synretry.h"

#include <netinet/in.h>
#include <string.h>
#include <time.h>

#include "base/sysroot.h"
#include "kernel/sockinfo.h"
#include "wire/proto.h"

/* One SYN-ACK resent: the peer's ACK is at least 1 s late, so not a
 * handshake still under way. */
bool synretry_synack_lost(const struct sockaddr *peer, uint16_t port)
{
	struct sysroot sr;
	const void *a;

	if (peer->sa_family == AF_INET)
		a = &((const struct sockaddr_in *)peer)->sin_addr;
	else if (peer->sa_family == AF_INET6)
		a = &((const struct sockaddr_in6 *)peer)->sin6_addr;
	else
		return false;
	return sysroot_init(&sr, NULL) == 0 &&
	       sockinfo_synrecv(&sr, peer->sa_family, a, port, 1) > 0;
}

/* A timeout is the only verdict without an answer. */
bool synretry_lost(enum port_state st, const char *reason)
{
	return st == PORT_FILTERED && reason != NULL &&
	       strcmp(reason, "timeout") == 0;
}

/* A first attempt shorter than SYNRETRY_US sent one SYN only. */
long long synretry_timeout(long long first_us)
{
	return first_us > 0 && first_us < SYNRETRY_US ? SYNRETRY_US : 0;
}

/* Marks the lost results pending and runs them again. */
int synretry_tcp(const struct sockaddr *addr, socklen_t alen,
                 struct port_result *r, size_t n, const struct portscan_opts *o)
{
	struct portscan_opts ro = *o;
	int k = 0;

	ro.timeout_us = synretry_timeout(o->timeout_us);
	if (ro.timeout_us == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (r[i].proto == IPPROTO_TCP && !r[i].pending &&
		    synretry_lost(r[i].state, r[i].reason)) {
			r[i].pending = true;
			r[i].attempts = 2;
			k++;
		}
	if (k == 0)
		return 0;
	if (portscan_tcp(addr, alen, r, n, &ro) < 0) {
		for (size_t i = 0; i < n; i++)
			if (r[i].attempts == 2 && r[i].pending) {
				r[i].pending = false;
				r[i].attempts = 1;
			}
		return -1;
	}
	return k;
}

/* The lost ports go back to the responder in one request. */
int synretry_connect_back(struct np_client *c, const uint16_t *ports, size_t n,
                          long long first_us, enum port_state *st,
                          char reasons[][CLIENT_REASON_MAX], long long *rtt,
                          int *attempts)
{
	uint16_t p[PROTO_MAX_PORTS];
	size_t idx[PROTO_MAX_PORTS], k = 0;
	enum port_state st2[PROTO_MAX_PORTS];
	char reasons2[PROTO_MAX_PORTS][CLIENT_REASON_MAX];
	long long rtt2[PROTO_MAX_PORTS];
	long long tmo = synretry_timeout(first_us);

	if (tmo == 0)
		return 0;
	for (size_t i = 0; i < n && k < PROTO_MAX_PORTS; i++)
		if (synretry_lost(st[i], reasons[i])) {
			idx[k] = i;
			p[k++] = ports[i];
		}
	if (k == 0)
		return 0;
	/* the responder allows a few heavy requests per second: a refusal
	 * for that is waited out, 300 ms at a time, three times at most */
	for (int tries = 0;; tries++) {
		struct timespec ts = {0, 300000000};

		if (client_connect_back(c, PROTO_TCP, p, k, tmo, st2, reasons2,
		                        rtt2) == 0)
			break;
		if (tries >= 3 || c->code != CLIENT_E_REFUSED ||
		    c->err_code != PROTO_E_LIMIT)
			return -1;
		nanosleep(&ts, NULL);
	}
	for (size_t j = 0; j < k; j++) {
		st[idx[j]] = st2[j];
		memcpy(reasons[idx[j]], reasons2[j], CLIENT_REASON_MAX);
		if (rtt != NULL)
			rtt[idx[j]] = rtt2[j];
		if (attempts != NULL)
			attempts[idx[j]] = 2;
	}
	return (int)k;
}

/* Only a connect that heard nothing is tried again; a refusal, an
 * unreachable or a silent responder after the connect stand. */
int synretry_open(struct np_client *c, const char *host, unsigned port,
                  long long timeout_us, const char *token_file)
{
	long long tmo = synretry_timeout(timeout_us > 0 ? timeout_us : 2000000);

	if (client_open(c, host, port, timeout_us, token_file) == 0)
		return 0;
	if (tmo == 0 || !c->connect_silent)
		return -1;
	client_close(c);
	return client_open(c, host, port, tmo, token_file);
}
