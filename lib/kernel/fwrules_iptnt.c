/* The exemptions from connection tracking of an iptables ruleset
 * (fwrules.h, issue 48): -j NOTRACK and -j CT --notrack in the raw
 * table's PREROUTING, and the filter table's INPUT accepts that match
 * untracked packets (--ctstate UNTRACKED, or no state at all), parsed
 * from iptables-save's text into fw_rules' notrack and untracked. */
#include "kernel/fwrules.h"

#include <stdio.h>
#include <string.h>

/* "1000:2000,3000" into b's ranges; false when it is not that. */
static bool ports_into(const char *s, struct fwr_block *b)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ",", &save); t != NULL;
	     t = strtok_r(NULL, ",", &save)) {
		unsigned lo, hi;
		char tail;

		if (b->nranges >= FWR_RANGES)
			return false;
		if (sscanf(t, "%u:%u%c", &lo, &hi, &tail) == 2) {
		} else if (sscanf(t, "%u%c", &lo, &tail) == 1) {
			hi = lo;
		} else {
			return false;
		}
		if (lo == 0 || hi > 65535 || lo > hi)
			return false;
		b->lo[b->nranges] = lo;
		b->hi[b->nranges++] = hi;
	}
	return true;
}

/* One "-A CHAIN ..." line's tokens after the chain into b: true when it
 * matches only on its source, transport and ports (and, with states, a
 * connection state, whose words go into st) and jumps to one of want or
 * want2 (with its options). */
static bool rule_into(char **tok, size_t nt, struct fwr_block *b, char *st,
                      size_t stl, const char *want, const char *want2)
{
	bool verdict = false;

	st[0] = '\0';
	for (size_t i = 0; i < nt; i++) {
		const char *t = tok[i], *v = i + 1 < nt ? tok[i + 1] : NULL;

		if (v == NULL && strcmp(t, "--notrack") != 0)
			return false;
		if (!strcmp(t, "-s") && b->nsaddr < FWR_SADDRS) {
			snprintf(b->saddr[b->nsaddr++], FWR_ADDR, "%s", v);
			i++;
		} else if (!strcmp(t, "-p")) {
			snprintf(b->proto, sizeof(b->proto), "%s", v);
			i++;
		} else if (!strcmp(t, "-m") || !strcmp(t, "--comment")) {
			i++;
		} else if (!strcmp(t, "--dport") || !strcmp(t, "--dports")) {
			if (!ports_into(v, b))
				return false;
			i++;
		} else if (!strcmp(t, "--ctstate") || !strcmp(t, "--state")) {
			snprintf(st, stl, "%s", v);
			i++;
		} else if (!strcmp(t, "-j")) {
			verdict = !strcmp(v, want) ||
			          (want2 != NULL && !strcmp(v, want2));
			i++;
		} else if (strcmp(t, "--notrack") != 0) {
			return false; /* -i, -d, "!", a mark: not judged */
		}
	}
	return verdict && (b->proto[0] == '\0' || !strcmp(b->proto, "tcp") ||
	                   !strcmp(b->proto, "udp"));
}

/* True when state words st ("RELATED,ESTABLISHED") hold UNTRACKED. */
static bool has_untracked(const char *st)
{
	return strstr(st, "UNTRACKED") != NULL;
}

/* One line of iptables-save text in table tab, into r. */
static void line_into(char *line, const char *tab, long *num,
                      struct fw_rules *r)
{
	char *save = NULL, *tok[64], st[128];
	size_t nt = 0;
	struct fwr_block b = {.kind = FWR_RULE};

	for (char *t = strtok_r(line, " \t\n", &save); t && nt < 64;
	     t = strtok_r(NULL, " \t\n", &save))
		tok[nt++] = t;
	if (nt < 3 || strcmp(tok[0], "-A") != 0)
		return;
	snprintf(b.family, sizeof(b.family), "ip");
	snprintf(b.table, sizeof(b.table), "%s", tab);
	snprintf(b.chain, sizeof(b.chain), "%s", tok[1]);
	if (!strcmp(tab, "raw") && !strcmp(tok[1], "PREROUTING")) {
		b.handle = ++num[0];
		/* -j CT without --notrack (a zone, a helper) is no
		 * exemption */
		bool nt_rule = strcmp(tok[nt - 1], "--notrack") == 0 ||
		               strcmp(tok[nt - 1], "NOTRACK") == 0;

		if (nt_rule &&
		    rule_into(tok + 2, nt - 2, &b, st, sizeof(st), "NOTRACK",
		              "CT") &&
		    r->nnotrack < FWR_NOTRACK)
			r->notrack[r->nnotrack++] = b;
		else if (nt_rule)
			r->notrack_xt = true; /* an exemption not judged */
	} else if (!strcmp(tab, "filter") && !strcmp(tok[1], "INPUT")) {
		b.handle = ++num[1];
		if (rule_into(tok + 2, nt - 2, &b, st, sizeof(st), "ACCEPT",
		              NULL) &&
		    (st[0] == '\0' || has_untracked(st)) &&
		    r->nuntracked < FWR_NOTRACK) {
			b.accept = true;
			b.untracked = true;
			r->untracked[r->nuntracked++] = b;
		}
	}
}

/* See fwrules.h. */
void fwrules_parse_ipt_notrack(const char *text, const char *tool,
                               struct fw_rules *r)
{
	const char *p = text;
	char tab[16] = "";
	long num[2] = {0, 0};

	r->nnotrack = r->nuntracked = 0;
	r->notrack_xt = false;
	snprintf(r->notrack_tool, sizeof(r->notrack_tool), "%s", tool);
	while (p != NULL && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (nl != NULL);
		if (line[0] == '*') {
			snprintf(tab, sizeof(tab), "%.15s", line + 1);
			num[0] = num[1] = 0;
		} else {
			line_into(line, tab, num, r);
		}
	}
}
