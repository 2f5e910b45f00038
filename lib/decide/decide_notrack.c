/* notrack-untracked-drop (decide_notrack.h): a raw-table exemption from
 * connection tracking in front of an input chain whose accepts match
 * only tracked states. The fix accepts the exempted packets as untracked
 * (firewalld's own fix, firewalld/firewalld#380) rather than deleting
 * the exemption: it was set on purpose (Calico's doNotTrack, a busy
 * host's conntrack table), and deleting it gives that table back its
 * load. */
#include "decide/decide_notrack.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#define NT_MAX_FINDINGS 4 /* notrack rules reported */

/* Parses "addr[/len]" into family, bytes and length; false when it is
 * neither IPv4 nor IPv6 or the length is out of range. */
static bool prefix_parse(const char *s, int *fam, unsigned char *b,
                         long *len)
{
	char a[FWR_ADDR], tail;
	const char *sl = strchr(s, '/');
	long max;

	snprintf(a, sizeof(a), "%.*s", sl ? (int)(sl - s) : (int)strlen(s),
	         s);
	*fam = strchr(a, ':') != NULL ? AF_INET6 : AF_INET;
	max = *fam == AF_INET6 ? 128 : 32;
	if (inet_pton(*fam, a, b) != 1)
		return false;
	*len = max;
	if (sl != NULL && sscanf(sl + 1, "%ld%c", len, &tail) != 1)
		return false;
	return *len >= 0 && *len <= max;
}

/* True when prefix inner lies inside prefix outer (text, one family). */
static bool prefix_in(const char *inner, const char *outer)
{
	unsigned char x[16], y[16];
	int fx, fy;
	long lx, ly;

	if (!prefix_parse(inner, &fx, x, &lx) ||
	    !prefix_parse(outer, &fy, y, &ly) || fx != fy || ly > lx)
		return false;
	for (long k = 0; k < ly; k++)
		if (((x[k / 8] ^ y[k / 8]) >> (7 - k % 8)) & 1)
			return false;
	return true;
}

/* True when accept a matches every packet notrack rule n exempts: its
 * transport, ports and sources are n's or wider. */
static bool covers(const struct fwr_block *a, const struct fwr_block *n)
{
	if (a->proto[0] != '\0' && strcmp(a->proto, n->proto) != 0)
		return false;
	if (a->nranges > 0) {
		if (n->nranges == 0)
			return false;
		for (size_t i = 0; i < n->nranges; i++) {
			bool in = false;

			for (size_t k = 0; k < a->nranges; k++)
				in |= n->lo[i] >= a->lo[k] &&
				      n->hi[i] <= a->hi[k];
			if (!in)
				return false;
		}
	}
	if (a->nsaddr > 0) {
		if (n->nsaddr == 0)
			return false;
		for (size_t i = 0; i < n->nsaddr; i++) {
			bool in = false;

			for (size_t k = 0; k < a->nsaddr; k++)
				in |= prefix_in(n->saddr[i], a->saddr[k]);
			if (!in)
				return false;
		}
	}
	return true;
}

/* True when some accept of r lets notrack rule n's packets in: an
 * accept of ct state untracked, or one that names no ct state. */
static bool accepted(const struct fw_rules *r, const struct fwr_block *n)
{
	for (size_t i = 0; i < r->nuntracked; i++)
		if (covers(&r->untracked[i], n))
			return true;
	for (size_t i = 0; i < r->n; i++)
		if (r->b[i].kind == FWR_RULE && r->b[i].accept &&
		    !r->b[i].ct_new && covers(&r->b[i], n))
			return true;
	return false;
}

/* The input chain that drops what nothing accepted: one whose policy is
 * drop, else a rule that drops every packet; NULL when none. */
static const struct fwr_block *catch_all(const struct fw_rules *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->b[i].kind == FWR_POLICY)
			return &r->b[i];
	for (size_t i = 0; i < r->n; i++)
		if (r->b[i].kind == FWR_RULE && !r->b[i].accept &&
		    r->b[i].proto[0] == '\0' && r->b[i].nranges == 0 &&
		    r->b[i].nsaddr == 0)
			return &r->b[i];
	return NULL;
}

