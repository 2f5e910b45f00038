/* libFuzzer target for the responder's connection state machine: one
 * client per input, its bytes sent in the chunks the input says (so
 * frames arrive whole, split or many at once), through a socketpair
 * adopted by a real server (open, or with a token), every reply drained.
 * Input: byte 0 picks the server and the client's port, then chunks of
 * [length (1 byte)][bytes]. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve/serve.h"
#include "serve/serve_conn.h"
#include "serve/serve_guard.h"
#include "serve/serve_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *token_path;

/* The token file goes when the fuzzer exits. */
static void drop_token(void)
{
	if (token_path != NULL)
		unlink(token_path);
}

static struct server *srv[2];

/* An open responder and one with a token, on ephemeral loopback ports. */
static void start(void)
{
	static char tok[] = "/tmp/np-fuzz-token-XXXXXX";
	struct serve_opts o;
	char err[256];
	int fd = mkstemp(tok);

	if (fd < 0 || write(fd, "fuzz-token-0123\n", 16) != 16)
		abort();
	close(fd);
	token_path = tok;
	atexit(drop_token);
	for (int i = 0; i < 2; i++) {
		serve_opts_init(&o);
		o.port = 0;
		o.bind = "127.0.0.1";
		o.max_clients = 64;
		o.token_file = i ? tok : NULL;
		srv[i] = serve_start(&o, err, sizeof(err));
		if (srv[i] == NULL) {
			fprintf(stderr, "fuzz_serve: %s\n", err);
			abort();
		}
	}
	signal(SIGPIPE, SIG_IGN);
}

/* Reads and drops what the server sent. */
static void drain(int fd)
{
	uint8_t b[65536];

	while (recv(fd, b, sizeof(b), MSG_DONTWAIT) > 0)
		;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_in sin = {.sin_family = AF_INET};
	struct sockaddr_storage ss = {0};
	struct server *s;
	size_t off = 1;
	int sv[2];

	if (srv[0] == NULL)
		start();
	if (size < 1)
		return 0;
	s = srv[data[0] & 1];
	sin.sin_addr.s_addr = htonl(0x7f000001);
	sin.sin_port = htons((uint16_t)(40000 + (data[0] >> 1)));
	memcpy(&ss, &sin, sizeof(sin));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
		       sv) < 0)
		return 0;
	if (sv_adopt(s, sv[0], &ss, sizeof(sin)) < 0) {
		close(sv[1]);
		return 0;
	}
	while (off < size) {
		size_t n = data[off++];

		if (n > size - off)
			n = size - off;
		if (n > 0 && send(sv[1], data + off, n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
			drain(sv[1]);
			send(sv[1], data + off, n, MSG_DONTWAIT | MSG_NOSIGNAL);
		}
		off += n;
		serve_poll(s, 0, NULL);
		drain(sv[1]);
	}
	shutdown(sv[1], SHUT_WR);
	for (int i = 0; i < 3; i++) {
		serve_poll(s, 0, NULL);
		drain(sv[1]);
	}
	close(sv[1]);
	/* whatever is still connected goes, so inputs do not pile up */
	for (unsigned i = 0; i < s->o.max_clients; i++)
		if (s->conns[i])
			sv_conn_close(s, s->conns[i], NULL);
	serve_poll(s, 0, NULL);
	return 0;
}
