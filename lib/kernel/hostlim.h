/* The host's limits on connections (issue 48): the ephemeral port range,
 * the listen backlog cap, SYN cookies and the listen-drop counters,
 * conntrack's timeouts and table size, and the nftables rules that
 * rate-limit or count connections. Each can make a mesh fail in a way
 * that looks like a firewall (some SYNs dropped) or like nothing (a
 * connect that fails locally). Read through the sysroot, so recorded trees
 * replay; the ruleset parser is pure over `nft -j list ruleset` text. */
#ifndef NP_HOSTLIM_H
#define NP_HOSTLIM_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "base/sysroot.h"

#define HL_SOMAXCONN_PATH "/proc/sys/net/core/somaxconn"
#define HL_SYNCOOKIES_PATH "/proc/sys/net/ipv4/tcp_syncookies"
#define HL_SYN_BACKLOG_PATH "/proc/sys/net/ipv4/tcp_max_syn_backlog"
#define HL_NETSTAT_PATH "/proc/net/netstat"
#define HL_CT_DIR "/proc/sys/net/netfilter/"

#define HL_MAX_RULES 16 /* limit rules kept */
#define HL_RANGES 8     /* port ranges one rule matches */
#define HL_NAME 64
#define HL_CT_KEYS 7    /* conntrack sysctls read (hostlim.c) */
#define HL_LISTENERS 32 /* listeners whose backlog is kept */

enum hl_kind {
	HL_LIMIT = 0, /* limit rate: packets (or new connections) per time */
	HL_CT_COUNT,  /* ct count: connections held at once */
};

/* One nftables rule that limits what reaches this host. */
struct hl_rule {
	enum hl_kind kind;
	char family[8];
	char table[HL_NAME];
	char chain[HL_NAME];
	long handle;
	char proto[8]; /* "tcp", "udp", "icmp", "" any */
	unsigned lo[HL_RANGES], hi[HL_RANGES];
	size_t nranges;  /* destination ports; 0 every port */
	bool new_only;   /* ct state new or tcp flags syn: connections */
	bool per_source; /* a meter or dynamic set keyed by the source */
	bool over;       /* matches what exceeds the limit ("over") */
	bool other;      /* matches on something else too (not understood) */
	char verdict[8]; /* "drop", "reject", "accept", "" none */
	unsigned long long value; /* the rate's count, or ct count's */
	char per[8];     /* "second", "minute", "hour", "day"; "" ct count */
	bool bytes;      /* a byte rate, not packets */
	unsigned long burst;
	/* an iptables rule: the tool that lists it ("iptables-nft",
	 * "iptables-legacy") and the rule as iptables-save writes it after
	 * "-A ", which "TOOL -D" deletes; "" for an nftables rule */
	char tool[20];
	char spec[512];
};

/* What the host allows; -1 where unread. */
struct host_limits {
	long long port_lo, port_hi; /* net.ipv4.ip_local_port_range */
	long long somaxconn;
	long long syncookies;
	long long max_syn_backlog;
	long long listen_overflows, listen_drops; /* TcpExt, /proc/net/netstat */
	/* how much each rose between the collection and hostlim_recount
	 * (a mesh's probing), -1 when not read twice */
	long long overflows_rise, drops_rise;
	long long ct[HL_CT_KEYS]; /* hl_ct_key(i) under HL_CT_DIR */
	/* each TCP listener's accept queue (sock_diag, live only) */
	struct hl_listener {
		char addr[48]; /* as inet_ntop writes it */
		unsigned port, queued, backlog;
	} listeners[HL_LISTENERS];
	size_t nlisteners;
	bool listeners_read, listeners_truncated;
	bool rules_read;          /* the ruleset was read (live, nft) */
	/* the nft handles of table ip filter's INPUT rules, in order:
	 * iptables-nft's rules, deleted by handle (its own -D refuses
	 * some rules as iptables-nft-save writes them) */
	long ipt_handles[128];
	size_t nipt_handles;
	struct hl_rule rules[HL_MAX_RULES];
	size_t nrules;
	bool truncated;
};

/* The name of conntrack sysctl i (0 <= i < HL_CT_KEYS), as under
 * /proc/sys/net/netfilter/ ("nf_conntrack_tcp_timeout_established"). */
const char *hl_ct_key(size_t i);

/* Reads the sysctls and counters through the sysroot into l (the rules
 * untouched, none read). Never fails: what cannot be read stays -1. */
void hostlim_collect(const struct sysroot *sr, struct host_limits *l);

/* Reads the listen counters again: their rise since hostlim_collect into
 * overflows_rise and drops_rise (-1 where either read failed). */
void hostlim_recount(const struct sysroot *sr, struct host_limits *l);

/* Finds a TcpExt counter by name in /proc/net/netstat text (a line of
 * names, then a line of values). Returns 0, or -1 with errno ENOENT. */
int hostlim_netstat(const char *text, const char *name, long long *out);

/* Parses `nft -j list ruleset` text: the limit and ct count rules of the
 * chains on an input hook (and the chains they jump to) into l->rules.
 * Returns 0, or -1 with errno EINVAL when the text is no nft JSON. */
int hostlim_parse_nft(const char *json_text, struct host_limits *l);

/* Parses iptables-save text of the filter table: the INPUT chain's rules
 * with -m limit, hashlimit or connlimit, appended to l->rules with tool
 * (the command whose -D deletes them). only_xt leaves -m limit out
 * (iptables-nft's, which nft lists as a limit of its own). Returns the
 * rules added. */
size_t hostlim_parse_iptables(const char *text, const char *tool,
                              bool only_xt, struct host_limits *l);

/* Gives the iptables-nft rules of l->rules from first on the nft handle
 * of their position in INPUT (ipt_handles, from the nft JSON parsed
 * before), so that their command is `nft delete rule ip filter INPUT
 * handle N`; a position nft did not list keeps iptables-nft -D. */
void hostlim_nft_handles(struct host_limits *l, size_t first);

/* Parses the text of `nft -j list ruleset` (nft_json, or NULL to run it
 * here), then runs iptables-nft-save and iptables-legacy-save (each at
 * most timeout_ms) and parses them; live only. Returns 0 (rules_read
 * false when none ran), or -1 with errno ENOMEM. */
int hostlim_collect_rules(struct host_limits *l, const char *nft_json,
                          int timeout_ms);

/* Reads each TCP listener's backlog and queue through sock_diag; live
 * only. Returns 0 (listeners_read set), or -1 with errno. */
int hostlim_collect_listeners(struct host_limits *l);

/* True when rule r applies to TCP connections toward port. */
bool hostlim_rule_covers(const struct hl_rule *r, unsigned port);

/* The rule's limit per second, scaled by 1000 (3/minute is 50); 0 for a
 * ct count or a byte rate. */
unsigned long long hostlim_rate_milli(const struct hl_rule *r);

/* The rule as nft prints it, roughly: "tcp dport 29500 ct state new
 * limit rate over 2/second burst 4 packets drop". */
void hostlim_rule_text(const struct hl_rule *r, char *buf, size_t len);

/* The scan document's `limits` object. NULL on no memory. */
json_t *hostlim_to_json(const struct host_limits *l);

#endif
