/* Port specifications for `netprobe ports` and `scan --peer`: lists,
 * ranges, protocol suffixes ("4789/udp", "7946/tcp+udp") and presets that
 * name what each framework needs ("ray", "torch", "ephemeral"). */
#ifndef NP_PORTSPEC_H
#define NP_PORTSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most (port, protocol) entries one specification may expand to. */
#define PORTSPEC_MAX 65535

/* Flags of one requested port. */
#define PSPEC_F_SAMPLE 0x1    /* a sample port: tested only on a listener
			       * the responder holds, never connected to
			       * directly (a running job may own it) */
#define PSPEC_F_EPHEMERAL 0x2 /* a sample of the peer's ip_local_port_range */

/* Samples taken at each end of an ephemeral range (lo, lo+1 ... hi). */
#define PORTSPEC_EPHEMERAL_PER_END 2

struct port_req {
	uint16_t port;   /* 1-65535 */
	uint8_t proto;   /* IPPROTO_TCP or IPPROTO_UDP */
	uint8_t flags;   /* PSPEC_F_* */
	const char *why; /* the preset that asked for it, NULL when given */
};

struct port_list {
	struct port_req *v; /* in the order first named, no duplicates */
	size_t n, cap;
	bool ephemeral;     /* samples of the peer's range wanted (TCP) */
	uint8_t seen[2][65536 / 8]; /* duplicates filter: [0] tcp, [1] udp */
};

/* Why a specification was rejected: the offending item and a phrase. */
struct portspec_err {
	char token[64];
	const char *why;
};

/* A named preset: what it holds, for usage text and the man page. */
struct portspec_preset {
	const char *name;
	const char *doc;
};

/* Sets an empty list (no allocation yet). */
void port_list_init(struct port_list *pl);

/* Releases the list; safe on an initialised or zeroed list. */
void port_list_free(struct port_list *pl);

/* Parses a comma list of items: PORT, LO-HI, either with /tcp, /udp or
 * /tcp+udp (default tcp), or a preset name, into pl (appending). Returns 0,
 * or -1 with *e naming the item and why: bad number, 0 or >65535, reversed
 * range, unknown preset or protocol, empty item or list, too many ports. */
int portspec_parse(const char *spec, struct port_list *pl,
		   struct portspec_err *e);

/* The presets, for help text; count through *n. */
const struct portspec_preset *portspec_presets(size_t *n);

/* Samples of an ephemeral range [lo, hi]: PORTSPEC_EPHEMERAL_PER_END at
 * each end, in ascending order, no duplicates. Returns how many were
 * written to out (at most max), 0 when the range is invalid. */
size_t portspec_ephemeral_samples(uint16_t lo, uint16_t hi, uint16_t *out,
				  size_t max);

/* Formats ports as compressed ranges joined by sep ("22, 8000-8010") with
 * rsep between range ends ("-" for nft, ":" for ufw) and suffix after each
 * item ("/tcp" or ""); ports must be ascending. Returns a malloc'd string
 * the caller frees, or NULL with errno ENOMEM. */
char *portspec_ranges(const uint16_t *ports, size_t n, const char *prefix,
		      const char *sep, const char *rsep, const char *suffix);

/* "tcp" or "udp". */
const char *portspec_proto_name(uint8_t proto);

#endif