/* True when s is safe unquoted in a shell line (a table, a chain, an
 * address). */
static bool plain(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		           "0123456789.-_:/",
		           *s) == NULL)
			return false;
	return true;
}

/* Appends to buf what rule n matches, as nft writes it ("ip saddr
 * 10.0.0.0/24 tcp dport { 29500, 7000-7100 }"); false when a name is
 * not plain or the family of a source does not fit table family fam. */
static bool match_text(const struct fwr_block *n, const char *fam, char *buf,
                       size_t len)
{
	size_t l = strlen(buf);

	if (n->nsaddr > 0) {
		bool v6 = strchr(n->saddr[0], ':') != NULL;

		if ((v6 && strcmp(fam, "ip") == 0) ||
		    (!v6 && strcmp(fam, "ip6") == 0))
			return false;
		l += (size_t)snprintf(buf + l, len - l, " %s saddr %s",
		                      v6 ? "ip6" : "ip",
		                      n->nsaddr > 1 ? "{ " : "");
		for (size_t i = 0; i < n->nsaddr && l < len; i++) {
			if (!plain(n->saddr[i]) ||
			    (strchr(n->saddr[i], ':') != NULL) != v6)
				return false;
			l += (size_t)snprintf(buf + l, len - l, "%s%s",
			                      i ? ", " : "", n->saddr[i]);
		}
		if (n->nsaddr > 1 && l < len)
			l += (size_t)snprintf(buf + l, len - l, " }");
	}
	if (n->proto[0] != '\0' && n->nranges == 0 && l < len)
		l += (size_t)snprintf(buf + l, len - l, " meta l4proto %s",
		                      n->proto);
	if (n->nranges > 0 && l < len) {
		l += (size_t)snprintf(buf + l, len - l, " %s dport %s",
		                      n->proto, n->nranges > 1 ? "{ " : "");
		for (size_t i = 0; i < n->nranges && l < len; i++)
			l += (size_t)(n->lo[i] == n->hi[i]
			                  ? snprintf(buf + l, len - l, "%s%u",
			                             i ? ", " : "", n->lo[i])
			                  : snprintf(buf + l, len - l,
			                             "%s%u-%u", i ? ", " : "",
			                             n->lo[i], n->hi[i]));
		if (n->nranges > 1 && l < len)
			l += (size_t)snprintf(buf + l, len - l, " }");
	}
	return l < len;
}

/* Appends to buf what rule n matches, as iptables writes it ("-s
 * 10.0.0.0/24 -p tcp -m multiport --dports 29400:29410,29500"); false
 * when it has more than one source or a name is not plain. */
static bool ipt_text(const struct fwr_block *n, char *buf, size_t len)
{
	size_t l = strlen(buf);

	if (n->nsaddr > 1 || (n->nsaddr == 1 && !plain(n->saddr[0])))
		return false;
	if (n->nsaddr == 1)
		l += (size_t)snprintf(buf + l, len - l, " -s %s", n->saddr[0]);
	if (n->proto[0] != '\0' && l < len)
		l += (size_t)snprintf(buf + l, len - l, " -p %s", n->proto);
	if (n->nranges > 0 && l < len)
		l += (size_t)snprintf(buf + l, len - l, "%s",
		                      n->nranges > 1 ? " -m multiport --dports "
		                                     : " --dport ");
	for (size_t i = 0; i < n->nranges && l < len; i++)
		l += (size_t)(n->lo[i] == n->hi[i]
		                  ? snprintf(buf + l, len - l, "%s%u",
		                             i ? "," : "", n->lo[i])
		                  : snprintf(buf + l, len - l, "%s%u:%u",
		                             i ? "," : "", n->lo[i], n->hi[i]));
	return l < len;
}

/* The commands for notrack rule n dropped by chain k: the accept into
 * cmd, the exemption's deletion into del; false when they cannot be
 * written (a name not plain, a family that does not fit). */
