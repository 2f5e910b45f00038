/* netprobe scan's output for people and shells: the interface table,
 * layering, findings, peers, ports to open, NCCL's own choice and the
 * recommendation; or only `export` lines; or the JSON document. */
#include <stdio.h>
#include <string.h>

#include "base/termsafe.h"
#include "scan/scan_int.h"

#define TABLE_MAX 24 /* interfaces listed in full in the text table */

/* Writes value single-quoted for sh: ' becomes '\''. */
static void sh_quote(FILE *fp, const char *value)
{
	fputc('\'', fp);
	for (const char *p = value; *p != '\0'; p++) {
		if (*p == '\'')
			fputs("'\\''", fp);
		else
			fputc(*p, fp);
	}
	fputc('\'', fp);
}

/* The settings that are not this node's own, as shell comments (or, for
 * MASTER_ADDR with rank0, an export): MASTER_ADDR is rank 0's address on
 * every node, and Ray takes the node address on its command line only. */
static void emit_not_own(const struct recommendation *r, bool rank0,
                         const char *indent)
{
	if (rank0) {
		printf("%sexport MASTER_ADDR=", indent);
		sh_quote(stdout, r->addr->str);
		putchar('\n');
	} else {
		printf("%s# MASTER_ADDR is rank 0's address on every node; if "
		       "rank 0 runs here: export MASTER_ADDR=",
		       indent);
		sh_quote(stdout, r->addr->str);
		printf(" (--export --rank0)\n");
	}
	printf("%s# Ray takes the node address on its command line only: "
	       "ray start --node-ip-address=%s\n",
	       indent, r->addr->str);
}

/* --export: only `export NAME='value'` lines (and comments) on stdout,
 * each right on this node. */
static void emit_export(const struct scan *s)
{
	const struct recommendation *r = &s->rec;

	if (r->ifc == NULL) {
		fprintf(stderr, "# netprobe scan: no recommendation: %s\n",
		        r->nreasons > 0 ? r->reasons[0] : "no interface");
		/* the RDMA settings do not depend on the socket interface */
		scan_rdma_export(s, "");
		return;
	}
	for (int i = 0; i < r->nenv; i++) {
		printf("export %s=", r->env[i].name);
		sh_quote(stdout, r->env[i].value);
		putchar('\n');
	}
	emit_not_own(r, s->o.rank0, "");
	scan_rdma_export(s, "");
}

/* A short state word for the interface table. */
static const char *state_word(const struct iface *ifc)
{
	if (!(ifc->flags & IFF_UP))
		return "down";
	if (!(ifc->flags & IFF_RUNNING) || ifc->carrier == 0)
		return "no-carrier";
	return "up";
}

/* Starts and ends colour for a severity, on a terminal only. */
static const char *sev_color(const struct scan *s, const char *sev)
{
	if (!s->color)
		return "";
	if (strcmp(sev, "fault") == 0)
		return "\033[1;31m";
	if (strcmp(sev, "warning") == 0)
		return "\033[33m";
	return "\033[36m";
}

/* The interface table: interfaces with addresses, or all when few. */
static void emit_ifaces(const struct scan *s)
{
	const struct iface_list *l = &s->ifaces;
	size_t hidden = 0;

	printf("interfaces\n");
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];
		int shown = 0;

		if (l->n > TABLE_MAX && ifc->naddrs == 0) {
			hidden++;
			continue;
		}
		printf("  %-16s %-10s %-10s", ifc->name,
		       iface_kind_name(ifc->kind), state_word(ifc));
		for (int k = 0; k < ifc->naddrs; k++) {
			const struct iface_addr *a = &ifc->addrs[k];

			if (a->family == AF_INET6 &&
			    IN6_IS_ADDR_LINKLOCAL(&a->a.v6) && ifc->naddrs > 1)
				continue;
			printf(" %s/%u", a->str, a->prefixlen);
			shown++;
		}
		if (ifc->master[0] != '\0')
			printf(" (in %s)", ifc->master);
		else if (shown == 0)
			printf(" -");
		putchar('\n');
	}
	if (hidden > 0)
		printf("  (%zu more without addresses: --json lists them)\n",
		       hidden);
}

