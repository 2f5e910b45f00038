/* libFuzzer target for the mesh rendezvous on node 0 (mesh_rdv_join.c):
 * whole conversations of up to four would-be members, their frames fed in
 * the chunks the input says to the rendezvous's input function, with the
 * mesh started at the point the input says, against an open node 0 or one
 * with a token. Input: byte 0 picks the token, then chunks of
 * [member (1 byte; 0xff starts the mesh)][length (1 byte)][bytes]. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "mesh/mesh_rdv.h"
#include "rdv_append.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *token_path;

/* The token file goes when the fuzzer exits. */
static void drop_token(void)
{
	if (token_path != NULL)
		unlink(token_path);
}

#define NMEM 4

static struct mesh ms[2];

/* Node 0 of a four-node mesh: open, and with a token. */
static void start(void)
{
	static char tok[] = "/tmp/np-fuzz-rdv-token-XXXXXX";
	int fd = mkstemp(tok);

	if (fd < 0 || write(fd, "fuzz-token-0123\n", 16) != 16)
		abort();
	close(fd);
	token_path = tok;
	atexit(drop_token);
	for (int i = 0; i < 2; i++) {
		ms[i].n = NMEM;
		ms[i].rank = 0;
		ms[i].o.token_file = i ? tok : NULL;
		ms[i].o.join_us = 60000000;
		ms[i].m = calloc(NMEM, sizeof(*ms[i].m));
		if (ms[i].m == NULL || mesh_rdv_init(&ms[i]) < 0)
			abort();
	}
}

/* Every member missing again, nothing started, no rejects kept. */
static void reset(struct mesh *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->m[i].doc);
		memset(&m->m[i], 0, sizeof(m->m[i]));
		m->m[i].state = PROTO_MS_MISSING;
		snprintf(m->m[i].entry, sizeof(m->m[i].entry), "node%zu", i);
		snprintf(m->m[i].name, sizeof(m->m[i].name), "node%zu", i);
	}
	m->m[0].state = PROTO_MS_JOINED;
	m->rdv->started = false;
	m->nrejects = 0;
	m->t0_us = mono_now_us();
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdv_conn *c[NMEM] = {0};
	struct mesh *m;
	size_t off = 1;

	if (ms[0].m == NULL)
		start();
	if (size < 1)
		return 0;
	m = &ms[data[0] & 1];
	reset(m);
	for (int i = 0; i < NMEM; i++) {
		c[i] = calloc(1, sizeof(*c[i]));
		if (c[i] == NULL)
			goto out;
		c[i]->fd = -1;
		c[i]->member = -1;
		snprintf(c[i]->addr, sizeof(c[i]->addr), "10.231.0.%d", i + 1);
		c[i]->port = 40000 + (unsigned)i;
	}
	while (off + 2 <= size) {
		uint8_t who = data[off], n = data[off + 1];
		struct rdv_conn *k;

		off += 2;
		if (n > size - off)
			n = (uint8_t)(size - off);
		if (who == 0xff) {
			m->rdv->started = true;
			continue;
		}
		k = c[who % NMEM];
		if (n == 0 || k->st == RC_DEAD || k->st == RC_CLOSING ||
		    append(k, data + off, n) < 0) {
			off += n;
			continue;
		}
		off += n;
		rdv_conn_frames(m, k);
		k->nout = k->outoff = 0; /* replies are read by nobody */
	}
out:
	for (int i = 0; i < NMEM; i++) {
		if (c[i] == NULL)
			continue;
		free(c[i]->in);
		free(c[i]->out);
		free(c[i]->doc);
		free(c[i]);
	}
	return 0;
}
