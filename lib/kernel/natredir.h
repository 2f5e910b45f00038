/* The nat table's redirects of TCP to this node itself (issue 48, blind48c
 * 05): nftables rules of nat chains on the prerouting and output hooks
 * that redirect, or dnat to a loopback address, the TCP connections into
 * or out of this node, read from nft's JSON for the ports the job uses.
 * A sidecar's redirect (istio-init's) whose proxy is not running makes
 * the node's own kernel refuse every such connection. */
#ifndef NP_NATREDIR_H
#define NP_NATREDIR_H

#include <stdbool.h>
#include <stddef.h>

#define NR_MAX 8     /* redirects kept */
#define NR_NAME 64
#define NR_PORTS 8   /* ports one redirect is judged for */
#define NR_SKIPS 8   /* exclusions read on the way */

/* One base chain's rule whose path ends in a redirect of TCP to a local
 * port, for some of the ports asked about. */
struct nat_redir {
	char family[8];       /* ip, ip6, inet */
	char table[NR_NAME];
	char chain[NR_NAME];  /* the base chain (its hook below) */
	bool output;          /* hook output (else prerouting) */
	long handle;          /* the base chain's rule that leads to it */
	char via[NR_NAME];    /* the chain holding the redirect */
	long via_handle;      /* the redirect's own handle */
	bool dnat;            /* dnat to a loopback address, not redirect */
	unsigned to_port;     /* the local port connections go to */
	unsigned ports[NR_PORTS]; /* the ports asked about it covers */
	size_t nports;
	/* what was skipped on the way: "tcp dport 15008", "skuid 1337" */
	char skips[NR_SKIPS][40];
	size_t nskips;
};

struct nat_redirs {
	bool read; /* the ruleset was read (nftables) */
	struct nat_redir r[NR_MAX];
	size_t n;
	bool truncated;
};

/* Reads nft -j list ruleset's text: for each nat base chain of hook
 * prerouting or output and each of ports (TCP destination ports of a
 * peer's connection into this node, or of this node's to a peer), the
 * rule path a connection takes, through jumps, returns and gotos; where
 * it ends in a redirect (or a dnat to 127.0.0.0/8 or ::1) it is kept.
 * Conservative: a rule on the path that matches on anything this reader
 * does not judge (an address other than loopback, a mark, an xt match)
 * ends that port's walk unjudged. Returns 0 (out->read set), or -1 on
 * text that is not nft's JSON (out emptied). */
int natredir_parse_nft(const char *json_text, const unsigned *ports,
                       size_t nports, struct nat_redirs *out);

/* Parses nft_json (the text of `nft -j list ruleset`, the scan's one
 * read of it) as above; out->read false when it is NULL (nft could not
 * run) or not nft's JSON. */
void natredir_collect(const char *nft_json, const unsigned *ports,
                      size_t nports, struct nat_redirs *out);

#endif