/* The layering in one line. */
static void emit_layers(const struct scan *s)
{
	const struct layers *ly = &s->ly;

	if (!s->have_layers)
		return;
	printf("\nlayers\n  container %s, network %s, wsl %s%s, reach %s",
	       layers_container_name(ly->container),
	       layers_netmode_name(ly->netmode), layers_wsl_name(ly->wsl),
	       ly->wsl_container ? " (container inside)" : "",
	       layers_reach_name(ly->reach));
	if (ly->shm_bytes >= 0)
		printf(", /dev/shm %lld MiB", ly->shm_bytes >> 20);
	putchar('\n');
}

/* The rules that limit connections, where the ruleset holds any: a
 * limit that is no finding (ICMP, SSH) is still worth a line when a
 * connection fails (issue 48). The sysctls show in the findings when
 * they matter. */
static void emit_limits(const struct scan *s)
{
	char text[256];

	if (s->lim.nrules == 0)
		return;
	printf("\nlimit rules\n");
	for (size_t i = 0; i < s->lim.nrules; i++) {
		const struct hl_rule *r = &s->lim.rules[i];

		hostlim_rule_text(r, text, sizeof(text));
		if (r->tool[0] != '\0')
			printf("  %s %s rule %ld: %s\n", r->tool, r->chain,
			       r->handle, text);
		else
			printf("  nft %s %s %s handle %ld: %s\n", r->family,
			       r->table, r->chain, r->handle, text);
	}
}

/* Findings: severity, code, summary, evidence indented, fix. */
static void emit_findings(const struct scan *s)
{
	size_t i, k;
	json_t *f, *e;

	printf("\nfindings\n");
	if (json_array_size(s->run.doc.findings) == 0)
		printf("  none\n");
	json_array_foreach(s->run.doc.findings, i, f)
	{
		const char *sev =
		    json_string_value(json_object_get(f, "severity"));

		printf("  %s%-7s%s  %s: %s\n", sev_color(s, sev), sev,
		       s->color ? "\033[0m" : "",
		       json_string_value(json_object_get(f, "code")),
		       json_string_value(json_object_get(f, "summary")));
		json_array_foreach(json_object_get(f, "evidence"), k, e)
		    printf("           %s (%s)\n",
		           json_string_value(json_object_get(e, "fact")),
		           json_string_value(json_object_get(e, "source")));
		printf("           fix: %s\n",
		       json_string_value(json_object_get(f, "fix")));
	}
	json_array_foreach(s->run.doc.errors, i, f)
	    printf("  %-7s  %s: %s\n", "skipped",
	           json_string_value(json_object_get(f, "step")),
	           json_string_value(json_object_get(f, "message")));
}

/* Why the other interfaces lost, one line per reason: a node with a
 * thousand veths gets one line for them, not a thousand. */
static void emit_rejected(const struct recommendation *r)
{
	for (size_t i = 0; i < r->nrejected; i++) {
		const char *why = r->rejected[i].reason;
		size_t n = 0, shown = 0;
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(r->rejected[k].reason, why) == 0;
		if (seen)
			continue;
		printf("  not ");
		for (size_t k = i; k < r->nrejected; k++) {
			if (strcmp(r->rejected[k].reason, why) != 0)
				continue;
			if (shown < 4)
				printf("%s%s", shown ? ", " : "",
				       r->rejected[k].interface);
			shown++;
			n++;
		}
		if (n > 4)
			printf(" and %zu more", n - 4);
		printf(": %s\n", why);
	}
}

/* NCCL's own choice and the recommendation with its settings. */
static void emit_choice(const struct scan *s)
{
	const struct nccl_choice *c = &s->nccl.choice;
	const struct recommendation *r = &s->rec;

	printf("\nnccl's own choice (NCCL_SOCKET_IFNAME unset)\n  rule %s:",
	       c->rule);
	for (int i = 0; i < c->n; i++)
		printf(" %s %s%s%s", c->v[i].name, c->v[i].addr->str,
		       s->nccl.boot.n > 0 &&
		               s->nccl.boot.v[0].addr == c->v[i].addr
		           ? " (bootstrap)"
		           : "",
		       i + 1 < c->n ? "," : "");
	if (c->n == 0)
		printf(" no interface");
	if (s->nccl.boot.n > 0 &&
	    strcmp(s->nccl.boot.rule, "NCCL_COMM_ID subnet") == 0)
		printf("\n  bootstrap %s %s (rule %s)", s->nccl.boot.v[0].name,
		       s->nccl.boot.v[0].addr->str, s->nccl.boot.rule);
	printf("\n  %s: %s\n", s->nccl.safe ? "safe" : "not safe", s->nccl.why);

	printf("\nrecommendation\n");
	if (r->ifc != NULL)
		printf("  interface %s, address %s\n", r->ifc->name,
		       r->addr->str);
	else
		printf("  no interface\n");
	for (int i = 0; i < r->nenv; i++) {
		printf("  export %s=", r->env[i].name);
		sh_quote(stdout, r->env[i].value);
		putchar('\n');
	}
	if (r->ifc != NULL)
		emit_not_own(r, false, "  ");
	for (int i = 0; i < r->nreasons; i++)
		printf("  - %s\n", r->reasons[i]);
	emit_rejected(r);
}

