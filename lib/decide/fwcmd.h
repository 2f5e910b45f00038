/* What to open in a host firewall, and the ready commands that open it:
 * nftables, ufw and firewalld. Pure: the scan decides which ports failed,
 * this turns them into `ports_to_open` and `commands`. */
#ifndef NP_FWCMD_H
#define NP_FWCMD_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#define FW_MAX_RULES 32
#define FW_WHY_MAX 256
#define FW_NODE_MAX 64

enum fw_dialect {
	FW_NFTABLES = 0,
	FW_UFW,
	FW_FIREWALLD,
};

/* One port or range lo-hi (lo == hi for a single port) to open. */
struct fw_rule {
	unsigned lo, hi;
	char proto[4];          /* "tcp" or "udp" */
	char node[FW_NODE_MAX]; /* where to open it; "" this node */
	char why[FW_WHY_MAX];
};

struct fw_plan {
	struct fw_rule v[FW_MAX_RULES];
	size_t n;
};

/* A port result as the probes report it (connect-back or outbound). */
struct fw_result {
	unsigned port;
	const char *proto; /* "tcp" or "udp" */
	const char *state; /* "open", "reachable", "filtered"... */
	const char *reason;
};

/* Adds lo-hi/proto to open on node ("" or NULL: this node). A range
 * that equals or lies inside one already planned on the same node adds
 * nothing (the first why stays). Returns 0, or -1 with errno EINVAL (bad
 * range or proto) or ENOSPC (plan full). */
int fwcmd_add(struct fw_plan *p, unsigned lo, unsigned hi, const char *proto,
              const char *node, const char *why);

/* Plans what the failed results of one probe need: a failed port inside
 * the ephemeral range eph_lo-eph_hi (0 0: unknown) opens the whole range,
 * any other failed port opens itself; open and unknown results need
 * nothing. what says which check failed ("connect-back from 10.0.0.2"),
 * node where to open. Returns how many results failed (>= 0), or -1 as
 * fwcmd_add. */
int fwcmd_plan_results(struct fw_plan *p, const struct fw_result *r, size_t n,
                       unsigned eph_lo, unsigned eph_hi, const char *what,
                       const char *node);

/* True when the failed results all lie inside the ephemeral range
 * eph_lo-eph_hi and a result outside it is open: the fixed ports work,
 * the ephemeral range is blocked. False when the range is unknown (0 0). */
bool fwcmd_ephemeral_only(const struct fw_result *r, size_t n, unsigned eph_lo,
                          unsigned eph_hi);

/* Parses "lo hi" as /proc/sys/net/ipv4/ip_local_port_range holds it:
 * port_range_parse of kernel/portrange.h. Returns 0, or -1 with errno
 * EINVAL. */
int fwcmd_parse_range(const char *line, unsigned *lo, unsigned *hi);

/* Formats the command opening r in a dialect into buf: `nft add rule inet
 * filter input tcp dport 29500 accept`, `ufw allow 29500/tcp`,
 * `firewall-cmd --permanent --add-port=29500/tcp && firewall-cmd
 * --reload`. Returns the length, or -1 (bad dialect, or buf too small:
 * errno ENOSPC). */
int fwcmd_format(enum fw_dialect dl, const struct fw_rule *r, char *buf,
                 size_t len);

/* The `ports_to_open` array: [{port (number) or "lo-hi", proto, nodes?,
 * why}]. New reference, NULL on no memory. */
json_t *fwcmd_ports_json(const struct fw_plan *p);

/* The `commands` object {nftables [..], ufw [..], firewalld [..]}; for a
 * rule on another node the command is written as a shell comment "# on
 * NODE: COMMAND", so pasting the list changes only this node. New reference,
 * NULL on no memory. */
json_t *fwcmd_commands_json(const struct fw_plan *p);

#endif
