/* The side channel's fixed messages (bootstrap_wire.h): field tables of
 * lib/wire's codec (wire/proto_codec.h). The row order is the wire
 * format: never reorder. */
#include "bootstrap/bootstrap_wire.h"

#include <string.h>

#include "bootstrap/bootstrap.h"
#include "wire/proto_codec.h"

static const struct pf_field hello_f[] = {
	PF_NUM(PF_U32, offsetof(struct sc_hello, rank)),
	PF_NUM(PF_U32, offsetof(struct sc_hello, nprocs)),
};
static const struct pf_msg hello_m = PF_MSG(hello_f, struct sc_hello, NULL);

/* A u32 alone. */
struct sc_u32 {
	uint32_t v;
};
static const struct pf_field u32_f[] = {PF_NUM(PF_U32, 0)};
static const struct pf_msg u32_m = PF_MSG(u32_f, struct sc_u32, NULL);

/* u32 step, u8 alive, u32 silent ms, host in 64 bytes, NUL-padded. */
static const struct pf_field entry_f[] = {
	PF_NUM(PF_U32, offsetof(struct sc_entry, step)),
	PF_NUM(PF_U8, offsetof(struct sc_entry, alive)),
	PF_NUM(PF_U32, offsetof(struct sc_entry, silent_ms)),
	PF_FIX(struct sc_entry, host),
};
static const struct pf_msg entry_m = PF_MSG(entry_f, struct sc_entry, NULL);

_Static_assert(SC_TABLE_ENTRY == 4 + 1 + 4 + 64, "an entry's width");

/* See bootstrap_wire.h. */
void sc_hello_pack(const struct sc_hello *h, unsigned char *b)
{
	pf_pack_fixed(&hello_m, h, b, SC_HELLO_WIRE);
}

/* See bootstrap_wire.h. */
int sc_hello_unpack(const unsigned char *b, size_t len, struct sc_hello *h)
{
	if (len != SC_HELLO_WIRE)
		return -1;
	pf_unpack_fixed(&hello_m, b, len, h);
	return 0;
}

/* See bootstrap_wire.h. */
void sc_u32_pack(uint32_t v, unsigned char *b)
{
	struct sc_u32 u = {v};

	pf_pack_fixed(&u32_m, &u, b, SC_U32_WIRE);
}

/* See bootstrap_wire.h. */
uint32_t sc_u32_unpack(const unsigned char *b)
{
	struct sc_u32 u;

	pf_unpack_fixed(&u32_m, b, SC_U32_WIRE, &u);
	return u.v;
}

/* See bootstrap_wire.h. */
void sc_entry_pack(const struct sc_entry *e, unsigned char *b)
{
	pf_pack_fixed(&entry_m, e, b, SC_TABLE_ENTRY);
}

/* See bootstrap_wire.h. */
void sc_entry_unpack(const unsigned char *b, struct sc_entry *e)
{
	pf_unpack_fixed(&entry_m, b, SC_TABLE_ENTRY, e);
}
