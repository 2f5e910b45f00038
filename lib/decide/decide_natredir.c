/* nat-redirect-unheld (decide_natredir.h): a redirect of the job's TCP
 * connections to a local port that no socket holds; the node's own
 * kernel refuses them. */
#include <stdio.h>
#include <string.h>

#include "decide/decide_natredir.h"

/* True when a listener of l holds TCP port p, on any address. */
static bool held(const struct host_limits *l, unsigned p)
{
	for (size_t i = 0; i < l->nlisteners; i++)
		if (l->listeners[i].port == p)
			return true;
	return false;
}

/* The proxy that should hold r's port, as the text names it: Istio's
 * sidecar for its chains and ports, else a transparent proxy. */
static const char *proxy_of(const struct nat_redir *r)
{
	if (strncmp(r->via, "ISTIO", 5) == 0 ||
	    strncmp(r->chain, "ISTIO", 5) == 0 || r->to_port == 15001 ||
	    r->to_port == 15006)
		return "the istio-proxy sidecar (Envoy; istio-init wrote "
		       "these rules)";
	return "the sidecar or transparent proxy these rules were written "
	       "for";
}

/* r's ports and exclusions as text: "7470, 29500 (skipped on the way:
 * tcp dport 15008, uid 1337)". */
static void ports_text(const struct nat_redir *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->nports && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%u", i ? ", " : "",
		                      r->ports[i]);
	for (size_t i = 0; i < r->nskips && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s",
		                      i ? ", " : " (skipped on the way: ",
		                      r->skips[i],
		                      i + 1 == r->nskips ? ")" : "");
}

/* Adds r's finding. */
static int report(const struct nat_redir *r, struct doc *d)
{
	const char *src = "nft -j list ruleset; sock_diag listeners";
	const char *dir = r->output ? "out of this node (hook output)"
	                            : "into this node (hook prerouting)";
	char ports[400], cmd[300], fix[1200];
	json_t *ev = NULL;

	ports_text(r, ports, sizeof(ports));
	snprintf(cmd, sizeof(cmd), "nft delete rule %s %s %s handle %ld",
	         r->family, r->table, r->chain, r->handle);
	snprintf(fix, sizeof(fix),
	         "%s (the rule of chain %s that sends TCP to the %s in "
	         "chain %s; or flush that chain: nft flush chain %s %s %s), "
	         "or start %s so that it listens on port %u; in Kubernetes "
	         "with Istio, annotate the pod sidecar.istio.io/inject: "
	         "\"false\" and recreate it",
	         cmd, r->chain, r->dnat ? "dnat" : "redirect", r->via,
	         r->family, r->table, r->via, proxy_of(r), r->to_port);
	if (evidence_add(&ev, src,
	                 "table %s %s, chain %s (%s), handle %ld leads TCP "
	                 "to ports %s to chain %s, handle %ld: %s to local "
	                 "port %u",
	                 r->family, r->table, r->chain,
	                 r->output ? "output" : "prerouting", r->handle,
	                 ports, r->via, r->via_handle,
	                 r->dnat ? "dnat to loopback" : "redirect",
	                 r->to_port) < 0 ||
	    evidence_add(&ev, src, "no socket listens on TCP port %u",
	                 r->to_port) < 0) {
		json_decref(ev);
		return -1;
	}
	if (doc_add_finding(d, FINDING_NAT_REDIRECT_UNHELD, -1, ev, fix,
	                    "TCP connections %s to ports %s are redirected by "
	                    "table %s %s, chain %s, handle %ld (through chain "
	                    "%s) to local port %u, where nothing listens: "
	                    "this node's own kernel refuses them; %s is not "
	                    "running",
	                    dir, ports, r->family, r->table, r->chain,
	                    r->handle, r->via, r->to_port, proxy_of(r)) < 0)
		return -1;
	return doc_finding_command(d, cmd);
}

/* See decide_natredir.h. */
int decide_natredir(const struct nat_redirs *nr, const struct host_limits *l,
                    struct doc *d)
{
	if (nr == NULL || !nr->read || !l->listeners_read ||
	    l->listeners_truncated)
		return 0;
	for (size_t i = 0; i < nr->n; i++)
		if (!held(l, nr->r[i].to_port) && report(&nr->r[i], d) < 0)
			return -1;
	return 0;
}
