/* LISTEN and CONNECT_BACK: the responder opens short-lived listeners for
 * us to reach, or connects back to us, and says what happened per port. */
#include "wire/client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/client_conn.h"

/* LISTEN and its reply; ports NULL with EPHEMERAL. Returns 0, or -1. */
static int do_listen(struct np_client *c, struct proto_listen *req,
                     struct proto_listen_reply *rep)
{
	const char *why;
	ssize_t n;
	int len;

	len =
	    proto_listen_encode(req, c->buf + PROTO_HDR_LEN, PROTO_MAX_PAYLOAD);
	if (len < 0)
		return client_fail(c, CLIENT_E_USAGE, "invalid listen request");
	n = client_call(c, PROTO_LISTEN, (size_t)len, PROTO_LISTEN_REPLY);
	if (n < 0)
		return -1;
	if (proto_listen_reply_decode(c->buf + PROTO_HDR_LEN, (size_t)n, rep,
	                              &why) < 0)
		return client_fail(c, CLIENT_E_PROTOCOL, "bad listen reply: %s",
		                   why);
	return 0;
}

/* Clamps a lifetime in microseconds to the u32 milliseconds on the wire. */
static uint32_t to_ms(long long us)
{
	if (us <= 0)
		return 0;
	if (us / 1000 > 0xffffffffLL)
		return 0xffffffffu;
	return (uint32_t)((us + 999) / 1000);
}

/* LISTEN on the given ports; opened[i] per port. */
int client_listen(struct np_client *c, int proto, const uint16_t *ports,
                  size_t n, long long lifetime_us, bool *opened)
{
	struct proto_listen req = {0};
	struct proto_listen_reply *rep;
	int rc = -1;

	if (n == 0 || n > PROTO_MAX_PORTS)
		return client_fail(c, CLIENT_E_USAGE, "between 1 and %d ports",
		                   PROTO_MAX_PORTS);
	rep = malloc(sizeof(*rep));
	if (!rep)
		return client_fail(c, CLIENT_E_IO, "out of memory");
	req.proto = (uint8_t)proto;
	req.lifetime_ms = to_ms(lifetime_us);
	req.nports = (uint16_t)n;
	memcpy(req.ports, ports, n * sizeof(*ports));
	if (do_listen(c, &req, rep) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		opened[i] = false;
		for (size_t j = 0; j < rep->nports; j++)
			if (rep->ports[j] == ports[i] &&
			    rep->status[j] == PROTO_LS_OPENED)
				opened[i] = true;
	}
	rc = 0;
out:
	free(rep);
	return rc;
}

/* LISTEN with the EPHEMERAL flag: the responder picks the ports. */
int client_listen_ephemeral(struct np_client *c, int proto, size_t nsamples,
                            long long lifetime_us, uint16_t *ports_out,
                            size_t *nout, unsigned *range_lo,
                            unsigned *range_hi)
{
	struct proto_listen req = {0};
	struct proto_listen_reply *rep;
	int rc = -1;

	*nout = 0;
	if (nsamples == 0 || nsamples > PROTO_MAX_PORTS)
		return client_fail(c, CLIENT_E_USAGE,
		                   "between 1 and %d samples", PROTO_MAX_PORTS);
	rep = malloc(sizeof(*rep));
	if (!rep)
		return client_fail(c, CLIENT_E_IO, "out of memory");
	req.proto = (uint8_t)proto;
	req.flags = PROTO_LISTEN_EPHEMERAL;
	req.lifetime_ms = to_ms(lifetime_us);
	req.nports = (uint16_t)nsamples;
	if (do_listen(c, &req, rep) < 0)
		goto out;
	for (size_t j = 0; j < rep->nports && *nout < nsamples; j++)
		if (rep->status[j] == PROTO_LS_OPENED)
			ports_out[(*nout)++] = rep->ports[j];
	if (range_lo)
		*range_lo = rep->range_lo;
	if (range_hi)
		*range_hi = rep->range_hi;
	rc = 0;
out:
	free(rep);
	return rc;
}

/* CONNECT_BACK; the call waits for the responder's own timeout too. */
int client_connect_back(struct np_client *c, int proto, const uint16_t *ports,
                        size_t n, long long timeout_us, enum port_state *states,
                        char reasons[][CLIENT_REASON_MAX], long long *rtt_us)
{
	struct proto_connect_back req = {0};
	struct proto_connect_back_reply *rep;
	long long saved = c->timeout_us;
	const char *why;
	ssize_t len;
	int elen, rc = -1;

	if (n == 0 || n > PROTO_MAX_PORTS)
		return client_fail(c, CLIENT_E_USAGE, "between 1 and %d ports",
		                   PROTO_MAX_PORTS);
	rep = malloc(sizeof(*rep));
	if (!rep)
		return client_fail(c, CLIENT_E_IO, "out of memory");
	req.proto = (uint8_t)proto;
	req.timeout_ms = to_ms(timeout_us);
	req.nports = (uint16_t)n;
	memcpy(req.ports, ports, n * sizeof(*ports));
	elen = proto_connect_back_encode(&req, c->buf + PROTO_HDR_LEN,
	                                 PROTO_MAX_PAYLOAD);
	if (elen < 0) {
		client_fail(c, CLIENT_E_USAGE, "invalid connect-back request");
		goto out;
	}
	/* the responder needs up to its own timeout before it answers */
	c->timeout_us = saved + (timeout_us > 0 ? timeout_us : 0);
	len = client_call(c, PROTO_CONNECT_BACK, (size_t)elen,
	                  PROTO_CONNECT_BACK_REPLY);
	c->timeout_us = saved;
	if (len < 0)
		goto out;
	if (proto_connect_back_reply_decode(c->buf + PROTO_HDR_LEN, (size_t)len,
	                                    rep, &why) < 0) {
		client_fail(c, CLIENT_E_PROTOCOL, "bad connect-back reply: %s",
		            why);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		states[i] = PORT_UNKNOWN;
		snprintf(reasons[i], CLIENT_REASON_MAX, "no answer");
		if (rtt_us)
			rtt_us[i] = -1;
		for (size_t j = 0; j < rep->nports; j++) {
			if (rep->r[j].port != ports[i])
				continue;
			states[i] = (enum port_state)rep->r[j].state;
			snprintf(reasons[i], CLIENT_REASON_MAX, "%s",
			         rep->r[j].reason);
			if (rtt_us && rep->r[j].rtt_us != 0xffffffffu)
				rtt_us[i] = rep->r[j].rtt_us;
		}
	}
	rc = 0;
out:
	free(rep);
	return rc;
}
