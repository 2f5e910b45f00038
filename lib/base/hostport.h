/* The one parser of "HOST[:PORT]" every program's peer, target and
 * rendezvous arguments go through: a name or IPv4 address with an
 * optional port, "[V6]" or "[V6]:PORT", or a bare IPv6 address (whose
 * colons are no port). Ports through the checked number parser. */
#ifndef NP_HOSTPORT_H
#define NP_HOSTPORT_H

#include <stddef.h>

/* What was wrong, so a caller can word its message by the part. */
enum hostport_err {
	HOSTPORT_OK = 0,
	HOSTPORT_E_HOST = -1, /* empty, no host, unclosed '[', host too long */
	HOSTPORT_E_PORT = -2, /* the text after ':' is no port 1 to 65535 */
};

/* Splits spec into host (NUL-terminated, brackets removed) and *port
 * (def_port when spec names none). Returns HOSTPORT_OK, or a negative
 * enum hostport_err with *why a static phrase ("missing ']'", "not a
 * number") and, for a bad port, *bad pointing at the port's text in spec
 * (bad may be NULL). */
int hostport_parse(const char *spec, unsigned def_port, char *host,
                   size_t hostlen, unsigned *port, const char **why,
                   const char **bad);

/* Writes "host:port", "[v6]:port" for a host with a colon. Returns the
 * length, or -1 when it does not fit. */
int hostport_format(const char *host, unsigned port, char *buf, size_t len);

#endif
