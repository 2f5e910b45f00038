/* libFuzzer target for the watch branch of the mesh rendezvous on node 0
 * (issue 45; fuzz_rdv.c drives the joins): the mesh has started and its
 * verdict is sent, and under --watch the members stay connected and send
 * node 0 their changes (RESULT frames of one JSON object each) and echoes
 * (mesh_rdv_join.c, on_result and take_change). Three members (ranks 1 to
 * 3) and one newcomer send what the input says, in its chunks, to the
 * rendezvous's input function; the changes node 0 kept are written out
 * as its report would. Input: byte 0 says which members' documents came
 * (bits 0-2: ranks 1-3), whether node 0 is verbose (bit 3) and whether
 * its log of changes is one short of full (bit 4); then chunks of
 * [connection (1 byte)][length (2 bytes, little-endian)][bytes]. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/monoclock.h"
#include "mesh/mesh_rdv.h"
#include "rdv_append.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NMEM 4      /* node 0 and ranks 1 to 3 */
#define NCONN 4     /* ranks 1 to 3, and a connection that never joined */
#define INPUT_MAX 262144

static struct mesh ms;
static json_t *full; /* a log of MESH_WATCH_LOG_MAX - 1 changes */

/* Node 0 of a four-node mesh that watches; its notes go to /dev/null. */
static void start(void)
{
	FILE *null = fopen("/dev/null", "w");

	if (null == NULL)
		abort();
	ms.run.tool = "netprobe";
	ms.run.name = "mesh";
	ms.run.err = null;
	ms.n = NMEM;
	ms.rank = 0;
	ms.o.join_us = 60000000;
	ms.o.watch_us = 1000000;
	ms.m = calloc(NMEM, sizeof(*ms.m));
	full = json_array();
	if (ms.m == NULL || full == NULL || mesh_rdv_init(&ms) < 0)
		abort();
	for (int i = 0; i < MESH_WATCH_LOG_MAX - 1; i++)
		if (json_array_append_new(full, json_object()) < 0)
			abort();
}

/* Every member joined, those whose bit is set with their document in,
 * the mesh started, the log of changes empty or one short of full. */
static int reset(uint8_t flags)
{
	for (size_t i = 0; i < ms.n; i++) {
		struct mesh_member *m = &ms.m[i];

		free(m->doc);
		memset(m, 0, sizeof(*m));
		m->state = PROTO_MS_JOINED;
		snprintf(m->entry, sizeof(m->entry), "node%zu", i);
		snprintf(m->name, sizeof(m->name), "node%zu", i);
		if (i > 0 && !(flags & 1u << (i - 1)))
			continue;
		m->fate = MESH_FATE_DONE;
		m->doc = strdup("{}");
		if (m->doc == NULL)
			return -1;
		m->doclen = 2;
	}
	ms.rdv->started = true;
	ms.nrejects = 0;
	ms.watch_dropped = 0;
	ms.o.verbose = flags & 8 ? 1 : 0;
	ms.t0_us = mono_now_us();
	ms.watch_log = flags & 16 ? json_incref(full) : json_array();
	return ms.watch_log == NULL ? -1 : 0;
}


/* The changes kept, written out as node 0's report writes its `watch`
 * object; the shared full log back to its size. */
static void finish(void)
{
	char *s = json_dumps(ms.watch_log, JSON_INDENT(2) | JSON_SORT_KEYS);

	free(s);
	while (json_array_size(full) > MESH_WATCH_LOG_MAX - 1)
		json_array_remove(full, json_array_size(full) - 1);
	json_decref(ms.watch_log);
	ms.watch_log = NULL;
}

/* The connections: ranks 1 to 3 in, the last one new. */
static int conns(struct rdv_conn **c)
{
	for (int i = 0; i < NCONN; i++) {
		c[i] = calloc(1, sizeof(*c[i]));
		if (c[i] == NULL)
			return -1;
		c[i]->fd = -1;
		c[i]->member = i + 1 < NMEM ? i + 1 : -1;
		c[i]->st = i + 1 < NMEM ? RC_IN : RC_NEW;
		snprintf(c[i]->addr, sizeof(c[i]->addr), "10.231.0.%d", i + 1);
		c[i]->port = 40000 + (unsigned)i;
	}
	return 0;
}

/* One watch after the verdict: the input's frames to node 0, then what
 * it kept written out and every connection freed. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdv_conn *c[NCONN] = {0};
	size_t off = 1;

	if (ms.m == NULL)
		start();
	if (size < 1 || size > INPUT_MAX)
		return 0;
	if (reset(data[0]) < 0 || conns(c) < 0)
		goto out;
	while (off + 3 <= size) {
		struct rdv_conn *k = c[data[off] % NCONN];
		size_t n = data[off + 1] | (size_t)data[off + 2] << 8;

		off += 3;
		if (n > size - off)
			n = size - off;
		if (n == 0 || k->st == RC_DEAD || k->st == RC_CLOSING ||
		    append(k, data + off, n) < 0) {
			off += n;
			continue;
		}
		off += n;
		rdv_conn_frames(&ms, k);
		k->nout = k->outoff = 0; /* replies are read by nobody */
	}
out:
	if (ms.watch_log != NULL)
		finish();
	for (int i = 0; i < NCONN; i++) {
		if (c[i] == NULL)
			continue;
		free(c[i]->in);
		free(c[i]->out);
		free(c[i]->doc);
		free(c[i]);
	}
	return 0;
}
