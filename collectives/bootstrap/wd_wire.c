/* The watchdog heartbeat's entry on the wire (wd_net.h): a field table of
 * lib/wire's codec (wire/proto_codec.h), walked by its one encoder and
 * decoder, as the pre-flight's messages are (pf_wire.c). No CUDA. */
#include "bootstrap/wd_net.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wire/proto_codec.h"

/* One entry as it goes on the wire: ints as two's complement, the age in
 * ms where the struct has the time last heard. */
struct wn_entry {
	uint32_t rank, pid, gpu, phase, step, state, age_ms;
	char host[64];
};

#define WE(m) offsetof(struct wn_entry, m)

/* i32 rank, pid, gpu, phase; u32 step; i32 state; u32 age in ms; host in
 * 64 bytes (at most 63 sent, NUL-padded): WN_ENTRY_WIRE bytes, a table of
 * lib/wire's codec. The row order is the wire format: never reorder. */
static const struct pf_field entry_f[] = {
	PF_NUM(PF_U32, WE(rank)),
	PF_NUM(PF_U32, WE(pid)),
	PF_NUM(PF_U32, WE(gpu)),
	PF_NUM(PF_U32, WE(phase)),
	PF_NUM(PF_U32, WE(step)),
	PF_NUM(PF_U32, WE(state)),
	PF_NUM(PF_U32, WE(age_ms)),
	PF_FIX(struct wn_entry, host),
};
static const struct pf_msg entry_m =
	PF_MSG(entry_f, struct wn_entry, NULL);

/* See wd_net.h; nothing can fail (no checks, the fields fill the width
 * exactly). */
void wn_entry_pack(const struct nc_wd_peer *p, long long now,
		      unsigned char *b)
{
	struct wn_entry e;
	long long age = p->last_us > 0 ? (now - p->last_us) / 1000 : 0;

	memset(&e, 0, sizeof(e));
	e.rank = (uint32_t)p->rank;
	e.pid = (uint32_t)p->pid;
	e.gpu = (uint32_t)p->gpu;
	e.phase = (uint32_t)p->phase;
	e.step = p->step;
	e.state = (uint32_t)p->state;
	e.age_ms = age < 0 ? 0 : age > 0x7fffffff ? 0x7fffffffu :
						   (uint32_t)age;
	memcpy(e.host, p->host, strnlen(p->host, sizeof(e.host) - 1));
	memset(b, 0, WN_ENTRY_WIRE);
	(void)pf_encode(&entry_m, &e, b, WN_ENTRY_WIRE);
}

/* See wd_net.h. */
void wn_entry_unpack(const unsigned char *b, long long now,
		      struct nc_wd_peer *p)
{
	struct wn_entry e;
	const char *why;

	/* WN_ENTRY_WIRE bytes hold every field: it cannot fail */
	(void)pf_decode(&entry_m, b, WN_ENTRY_WIRE, &e, &why);
	p->rank = (int)e.rank;
	p->pid = (int)e.pid;
	p->gpu = (int)e.gpu;
	p->phase = (int)e.phase;
	p->step = e.step;
	p->state = (int)e.state;
	p->last_us = now - (long long)e.age_ms * 1000;
	memcpy(p->host, e.host, sizeof(p->host));
	p->host[sizeof(p->host) - 1] = '\0';
	if (p->phase < 0 || p->phase >= NC_WD_NPHASES)
		p->phase = NC_WD_START;
	if (p->state < NC_WD_UNHEARD || p->state > NC_WD_GONE)
		p->state = NC_WD_UNHEARD;
}
