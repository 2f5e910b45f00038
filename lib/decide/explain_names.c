/* netprobe explain's decider, the names a log looked up: a name that did
 * not resolve is a name fault only when nothing in the log says the
 * launcher made it (a host list's syntax, a name cut short, quotation),
 * or that it may not exist yet (ssh retried while pods start), or that
 * ssh already said why mpirun's daemons did not start (issue 42). */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"

/* A name as quoted around it: a paste's Markdown backticks
 * (`node-0`), GNU's `node-0' or plain quotes are quotation, not part of
 * the name a launcher looked up (issue 42: blind42c 026, a Kubeflow
 * Trainer launcher's pod name pasted in backticks). Copies n without
 * one such pair into buf; returns buf, or n when it holds none. */
static const char *unquote(const char *n, char *buf, size_t len)
{
	size_t k;

	if (n == NULL || (k = strlen(n)) < 3 || strchr("`'\"", n[0]) == NULL ||
	    strchr("`'\"", n[k - 1]) == NULL || (n[0] != '`' &&
						   n[0] != n[k - 1]))
		return n;
	snprintf(buf, len, "%.*s", (int)(k - 2), n + 1);
	return buf;
}

/* See explain_priv.h. */
bool explain_name_unexpanded(const char *n)
{
	const char *d = n ? strchr(n, '$') : NULL;

	return d && (d[1] == '{' || d[1] == '(' || d[1] == '_' ||
		     (d[1] >= 'A' && d[1] <= 'Z') ||
		     (d[1] >= 'a' && d[1] <= 'z'));
}

/* The fix for a name that did not resolve, with the name the line
 * holds. */
void explain_name_fix(const struct explain_hit *h, char *buf, size_t len)
{
	const char *n = logmatch_field(&h->m, "host");
	char q[256];

	if (n == NULL)
		n = logmatch_field(&h->m, "addr");
	n = unquote(n, q, sizeof(q));
	if (n && explain_name_unexpanded(n))
		snprintf(buf, len, "the name looked up is the literal text "
			 "%s: a variable nothing expanded. Expand it where "
			 "the job is launched (a Kubernetes container's "
			 "command and args take $(NAME), not $NAME or "
			 "${NAME}; a string in single quotes reaches the "
			 "program unexpanded), so MASTER_ADDR or the host "
			 "list holds the host's name or address", n);
	else if (n)
		snprintf(buf, len, "make %s resolve on every node of the job "
			 "(getent hosts %s must answer: DNS, or /etc/hosts "
			 "with its LAN address), or give the launcher and "
			 "MASTER_ADDR its address instead", n, n);
}

/* Whether n is a host name with a part the person who pasted it hid
 * behind a placeholder ("worker-1.<namespace>.svc"): the program looked
 * up the real name, whose syntax the paste does not show (issue 42:
 * blind42j b02). */
