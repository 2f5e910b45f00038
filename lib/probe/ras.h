/* A client of NCCL's RAS service (NCCL 2.24 and later: TCP, localhost:28028
 * unless NCCL_RAS_ADDR says otherwise), speaking its text protocol as
 * NCCL's own ncclras does (src/ras/client.cc): "CLIENT PROTOCOL 2",
 * "TIMEOUT n", then "VERBOSE STATUS", whose answer ends when NCCL closes
 * the connection. */
#ifndef NP_RAS_H
#define NP_RAS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define RAS_DEFAULT_PORT 28028
#define RAS_PROTOCOL 2
/* a JSON answer holds about 600 bytes a rank: 32 MiB is 50,000 ranks */
#define RAS_MAX_ANSWER (32 * 1024 * 1024)
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

/* How one question is asked: connect and handshake bound, NCCL's own
 * collection bound, the format, and an overall deadline (a monotonic
 * millisecond clock, ras_now_ms; 0 none) no wait passes. */
struct ras_ask {
	int timeout_ms;
	int coll_timeout_s;
	bool json;
	long long deadline_ms;
};

/* The monotonic clock the deadlines use, in milliseconds. */
long long ras_now_ms(void);

/* ras_query, with SET FORMAT json first when a->json: *json says whether
 * the answer is JSON (NCCL 2.28.7 and later) or text (the service did not
 * know the command). Returns 0, or -1 with why filled. */
int ras_ask_status(const char *host, const char *port,
		   const struct ras_ask *a, char **answer, bool *json,
		   char *why, size_t wlen);

/* Opens the MONITOR stream (NCCL 2.29 and later), in JSON when a->json
 * and the service takes it. Bytes that came after its OK go to rest.
 * Returns the socket, -2 when the service does not know MONITOR (older
 * NCCL: poll STATUS instead), or -1 with why filled. */
int ras_monitor_open(const char *host, const char *port,
		     const struct ras_ask *a, bool *json, char *rest,
		     size_t rlen, char *why, size_t wlen);

/* Appends to buf (NUL-terminated, cap bytes) what the stream sends
 * within wait_ms. Returns 0, 1 when the job closed the stream, or -1 on
 * an error. */
int ras_monitor_read(int fd, char *buf, size_t cap, int wait_ms);

#endif
