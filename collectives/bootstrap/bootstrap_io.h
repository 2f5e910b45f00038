/* The side channel's lowest layer: TCP listen and connect with a deadline
 * (lib/base's clock and socket waits), and framed messages ({u32 type, u32
 * length} then payload) where every read and write is bounded. Used by
 * the side channel (bootstrap.c) and the torch store client (tcpstore.c).
 * No CUDA. */
#ifndef NC_BOOTSTRAP_IO_H
#define NC_BOOTSTRAP_IO_H

#include <stddef.h>
#include <stdint.h>

#define SC_FRAME_MAX (64u << 20) /* largest payload accepted */
#define SC_IO_GRACE_US 2000000   /* a started frame must finish in this */

/* Opens a TCP listener on addr ("0.0.0.0", "::", or an address) and port
 * (0: ephemeral). Returns the socket and the bound port in *bound, or -1
 * with errno kept. */
int sc_listen(const char *addr, int port, int *bound);

/* Connects to host:port before deadline_us (absolute, mono_now_us clock).
 * Returns the socket, or -1 with errno (ETIMEDOUT, ECONNREFUSED...). */
int sc_connect(const char *host, int port, long long deadline_us);

/* Reads or writes exactly len bytes before deadline_us. Return 0, or -1
 * with errno (ECONNRESET for end of file, ETIMEDOUT). */
int sc_read_full(int fd, void *buf, size_t len, long long deadline_us);
int sc_write_full(int fd, const void *buf, size_t len,
		  long long deadline_us);

/* Sends one frame before deadline_us. Returns 0, or -1 with errno. */
int sc_send_frame(int fd, uint32_t type, const void *payload, size_t len,
		  long long deadline_us);

/* Sends one frame only when the socket takes it at once (heartbeats to a
 * peer that may be frozen must never wait). Returns 0, 1 when skipped,
 * or -1 with errno. */
int sc_try_send_frame(int fd, uint32_t type, const void *payload,
		      size_t len);

/* Receives one frame (call when the socket is readable): *payload is
 * malloc'd (NULL when empty). Returns 0, or -1 with errno (EPROTO for a
 * length past SC_FRAME_MAX). */
int sc_recv_frame(int fd, uint32_t *type, void **payload, size_t *len);

#endif
