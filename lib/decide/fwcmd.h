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
	/* the address the drop was met from (a peer's); "" unknown. A
	 * ruleset's rule limited to sources counts for r only where src
	 * is one of them. */
	char src[48];
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

/* Formats the command opening r for a firewall daemon into buf: `ufw
 * allow 29500/tcp`, `firewall-cmd --permanent --add-port=29500/tcp &&
 * firewall-cmd --reload`. FW_NFTABLES is refused (EINVAL): an nftables
 * command names a table and chain, which only the ruleset tells
 * (fwcmd_ruleset_cmds). Returns the length, or -1 (bad dialect, or buf
 * too small: errno ENOSPC). */
int fwcmd_format(enum fw_dialect dl, const struct fw_rule *r, char *buf,
                 size_t len);

/* The `ports_to_open` array: [{port (number) or "lo-hi", proto, nodes?,
 * why}]. New reference, NULL on no memory. */
json_t *fwcmd_ports_json(const struct fw_plan *p);

/* The `commands` object {nftables [..], ufw [..], firewalld [..], and
 * iptables-legacy [..] where that holds the ruleset}: every rule of p by
 * fwcmd_rule_commands against fwj, this node's `firewall` object
 * (kernel/fwrules.h's fwrules_to_json; NULL where none was read). A rule
 * on another node is written as a shell comment "# on NODE: COMMAND", so
 * pasting the list changes only this node. New reference, NULL on no
 * memory. */
json_t *fwcmd_commands_json(const struct fw_plan *p, const json_t *fwj);

/* True when fwj is a `firewall` object whose ruleset was read (its
 * backend is named). */
bool fwcmd_ruleset_read(const json_t *fwj);

/* Appends to cmds' "nftables" (or "iptables-legacy") array, created when
 * absent, the commands that let r through the ruleset fwj: in each chain
 * that drops it, an accept inserted before the first rule that drops it
 * (`nft insert rule inet np_fw input position 7 tcp dport 29500
 * accept`), or at the chain's top where its policy drops. Returns how
 * many it wrote (0: nothing in the ruleset drops r), or -1 (errno EINVAL:
 * fwj holds no ruleset; or no memory). */
int fwcmd_ruleset_cmds(const json_t *fwj, const struct fw_rule *r,
                       json_t *cmds);

/* Why no nftables command can be written for a port on node ("" or NULL
 * this node, whose ruleset fwj is, NULL not read) when fwj holds no
 * ruleset or node is another: "NODE's ruleset is read only on NODE",
 * "this node's ruleset was not read", "the ruleset could not be read
 * (...)". */
void fwcmd_why_unknown(const json_t *fwj, const char *node, char *buf,
                       size_t len);

/* Whether svc's ("ufw", "firewalld") commands belong to the node whose
 * `firewall` object is fwj: where the scan read the service's state
 * (`SVC_service`), only a running one; where that state is "unknown",
 * one whose chains are loaded, and *why_unsure (when not NULL) gets the
 * scan's reason (`SVC_why`); in a document from before the state was
 * read, one whose chains are loaded. */
bool fwcmd_service_takes(const json_t *fwj, const char *svc,
                         const char **why_unsure);

/* Adds to cmds the lines that open r: against fwj (this node's ruleset,
 * used only for a rule on this node) the nftables or iptables-legacy
 * commands, or where they cannot be written the cannot-tell sentence as
 * a shell comment in "nftables"; the ufw and firewalld commands where
 * their service runs (or where the ruleset is not known). Returns 0, or
 * -1 on no memory. */
int fwcmd_rule_commands(const struct fw_rule *r, const json_t *fwj,
                        json_t *cmds);

#endif