/* The lines that open r, as the document's `commands` holds them:
 * against the ruleset this process read, or the sentence that says why
 * no nftables command can be written. */
static void emit_rule_cmds(const struct scan *s, const struct fw_rule *r)
{
	static const char *const keys[] = {"nftables", "iptables-legacy",
	                                   "ufw", "firewalld"};
	json_t *o = json_object();
	size_t i;
	json_t *v;

	if (o == NULL ||
	    fwcmd_rule_commands(r, json_object_get(s->run.doc.root, "firewall"),
	                        o) < 0) {
		printf("    (out of memory)\n");
		json_decref(o);
		return;
	}
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		json_array_foreach(json_object_get(o, keys[k]), i, v)
			printf("    %s\n", json_string_value(v));
	json_decref(o);
}

/* One line per peer, then the ports to open with the commands. */
static void emit_peers(const struct scan *s)
{

	if (s->npeers == 0)
		return;
	printf("\npeers\n");
	for (size_t i = 0; i < s->npeers; i++) {
		const struct peer_verdict *v = &s->peers[i];

		printf("  %-22s %-15s", v->peer,
		       v->peer_addr[0] ? v->peer_addr : "-");
		if (!v->responded) {
			char buf[256];
			const char *cause =
			    decide_route_cause(&s->ifaces, v, buf, sizeof(buf));

			if (cause != NULL)
				printf(" not reached: %s\n", cause);
			else
				printf(" no responder (route via %s)\n",
				       v->local_ifname[0] ? v->local_ifname
				                          : "-");
			continue;
		}
		printf(" via %s %s, nat %s, inbound %s", v->local_ifname,
		       v->local_addr,
		       v->nat == 1   ? "yes"
		       : v->nat == 0 ? "no"
		                     : "?",
		       v->inbound == 1        ? "ok"
		       : peer_replies_lost(v) ? "replies lost"
		       : v->inbound == 0      ? "blocked"
		                              : "?");
		if (v->rtt_us >= 0)
			printf(", rtt %lld us", v->rtt_us);
		if (v->path_mtu >= 0)
			printf(", path mtu %d", v->path_mtu);
		putchar('\n');
	}
	if (s->fw.n == 0)
		return;
	printf("\nports to open\n");
	for (size_t i = 0; i < s->fw.n; i++) {
		const struct fw_rule *r = &s->fw.v[i];

		if (r->lo == r->hi)
			printf("  %u/%s", r->lo, r->proto);
		else
			printf("  %u-%u/%s", r->lo, r->hi, r->proto);
		printf("  on %s: %s\n", r->node[0] ? r->node : "this node",
		       r->why);
		emit_rule_cmds(s, r);
	}
}

/* --export or the text for people (--json: the document, which
 * cmd_finish writes; -q: no text, --export still); stdout is checked. */
int scan_emit(struct scan *s)
{
	FILE *real = stdout, *safe;
	int rc;

	if (s->run.json || (s->run.quiet && !s->o.export))
		return 0; /* cmd_finish writes the document */
	/* names come from the kernel and from peers: an ESC in one must not
	 * reach the terminal (the emitters print to stdout, so it is
	 * swapped for the escaping stream while they run) */
	safe = termsafe_open(real, s->color && !s->o.export);
	if (safe == NULL)
		return -1;
	stdout = safe;
	if (s->o.export) {
		emit_export(s);
	} else {
		emit_ifaces(s);
		emit_layers(s);
		emit_limits(s);
		emit_findings(s);
		emit_peers(s);
		emit_choice(s);
		scan_rdma_text(s);
	}
	rc = fflush(safe) == 0 && !ferror(safe) ? 0 : -1;
	stdout = real;
	if (fclose(safe) == EOF)
		rc = -1;
	return rc == 0 && fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
}
