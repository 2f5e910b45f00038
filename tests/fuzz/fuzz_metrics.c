/* libFuzzer target for the /metrics request reader (issue 45): one client
 * per input, its bytes sent in the chunks the input says through a
 * socketpair, the server's read and answer run on this thread
 * (metrics_http_step) against an endpoint with text published or without
 * (503), every reply drained. Input: byte 0 picks the endpoint, then
 * chunks of [length (2 bytes, little-endian, at most 8191)][bytes]. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "metrics/metrics_http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define STEPS_AFTER 8 /* reads and writes once the client has sent all */

static struct metrics_http *ep[2];

/* Two endpoints on loopback (nobody connects: this thread drives their
 * reader): one with a text, one before its first. --metrics takes no
 * port 0, so free ports are looked for, a bounded number, from one the
 * process id picks (parallel runs). Their threads only wake once a
 * second to poll: the few edges of that loop count once, toward
 * whichever input runs then, and never again. */
static void start(void)
{
	static const char text[] = "# TYPE netprobe_up gauge\nnetprobe_up 1\n";
	unsigned port = 20000 + (unsigned)getpid() % 20000;
	char err[256], spec[32];

	for (int i = 0, tries = 0; i < 2; tries++) {
		if (tries == 1000) {
			fprintf(stderr, "fuzz_metrics: %s\n", err);
			abort();
		}
		snprintf(spec, sizeof(spec), "127.0.0.1:%u",
			 port + (unsigned)tries);
		ep[i] = metrics_http_start(spec, err, sizeof(err));
		if (ep[i] != NULL)
			i++;
	}
	if (metrics_http_publish(ep[0], text, sizeof(text) - 1) < 0)
		abort();
	signal(SIGPIPE, SIG_IGN);
}

/* Reads and drops what the server sent. */
static void drain(int fd)
{
	uint8_t b[16384];

	for (int i = 0; i < 64 && recv(fd, b, sizeof(b), MSG_DONTWAIT) > 0;
	     i++)
		;
}

/* One client's exchange: the input's chunks, then its end of the stream;
 * the client is dropped if the reader still holds it after that. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mh_client *c = NULL;
	struct metrics_http *m;
	size_t off = 1;
	int sv[2], up = 1;

	if (ep[0] == NULL)
		start();
	if (size < 1 || size > 65536)
		return 0;
	m = ep[data[0] & 1];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
		       sv) < 0)
		return 0;
	while (off + 2 <= size && up) {
		size_t n = (data[off] | (size_t)data[off + 1] << 8) & 0x1fff;

		off += 2;
		if (n > size - off)
			n = size - off;
		/* a short send is the client's loss, as on a socket */
		if (n > 0)
			(void)!send(sv[1], data + off, n,
				    MSG_DONTWAIT | MSG_NOSIGNAL);
		off += n;
		up = metrics_http_step(m, &c, sv[0]);
		drain(sv[1]);
	}
	shutdown(sv[1], SHUT_WR);
	for (int i = 0; i < STEPS_AFTER && up; i++) {
		up = metrics_http_step(m, &c, sv[0]);
		drain(sv[1]);
	}
	/* sv[0] is the server's from the first step on: it closes it */
	if (up)
		metrics_http_step(m, &c, -1);
	close(sv[1]);
	return 0;
}