static bool commands(const struct fw_rules *r, const struct fwr_block *n,
                     const struct fwr_block *k, char *what, size_t wl,
                     char *cmd, size_t cl, char *del, size_t dl)
{
	if (r->notrack_tool[0] != '\0') {
		/* iptables: the accept goes into the filter table's INPUT,
		 * where the drop must be */
		if (strcmp(k->table, "filter") != 0 ||
		    strcmp(k->chain, "INPUT") != 0 || !ipt_text(n, what, wl))
			return false;
		snprintf(cmd, cl,
		         "%s -I INPUT%s -m conntrack --ctstate UNTRACKED -j "
		         "ACCEPT",
		         r->notrack_tool, what);
		snprintf(del, dl, "%s -t raw -D PREROUTING %ld",
		         r->notrack_tool, n->handle);
		return true;
	}
	if (!match_text(n, k->family, what, wl) || !plain(k->table) ||
	    !plain(k->chain) || !plain(n->table) || !plain(n->chain))
		return false;
	snprintf(cmd, cl,
	         "nft insert rule %s %s %s ct state untracked%s accept",
	         k->family, k->table, k->chain, what);
	snprintf(del, dl, "nft delete rule %s %s %s handle %ld", n->family,
	         n->table, n->chain, n->handle);
	return true;
}

/* One finding for notrack rule n, dropped by chain k's catch-all.
 * Returns 0, or -1 on no memory. */
static int report(const struct fw_rules *r, const struct fwr_block *n,
                  const struct fwr_block *k, struct doc *d)
{
	char what[400] = "", cmd[700], del[300], fix[1400];
	json_t *ev = NULL;
	const char *src = r->notrack_tool[0] ? r->notrack_tool : "nft";

	if (!commands(r, n, k, what, sizeof(what), cmd, sizeof(cmd), del,
	              sizeof(del)))
		return 0;
	snprintf(fix, sizeof(fix),
	         "accept the exempted packets as untracked, ahead of the "
	         "drop: %s (firewalld's own fix); then the same where the "
	         "ruleset is written (/etc/nftables.conf, "
	         "/etc/iptables/rules.v4, the firewall manager's config), or "
	         "it comes back at boot. Or, where the "
	         "exemption is not wanted, delete it: %s (conntrack then "
	         "tracks those packets again, the load it spared)",
	         cmd, del);
	if (evidence_add(&ev, src,
	                 "table %s %s, chain %s (prerouting), handle %ld:%s "
	                 "notrack",
	                 n->family, n->table, n->chain, n->handle,
	                 what[0] ? what : " every packet") < 0 ||
	    (k->kind == FWR_POLICY
	         ? evidence_add(&ev, src,
	                        "table %s %s, chain %s (input): policy drop",
	                        k->family, k->table, k->chain)
	         : evidence_add(&ev, src,
	                        "table %s %s, chain %s (input), handle %ld: "
	                        "drops every packet",
	                        k->family, k->table, k->chain, k->handle)) <
	        0 ||
	    evidence_add(&ev, src,
	                 "no accept of the input chains matches those "
	                 "packets as untracked (ct state untracked, or no ct "
	                 "state)") < 0) {
		json_decref(ev);
		return -1;
	}
	if (doc_add_finding(
	        d, FINDING_NOTRACK_UNTRACKED_DROP, -1, ev, fix,
	        "packets exempted from connection tracking (table %s %s, "
	        "chain %s, handle %ld:%s notrack) reach input untracked, "
	        "match no accept there (ct state new and established never "
	        "match them) and are dropped by %s %s %s: those peers cannot "
	        "connect to this node, and the replies to its own "
	        "connections to them are dropped too",
	        n->family, n->table, n->chain, n->handle,
	        what[0] ? what : " every packet", k->family, k->table,
	        k->chain) < 0)
		return -1;
	return doc_finding_command(d, cmd);
}

/* See decide_notrack.h. */
int decide_notrack(const struct fw_rules *r, struct doc *d)
{
	const struct fwr_block *k;
	int found = 0;

	if (r == NULL || r->backend == FWR_NONE || r->nnotrack == 0 ||
	    (k = catch_all(r)) == NULL)
		return 0;
	for (size_t i = 0; i < r->nnotrack && found < NT_MAX_FINDINGS; i++) {
		if (accepted(r, &r->notrack[i]))
			continue;
		if (report(r, &r->notrack[i], k, d) < 0)
			return -1;
		found++;
	}
	return 0;
}
