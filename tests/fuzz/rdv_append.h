/* Shared by the rendezvous fuzz targets (fuzz_rdv, fuzz_watch): feeding
 * a connection's input buffer as the rendezvous's own read does, so both
 * drive rdv_conn_frames the same way. */
#ifndef NP_FUZZ_RDV_APPEND_H
#define NP_FUZZ_RDV_APPEND_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_rdv.h"

/* Appends n bytes to c's input, as conn_read does. Returns -1 when full. */
static int append(struct rdv_conn *c, const uint8_t *p, size_t n)
{
	if (n == 0)
		return 0;
	if (c->nin + n > c->incap) {
		size_t cap = c->nin + n + 4096;
		uint8_t *v;

		if (cap > RDV_FRAME_MAX + 4096)
			return -1;
		v = realloc(c->in, cap);
		if (v == NULL)
			return -1;
		c->in = v;
		c->incap = cap;
	}
	memcpy(c->in + c->nin, p, n);
	c->nin += n;
	return 0;
}

#endif