static bool redacted(const char *n)
{
	const char *lt = strchr(n, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	char rest[256];

	if (gt == NULL || gt - lt < 2)
		return false;
	snprintf(rest, sizeof(rest), "%.*sx%s", (int)(lt - n), n, gt + 1);
	return strspn(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
		      "WXYZ0123456789.-_") == strlen(rest);
}

/* A string no lookup can find: a host name is letters, digits, '-',
 * '.' (and '_' that resolvers pass), so a ':', '/', space, '=', ',' or
 * '[' that is not part of an address literal means a launcher handed
 * its own syntax (HOST:SLOTS, a pdsh range, a URL) to ssh or
 * getaddrinfo (issue 42: athena-team/athena#139, mit-han-lab/spvnas#30,
 * horovod/horovod#951). Returns true for such a string. */
static bool not_a_hostname(const char *n)
{
	unsigned char buf[sizeof(struct in6_addr)];
	char lit[64];
	size_t k;

	if (n == NULL || *n == '\0' || explain_name_unexpanded(n) || redacted(n))
		return false;
	k = strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789.-_");
	if (n[k] == '\0')
		return false;
	/* an IPv6 literal, bracketed or with a scope, is an address */
	snprintf(lit, sizeof(lit), "%.*s", (int)strcspn(n + (*n == '['),
		 "]%"), n + (*n == '['));
	return inet_pton(AF_INET6, lit, buf) != 1;
}

/* A name-lookup line whose name cannot be a host name: the launcher's
 * syntax, not the network (see not_a_hostname). */
bool explain_launcher_syntax(const struct explain_hit *h)
{
	const struct logsig *s = h->m.sig;
	const char *n = logmatch_field(&h->m, "host");
	char q[256];

	if (n == NULL)
		n = logmatch_field(&h->m, "addr");
	return s->codes && strstr(s->codes,
				  finding_name(FINDING_NAME_UNRESOLVED)) &&
	       not_a_hostname(unquote(n, q, sizeof(q)));
}

/* A name that did not resolve and is a name the log gives the launcher
 * (a host file written in the paste, an -H list) cut short: by one or
 * two characters, a parser that lost them (issue 42: blind42c 027,
 * pmodels/mpich#6719's 'localhos'); at its first dot, Open MPI's own
 * short name (orte_keep_fqdn_hostnames, false by default since 2.0.2,
 * open-mpi/ompi#2015: "strips off the FQDN by truncating the hostname
 * string at the first '.'"; a Kubernetes pod.service name then does not
 * resolve, open-mpi/ompi#12089). Either is the launcher, not DNS.
 * Returns the name given, into buf, with *dot set for the second, or
 * NULL; a name the log gives as it is was looked up as given. */
const char *explain_name_cut(const struct explain_log *lg,
			     const struct explain_hit *h, char *buf,
			     size_t len, bool *dot)
{
	const struct logsig *s = h->m.sig;
	const char *n = logmatch_field(&h->m, "host");
	const char *found = NULL;
	size_t k;

	if (n == NULL)
		n = logmatch_field(&h->m, "addr");
	if (n == NULL || s->codes == NULL ||
	    strstr(s->codes, finding_name(FINDING_NAME_UNRESOLVED)) == NULL)
		return NULL;
	k = strlen(n);
	for (size_t i = 0; i < lg->nhits; i++) {
		const char *g = logmatch_field(&lg->hits[i].m, "hosts_given");

		while (g && *g) {
			size_t m = strcspn(g, ",:");

			if (m == k && strncmp(g, n, k) == 0)
				return NULL; /* given as looked up */
			if (found == NULL && m > k && strncmp(g, n, k) == 0 &&
			    (m <= k + 2 || (g[k] == '.' &&
					    memchr(n, '.', k) == NULL &&
					    strspn(g, "0123456789.") < m))) {
				*dot = m > k + 2 || g[k] == '.';
				snprintf(buf, len, "%.*s", (int)m, g);
				found = buf;
			}
			g += m;
			if (*g == ':')
				g += 1 + strspn(g + 1, "0123456789");
			g += *g == ',';
		}
	}
	return found;
}

/* Records a name the launcher cut short as the cause that is not the
 * network, with what to check. */
void explain_cut_cause(const struct explain_hit *h, const char *given,
		       bool dot, struct explain_result *r)
{
	struct explain_cause *c = explain_cause_for(r, EXPLAIN_OTHER, false,
						    "launcher-syntax");
	const char *n = logmatch_field(&h->m, "host");

	if (n == NULL)
		n = logmatch_field(&h->m, "addr");
	if (c == NULL || n == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] != '\0')
		return;
	snprintf(c->why, sizeof(c->why), "'%.60s' was looked up, yet the log "
		 "gives the launcher '%.60s': the launcher cut the name it "
		 "read, not DNS or the network", n, given);
	if (dot)
		snprintf(c->fix, sizeof(c->fix), "Open MPI keeps a name's "
			 "first label only (orte_keep_fqdn_hostnames, default "
			 "false): mpirun --mca orte_keep_fqdn_hostnames 1 "
			 "(Open MPI 2-4), or give the launcher names or "
			 "addresses that resolve as they are");
	else
		snprintf(c->fix, sizeof(c->fix), "the launcher's version "
			 "(mpiexec --version) against its host-file parser's "
			 "known bugs, and the host file's bytes (cat -A FILE)");
}

/* Records the launcher's syntax as the cause that is not the network,
 * with what to check: the host list's form and the launcher's
 * version. */
void explain_launcher_cause(const struct explain_hit *h,
			    struct explain_result *r)
{
	struct explain_cause *c = explain_cause_for(r, EXPLAIN_OTHER, false,
						    "launcher-syntax");
	const char *n = logmatch_field(&h->m, "host");
	const char *colon;

