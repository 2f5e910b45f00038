/* A connect that failed on a line naming both the peer's name and the
 * address that name gave: Go's `Get "https://racoon:10250/...": dial
 * tcp 192.0.0.2:10250: i/o timeout`, Java's "node-1/10.1.2.3:7077". The
 * name may map to an address the peer no longer holds (a stale
 * /etc/hosts entry or DNS record), a candidate beside what the errno
 * says, decided by one look-up (issue 42: blind42m c03, an old hosts
 * entry of the node's own name). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "decide/explain_priv.h"

/* The host-name token at p (letters, digits, '.', '-', '_') into out;
 * its length. */
static size_t token(const char *p, char *out, size_t len)
{
	size_t n = 0;

	while (n + 1 < len && explain_host_char((unsigned char)p[n]))
		n++;
	snprintf(out, len, "%.*s", (int)n, p);
	return n;
}

/* Whether name is a peer's (one word, or a cluster's own zone) that a
 * hosts file or a cluster's DNS maps: a public service's name is not
 * what goes stale on a node, localhost is what it always is, a Go
 * pointer ("etcd-endpoints://0xc000fdc8c0/ADDR:PORT") is no name, and
 * neither is the sentence's preposition a message glued to the address
 * (FastDFS's "can't create connection to/172.17.0.3:23000", issue 42:
 * blind42w c02). */
static bool peer_name(const char *name)
{
	static const char *const words[] = {"to", "from", "at", "on", "via",
					    "for", "with", "by", "of", "in"};
	bool letter = false;

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(name, words[i]) == 0)
			return false;

	for (const char *p = name; *p; p++)
		letter |= isalpha((unsigned char)*p) != 0;
	if (strncmp(name, "0x", 2) == 0 &&
	    strspn(name + 2, "0123456789abcdef") == strlen(name + 2))
		return false;
	return letter && strcmp(name, "localhost") != 0 &&
	       (strchr(name, '.') == NULL || explain_cluster_name(name));
}

/* Go's net/http: the URL's host, then "dial tcp ADDR:PORT". */
static bool go_pair(const char *t, char *name, size_t nlen, char *addr,
		    size_t alen)
{
	const char *u = strstr(t, "://"), *d;
	char port[8];

	if (u == NULL || token(u + 3, name, nlen) == 0 ||
	    (d = strstr(u, "dial tcp ")) == NULL)
		return false;
	return explain_line_endpoint(d + 9, addr, alen, port, sizeof(port));
}

/* Java's InetSocketAddress: "NAME/ADDR:PORT", NAME not a URL's path. */
static bool java_pair(const char *t, char *name, size_t nlen, char *addr,
		      size_t alen)
{
	for (const char *s = strchr(t, '/'); s != NULL; s = strchr(s + 1, '/')) {
		const char *b = s;
		char port[8];

		while (b > t && explain_host_char((unsigned char)b[-1]))
			b--;
		if (b == s || (b > t && (b[-1] == '/' || b[-1] == ':')) ||
		    !isdigit((unsigned char)s[1]) ||
		    !explain_line_endpoint(s + 1, addr, alen, port,
					   sizeof(port)) ||
		    port[0] == '\0' || strncmp(addr, s + 1, strlen(addr)) != 0)
			continue; /* the endpoint must follow the slash */
		snprintf(name, nlen, "%.*s", (int)(s - b), b);
		return true;
	}
	return false;
}

/* Whether an open set is a connect's (what a stale name gives). */
static bool connect_set(const struct explain_cause *c)
{
	bool conn = false;

	for (size_t k = 0; k < c->ncodes; k++) {
		if (strcmp(c->codes[k], "hosts-stale") == 0 ||
		    strcmp(c->codes[k], "name-unresolved") == 0)
			return false;
		conn |= strcmp(c->codes[k], "port-filtered") == 0 ||
			strcmp(c->codes[k], "port-closed") == 0 ||
			strcmp(c->codes[k], "host-unreachable") == 0;
	}
	return conn;
}

/* See explain_priv.h. */
void explain_stale_name(const struct explain_log *lg,
			struct explain_result *r)
{
	for (size_t i = 0; i < r->ncauses; i++) {
		struct explain_cause *c = &r->causes[i];

		if (c->kind != EXPLAIN_NET || !c->open ||
		    c->ncodes >= EXPLAIN_MAX_CODES || !connect_set(c))
			continue;
		for (size_t k = 0; k < c->nrefs; k++) {
			const struct explain_hit *h =
				explain_ref_hit(lg, &c->refs[k]);
			char name[64], addr[64];
			size_t n = strlen(c->next);

			if (h == NULL ||
			    (!go_pair(h->text, name, sizeof(name), addr,
				      sizeof(addr)) &&
			     !java_pair(h->text, name, sizeof(name), addr,
					sizeof(addr))) ||
			    !peer_name(name))
				continue;
			snprintf(c->codes[c->ncodes++], sizeof(c->codes[0]),
				 "hosts-stale");
			snprintf(c->next + n, sizeof(c->next) - n,
				 "%sgetent hosts %s on the node that dialled "
				 "(it gave %s: is that %s's address?)",
				 n ? "; " : "", name, addr, name);
			break;
		}
	}
}
