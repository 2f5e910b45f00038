/* The idle probe (issue 48): one TCP connection to a peer's responder,
 * held idle past a stateful box's idle timeout, then used again. A box
 * (a firewall, a NAT, a load balancer) that forgot the connection drops
 * what follows, so the echo sent after the idle spell is never
 * answered, while fresh connections pass. */
#ifndef NP_IDLEPROBE_H
#define NP_IDLEPROBE_H

enum idle_state {
	IDLE_UNTESTED = 0,
	IDLE_ALIVE,   /* the echo after the idle spell was answered */
	IDLE_KILLED,  /* it was not, within the wait: the connection died */
	IDLE_NOCONN,  /* the connection could not be made */
};

struct idle_result {
	enum idle_state state;
	long long held_ms; /* how long it stayed idle */
	long long wait_ms; /* how long the acknowledgement was waited for */
	unsigned port;
	char err[300]; /* why, for IDLE_NOCONN or an answer that was no echo */
};

/* The state's name in documents ("alive", "killed", "no-connection",
 * "untested"). */
const char *idle_state_name(enum idle_state s);

/* Opens a responder connection to addr:port (HELLO, authenticated with
 * token_file when not NULL, one echo), stays idle idle_us, then echoes
 * once more and waits up to wait_us for the reply (an error other than
 * silence, a reset, is an answer too). Fills r; r->state IDLE_NOCONN
 * says the connection could not be made or was closed by the responder.
 * Returns 0. */
int idle_probe(const char *addr, unsigned port, const char *token_file,
               long long idle_us, long long wait_us, struct idle_result *r);

#endif