	if (n == NULL)
		n = logmatch_field(&h->m, "addr");
	if (c == NULL || n == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] != '\0')
		return;
	snprintf(c->why, sizeof(c->why), "'%.60s' was looked up as a host "
		 "name, yet no host name holds ':', '/', ',', '=', '[' or a "
		 "space: a host list's or MASTER_ADDR's syntax, not DNS or "
		 "the network", n);
	colon = strchr(n, ':');
	if (colon && colon[1] && strspn(colon + 1, "0123456789") ==
	    strlen(colon + 1))
		snprintf(c->fix, sizeof(c->fix), "'%.80s' is HOST:SLOTS, which "
			 "reached ssh as a name: check the launcher's version "
			 "(an mpirun older than Open MPI 4 does not take "
			 "HOST:SLOTS; mpirun --version) or list hosts as -H "
			 "host1,host2 with slots in a hostfile (host slots=N)",
			 n);
	else
		snprintf(c->fix, sizeof(c->fix), "the host list's "
			 "syntax (one plain name or address per host; slots and "
			 "ports in the launcher's own fields; MASTER_ADDR a bare "
			 "name or address) and the launcher's version (its "
			 "--version against the form its documentation gives)");
}

/* The row of the hit at a cause's reference, or NULL. */
static const char *ref_row(const struct explain_log *lg,
			   const struct explain_ref *f)
{
	const struct explain_hit *h = explain_ref_hit(lg, f);

	return h ? h->m.sig->id : NULL;
}

/* mpirun's "unable to reliably start one or more daemons" after ssh
 * said why (a name that does not resolve, a refused or unreachable
 * host, a key) or the remote shell did (no orted in its PATH: ssh got
 * in): its candidates are what ssh already decided
 * (horovod/horovod#951; issue 42, blind42d 010, open-mpi/ompi#599), so
 * they go. */
void explain_ssh_orte(const struct explain_log *lg, struct explain_result *r)
{
	bool ssh = false;
	size_t o = 0;

	for (size_t i = 0; i < lg->nhits && !ssh; i++)
		ssh = strncmp(lg->hits[i].m.sig->id, "ssh-", 4) == 0 ||
		      strcmp(lg->hits[i].m.sig->id,
			     "ompi-orted-not-found") == 0;
	if (!ssh)
		return;
	for (size_t i = 0; i < r->ncauses; i++) {
		const struct explain_cause *c = &r->causes[i];
		bool orte = c->kind == EXPLAIN_NET && c->open && c->nrefs > 0;

		for (size_t k = 0; orte && k < c->nrefs; k++) {
			const char *id = ref_row(lg, &c->refs[k]);

			orte = id && strcmp(id, "ompi-orte-start") == 0;
		}
		if (!orte)
			r->causes[o++] = *c;
	}
	r->ncauses = o;
}

/* ssh failed on the same name more than once: the launcher retried
 * the lookup over time, as a start-up script does while it waits for
 * its workers (Kubeflow's MPI launcher loops on mpiexec until every
 * worker pod answers). A name that did not resolve is then a fact, not
 * yet the cause: a headless service's pod name resolves only once its
 * pod runs, so pods never scheduled or started (an image that cannot
 * be pulled) give the same lines (issue 42: blind42c 025,
 * kubeflow/kubeflow#887). The cause stays open with what tells. */
void explain_name_retried(const struct explain_log *lg,
			  struct explain_result *r)
{
	for (size_t i = 0; i < r->ncauses; i++) {
		struct explain_cause *c = &r->causes[i];
		const char *host = NULL;
		bool again = false, ssh = c->nrefs > 0;

		if (c->kind != EXPLAIN_NET || c->open ||
		    !finding_is(c->codes[0], FINDING_NAME_UNRESOLVED))
			continue;
		for (size_t k = 0; k < c->nrefs && ssh; k++) {
			const char *id = ref_row(lg, &c->refs[k]);

			ssh = id && strcmp(id, "ssh-resolve") == 0;
		}
		for (size_t a = 0; a < lg->nhits && ssh && !again; a++) {
			const struct explain_hit *h = &lg->hits[a];

			if (strcmp(h->m.sig->id, "ssh-resolve") != 0)
				continue;
			host = logmatch_field(&h->m, "host");
			for (size_t b = a + 1; b < lg->nhits && !again; b++)
				again = strcmp(lg->hits[b].m.sig->id,
					       "ssh-resolve") == 0 && host &&
					logmatch_field(&lg->hits[b].m, "host") &&
					strcmp(host, logmatch_field(
						&lg->hits[b].m, "host")) == 0;
		}
		if (!ssh || !again)
			continue;
		c->open = true;
		snprintf(c->why, sizeof(c->why), "ssh failed on %.60s more than "
			 "once: the launcher retried, as it does while its "
			 "workers start; the name may not exist yet (a pod not "
			 "scheduled or not started) rather than DNS being wrong",
			 host);
		snprintf(c->next, sizeof(c->next), "kubectl get pods -o wide "
			 "(every worker Running? Pending or ImagePullBackOff "
			 "means the name cannot exist yet); then on the "
			 "launcher: getent hosts %.60s", host);
	}
}
