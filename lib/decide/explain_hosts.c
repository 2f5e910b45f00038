/* netprobe explain: a pasted /etc/hosts that maps a host name to a
 * loopback address ("127.0.0.1 localhost hadoop1", Debian's "127.0.1.1
 * node-3"). A program that resolves its own name to tell peers where
 * it is then registers 127.x, which no peer can reach (issue 42:
 * blind42s d09, DolphinScheduler's masters in ZooKeeper as 127.0.0.1).
 * The localhost names are loopback's own and say nothing. ping's header
 * ("PING node-3 (127.0.1.1)") shows the same resolution where it ran
 * (blind42v c09, inside a rancher-agent container). */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"

/* Whether a name is one of loopback's own (localhost, ip6-loopback and
 * their distributions' spellings). */
static bool loopback_name(const char *n, size_t k)
{
	static const char *const own[] = {"localhost", "ip6-localhost",
					  "ip6-loopback"};

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		size_t m = strlen(own[i]);

		/* localhost4, localhost.localdomain, localhost6.localdomain6 */
		if (k >= m && strncmp(n, own[i], m) == 0)
			return true;
	}
	return false;
}

/* The first name of names that is no loopback name, into buf; false
 * when every one is loopback's, or a token is no host name (the line
 * is not a hosts file's: an access log's "127.0.0.1 - - [...]"). */
static bool other_name(const char *names, char *buf, size_t len)
{
	const char *p = names;
	bool found = false;

	buf[0] = '\0';
	while (*p) {
		size_t k = 0;
		bool letter = false;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '#')
			break;
		while (p[k] && p[k] != ' ' && p[k] != '\t') {
			if (!explain_host_char((unsigned char)p[k]))
				return false;
			letter |= isalpha((unsigned char)p[k]);
			k++;
		}
		if (!letter)
			return false;
		if (!found && !loopback_name(p, k) && k < len) {
			snprintf(buf, len, "%.*s", (int)k, p);
			found = true;
		}
		p += k;
	}
	return found;
}

/* See explain_priv.h. */
void explain_hosts_loopback(const struct explain_ctx *x,
			    struct explain_result *r)
{
	for (size_t i = 0; i < x->lg->nhits; i++) {
		const struct explain_hit *h = &x->lg->hits[i];
		const char *names = logmatch_field(&h->m, "names");
		const char *addr = logmatch_field(&h->m, "addr");
		char name[64], why[256], next[512];
		bool ping = strcmp(h->m.sig->id, "ping-header-loopback") == 0;

		if ((!ping && strcmp(h->m.sig->id, "hosts-file-loopback") != 0) ||
		    names == NULL || addr == NULL ||
		    !other_name(names, name, sizeof(name)))
			continue;
		snprintf(why, sizeof(why), "%s %s to %s: a program on that "
			 "node that resolves its own name tells its peers %s, "
			 "which none of them can reach",
			 ping ? "ping resolved" : "the log's /etc/hosts maps",
			 name, addr, addr);
		snprintf(next, sizeof(next), "on the node whose hosts file it "
			 "is: getent hosts %s (a 127.x answer: take %s off the "
			 "%s line of /etc/hosts and map it to the node's LAN "
			 "address), then restart what registered it", name,
			 name, addr);
		explain_open(r, h, finding_name(FINDING_HOSTNAME_LOOPBACK),
			     why, next);
		return;
	}
}
