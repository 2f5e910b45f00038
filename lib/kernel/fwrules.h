/* The node's packet filter as it stands: the rules and chain policies
 * that drop or reject inbound connections, read from `nft -j list
 * ruleset` (jansson) or `iptables-legacy-save`, so a fix names the table,
 * chain and rule that drop, not a table that may not exist. Parsers are
 * pure over text; fwrules_collect runs the tools, bounded. */
#ifndef NP_FWRULES_H
#define NP_FWRULES_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "kernel/fwservice.h"

#define FWR_MAX 64    /* blockers kept */
#define FWR_RANGES 16 /* port ranges one rule matches */
#define FWR_NAME 64
#define FWR_SADDRS 4    /* source addresses one rule is limited to */
#define FWR_ADDR 52     /* an address with its prefix, "fd00::/64" */
#define FWR_UNREAD 16   /* drops this reader does not judge, kept */

enum fwr_kind {
	FWR_RULE = 0, /* a rule that drops or rejects (handle, position) */
	FWR_POLICY,   /* an input chain whose policy is drop */
};

enum fwr_backend {
	FWR_NONE = 0,
	FWR_NFT,             /* nftables (iptables-nft's tables included) */
	FWR_IPTABLES_LEGACY, /* iptables-legacy: the nft view misses it */
};

/* One place that blocks inbound connections. */
struct fwr_block {
	enum fwr_kind kind;
	char family[8];       /* nft: ip, ip6, inet; legacy: "ip" */
	char table[FWR_NAME]; /* nft table; legacy "filter" */
	char chain[FWR_NAME];
	long handle;   /* nft rule handle; legacy rule number */
	char proto[4]; /* "tcp", "udp", "" any */
	unsigned lo[FWR_RANGES], hi[FWR_RANGES];
	size_t nranges; /* 0: every port */
	bool reject;    /* reject, not drop */
	/* an accept of the same shape (no input interface named): ports it
	 * lets through ahead of a drop or policy are not that drop's
	 * (issue 31) */
	bool accept;
	/* the sources it is limited to ("10.0.0.5", "10.0.0.0/24"); none:
	 * every source. A drop of some peers only is still the drop a
	 * failed pair meets (issue 31). */
	char saddr[FWR_SADDRS][FWR_ADDR];
	size_t nsaddr;
	/* it matches ct state new only: a packet exempted from tracking
	 * (untracked) never matches it (issue 48) */
	bool ct_new;
	/* it matches ct state untracked (among new, established, related) */
	bool untracked;
	/* the input interface it is limited to (iifname "eth9"), "" any:
	 * a drop of what arrives on a NIC the cluster does not use drops
	 * no peer's connection (audit48; fwrules_keep_iifs) */
	char iif[16];
};

#define FWR_NOTRACK 16 /* notrack rules and untracked accepts kept */

struct fw_rules {
	enum fwr_backend backend;
	bool ufw;       /* ufw's chains are loaded */
	bool firewalld; /* firewalld's table is loaded */
	/* whether the services run (fwservice.h); the caller fills it */
	struct fw_service svc;
	bool svc_read;
	struct fwr_block b[FWR_MAX];
	size_t n;
	bool truncated; /* more than FWR_MAX */
	/* nftables rules of a prerouting chain that exempt packets from
	 * connection tracking (notrack), of the shape of a block: what they
	 * exempt; and the accepts of input chains that match ct state
	 * untracked (issue 48) */
	struct fwr_block notrack[FWR_NOTRACK];
	size_t nnotrack;
	struct fwr_block untracked[FWR_NOTRACK];
	size_t nuntracked;
	/* a prerouting rule ends in an iptables-nft target (xt CT, which
	 * may be --notrack): what it exempts is not read */
	bool notrack_xt;
	/* the iptables tool whose text notrack and untracked come from
	 * ("iptables-nft", "iptables-legacy"), "" for nftables' own */
	char notrack_tool[20];
	/* nftables drop and reject rules of the reached chains that match
	 * on something this reader does not judge (a daddr, a mark, a !=):
	 * they may drop a peer's connection, so no elimination may say the
	 * ruleset drops nothing (audit48). Their proto and ports as far as
	 * read (none: every port). Not kept: rules that cannot be about a
	 * peer's new connection (ct state without new, ICMP only, iifname
	 * lo) and rate limits (kernel/hostlim.h reads those). */
	struct fwr_block unread[FWR_UNREAD];
	size_t nunread;
	bool unread_truncated;
};

