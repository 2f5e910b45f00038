/* A client of NCCL's RAS service (NCCL 2.24 and later: TCP, localhost:28028
 * unless NCCL_RAS_ADDR says otherwise), speaking its text protocol as
 * NCCL's own ncclras does (src/ras/client.cc): "CLIENT PROTOCOL 2",
 * "TIMEOUT n", then "VERBOSE STATUS", whose answer ends when NCCL closes
 * the connection. */
#ifndef NP_RAS_H
#define NP_RAS_H

#include <stddef.h>

#define RAS_DEFAULT_PORT 28028
#define RAS_PROTOCOL 2
#define RAS_MAX_ANSWER (1024 * 1024)
#define RAS_TRIES 6 /* connections tried when a handshake times out */

/* Splits "HOST:PORT", "[V6]:PORT", "HOST" or ":PORT" (NCCL_RAS_ADDR's
 * forms) into host and port, localhost and 28028 where absent. Returns 0,
 * or -1 (errno EINVAL) for a malformed port. */
int ras_addr_split(const char *spec, char *host, size_t hlen, char *port,
		   size_t plen);

/* Connects within timeout_ms, shakes hands, asks for the verbose status
 * with NCCL's own collection bounded to coll_timeout_s, and reads the
 * answer (at most RAS_MAX_ANSWER bytes, within coll_timeout_s plus a
 * margin) into a malloc'd NUL-terminated *answer; a handshake that
 * times out is tried again, RAS_TRIES connections in all. Returns 0, or -1 with
 * why filled ("connect to localhost:28028: Connection refused"). */
int ras_query(const char *host, const char *port, int timeout_ms,
	      int coll_timeout_s, char **answer, char *why, size_t wlen);

#endif
