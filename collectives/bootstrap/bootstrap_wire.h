/* The side channel's fixed messages on the wire (bootstrap.h names the
 * frames): HELLO, a u32 alone (ARRIVE's step, the watchdog's port, the
 * pre-flight's counts) and an arrival table's entry, each a field table
 * of lib/wire's codec walked by its one encoder and decoder, as the
 * pre-flight's messages are. No CUDA. */
#ifndef NC_BOOTSTRAP_WIRE_H
#define NC_BOOTSTRAP_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define SC_HELLO_WIRE 8  /* u32 rank, u32 nprocs */
#define SC_U32_WIRE 4    /* one u32 */

/* What a process says when it joins. */
struct sc_hello {
	uint32_t rank, nprocs;
};

/* One process's line of the arrival table (SC_TABLE_ENTRY bytes). */
struct sc_entry {
	uint32_t step;      /* the last step it started */
	uint8_t alive;      /* 0 once its connection closed */
	uint32_t silent_ms; /* since the hub last heard it */
	char host[64];      /* "" unknown; at most 63 bytes sent */
};

/* Packs a HELLO into SC_HELLO_WIRE bytes at b. */
void sc_hello_pack(const struct sc_hello *h, unsigned char *b);

/* Unpacks a HELLO. Returns 0, or -1 when len is not SC_HELLO_WIRE. */
int sc_hello_unpack(const unsigned char *b, size_t len, struct sc_hello *h);

/* Packs v into SC_U32_WIRE bytes at b (network order), and the
 * inverse. */
void sc_u32_pack(uint32_t v, unsigned char *b);
uint32_t sc_u32_unpack(const unsigned char *b);

/* Packs one entry into SC_TABLE_ENTRY bytes at b, and the inverse (the
 * host always ends in a NUL). */
void sc_entry_pack(const struct sc_entry *e, unsigned char *b);
void sc_entry_unpack(const unsigned char *b, struct sc_entry *e);

#endif