/* Parses `nft -j list ruleset` output: drop and reject rules in chains
 * reached from an input hook (jumps followed), and input chains with
 * policy drop; the notrack rules of prerouting chains and the accepts
 * of ct state untracked (fw_rules' notrack and untracked). Rules that
 * match on anything but the transport, ports, source address, input
 * interface and connection state new (or a new connection's SYN: tcp
 * flags syn, iptables' --syn) are left out: opening a port cannot be what
 * they are about (a drop among them that could be about a peer's
 * connection goes into unread). Returns 0, or -1 with errno EINVAL when
 * the text is not an nft JSON ruleset. */
int fwrules_parse_nft(const char *json_text, struct fw_rules *r);

/* Parses `iptables-legacy-save` output (the filter table's INPUT chain
 * and the chains it jumps to: -j DROP/REJECT rules with --dport or
 * --dports, or --syn alone, and a DROP policy). Returns 0, or -1 with
 * errno EINVAL. */
int fwrules_parse_iptables(const char *text, struct fw_rules *r);

/* Parses iptables-save text (tool: the iptables that wrote it) for the
 * exemptions from tracking (-j NOTRACK, -j CT --notrack in the raw
 * table's PREROUTING) into r->notrack, and the filter table's INPUT
 * accepts that match untracked packets (--ctstate UNTRACKED, or no
 * state) into r->untracked, which it empties first. Rules that match on
 * more than the source, transport and ports are left out; an exemption
 * so left out sets r->notrack_xt (not read), which it clears first. */
void fwrules_parse_ipt_notrack(const char *text, const char *tool,
                               struct fw_rules *r);

/* Leaves out the blocks and unread rules limited to an input interface
 * that is none of names (the interfaces the cluster's traffic arrives on:
 * the recommended one, the routes' toward the peers), which drop no
 * peer's connection; nothing when n is 0 (which ones is unknown). */
void fwrules_keep_iifs(struct fw_rules *r, const char *const *names,
                       size_t n);

/* True when block b drops port of proto ("tcp"/"udp"). */
bool fwrules_blocks(const struct fwr_block *b, const char *proto,
                    unsigned port);

/* Reads the live ruleset: nft first (nft_json, the text of `nft -j list
 * ruleset` a caller already ran, or NULL to run it here), then
 * iptables-legacy where its filter table holds rules. Each tool runs at
 * most timeout_ms, its output at most 8 MiB. Returns 0 (r->backend
 * FWR_NONE when no tool ran or no filter is loaded), or -1 with errno on
 * no memory. */
int fwrules_collect(struct fw_rules *r, const char *nft_json, int timeout_ms);

/* The text of `nft -j list ruleset` (fwrules_run, bounded by
 * timeout_ms), NULL when nft could not run: the scan reads it once for
 * the blocks, the limits and the nat redirects. */
char *fwrules_nft_json(int timeout_ms);

/* Runs argv (argv[0] a bare name, looked up in the system's sbin and
 * bin) and returns its standard output, malloc'd and NUL-terminated,
 * when it exits 0 within timeout_ms; NULL otherwise (errno ENOMEM only
 * when memory ran out). kernel/hostlim.h reads the ruleset so too. */
char *fwrules_run(const char *const *argv, int timeout_ms);

/* The scan document's `firewall` object: backend ("nftables",
 * "iptables-legacy" or null), ufw, firewalld (their chains loaded),
 * ufw_service and firewalld_service ("active", "inactive", "unknown")
 * with ufw_why and firewalld_why where svc_read, truncated and blocks (one
 * {kind, family, table, chain, handle, proto, ports, verdict} each), and
 * unread (the same form) with unread_truncated.
 * NULL on no memory. */
json_t *fwrules_to_json(const struct fw_rules *r);

#endif
