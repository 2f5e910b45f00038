/* netprobe explain: the errno words any program prints (issue 42).
 * logsig_generic.def's rows read a line no framework row reads; here
 * such a line opens its candidates, with the address, port or name it
 * holds in the command that decides, and never a decided cause: which
 * framework printed it, and toward which of its peers, is unknown. */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"

/* What a generic row's errno is about. A refusal, a timeout, an
 * unreachable host or an RDMA retry can be what a crashed peer leaves
 * behind; a name, a port held, an address not held here, or a network
 * this node has no route to (its own routing table says so) is this
 * node's own. */
enum gen_class { GEN_CONNECT, GEN_NAME, GEN_BIND, GEN_ROUTE, GEN_RDMA };

/* Whether s is the connect in a program's own words, with no errno
 * (generic-connect-failed): it names its target after "connect to". */
static bool in_words(const struct logsig *s)
{
	return strcmp(s->id, "generic-connect-failed") == 0 ||
	       strcmp(s->id, "generic-connect-reach") == 0;
}

/* Whether s's words name a connect's target as "connect to" does, with
 * an errno's meaning in its own words (Fabric's "Timed out trying to
 * connect to H": a name with no port is still the target). */
static bool timeout_in_words(const struct logsig *s)
{
	return strcmp(s->id, "generic-timedout-words") == 0;
}

/* Whether a line of s with no endpoint of its own may take the one a
 * line near it names. Go's "context deadline exceeded" alone ends any
 * operation (a join, a sync), not a connect: it takes none. */
static bool takes_near(const struct logsig *s)
{
	return strcmp(s->id, "generic-timedout-deadline") != 0;
}

static enum gen_class gen_class_of(const struct logsig *s)
{
	if (strncmp(s->id, "generic-resolve", 15) == 0)
		return GEN_NAME;
	if (strncmp(s->id, "generic-netunreach", 18) == 0)
		return GEN_ROUTE;
	if (strncmp(s->id, "generic-rdma", 12) == 0)
		return GEN_RDMA;
	if (strncmp(s->id, "generic-in-use", 14) == 0 ||
	    strncmp(s->id, "generic-not-avail", 17) == 0)
		return GEN_BIND;
	return GEN_CONNECT;
}

/* Whether s ends with suffix. */
static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* See explain_priv.h: a connect failure beside an HTTP client's frames
 * is a download's (a model hub, a package index), not one toward a peer
 * of the job, as explain.c's http_timeout holds for Python's. Computed
 * once per log, not once per generic line. */
bool explain_http_client(const struct explain_log *lg)
{
	return explain_first_hit(lg, "http-client") != NULL;
}

/* Whether a host name is a cluster's own (a Kubernetes service, mDNS,
 * a cloud's internal zone, a LAN's): a peer of the job, not a public
 * service. https_line and http_peer share it. */
static bool cluster_name(const char *host)
{
	return ends_with(host, ".svc") || ends_with(host, ".local") ||
	       ends_with(host, ".internal") || ends_with(host, ".lan");
}

/* See explain_priv.h. */
bool explain_cluster_name(const char *host)
{
	return cluster_name(host);
}

/* Whether host is an IPv4 address a paste masked ("10.x.x.x",
 * "192.168.xxx.xx"): four dotted parts of digits or x's, at least one
 * masked. An address still, not a public service's name (issue 42:
 * blind42s b09, a kubelet at https://10.x.x.x:10250). */
static bool redacted_ip(const char *host)
{
	int parts = 1, masked = 0;
	size_t run = 0;

	for (const char *p = host; ; p++) {
		if (*p == '.' || *p == '\0') {
			if (run == 0 || run > 3)
				return false;
			if (*p == '\0')
				break;
			parts++;
			run = 0;
		} else if (*p == 'x' || *p == 'X') {
			masked++;
			run++;
		} else if (isdigit((unsigned char)*p)) {
			run++;
		} else {
			return false;
		}
	}
	return parts == 4 && masked > 0;
}

/* A line about an HTTPS service by a public name (a model hub, a
 * package index, an object store): its connect is a download's, not one
 * toward a peer of the job. A cluster's own service (an address, a name
 * under .svc, .local, .internal or .lan) stays a peer. */
static bool https_line(const char *t)
{
	const char *u = strstr(t, "https://");
	const char *p = strstr(t, "HTTPSConnectionPool(host=");
	char host[128];
	size_t n = 0;

	if (u != NULL)
		u += 8;
	else if (p != NULL)
		u = p + 25 + (p[25] == '\'');
	else
		return false;
	while (n + 1 < sizeof(host) && explain_host_char((unsigned char)u[n])) {
		host[n] = u[n];
		n++;
	}
	host[n] = '\0';
	if (n == 0 || explain_is_ip(host) || redacted_ip(host) ||
	    strchr(host, '.') == NULL)
		return false;
	return !cluster_name(host);
}

/* Whether an endpoint an HTTP client dialled is a peer of the job, not
 * a download's server: an address other than loopback, or a cluster's
 * own name (.svc, .local, .internal, .lan). A health check of a
 * serving replica, a Ray dashboard on a head node (issue 42). */
static bool http_peer(const char *addr)
{
	if (addr[0] == '\0' || strncmp(addr, "127.", 4) == 0 ||
	    strcmp(addr, "::1") == 0 || strcmp(addr, "localhost") == 0)
		return false;
	return explain_is_ip(addr) || cluster_name(addr);
}

/* See explain_priv.h. */
bool explain_near_peer(const struct explain_hit *h)
{
	return h->near_line != 0 && http_peer(h->near_addr);
}

/* A try the program says it repeats ("connect returned Connection
 * refused, retrying (1/34)"): normal while a peer's listener comes up;
 * the try that ends it decides. */
static bool retried(const char *t)
{
	return strstr(t, "retrying") || strstr(t, "Retrying") ||
	       strstr(t, "will retry") || strstr(t, "retry in");
}


/* Whether s[0..n) is a dotted IPv4 address. */
static bool is_ipv4(const char *s, size_t n)
{
	int dots = 0, digits = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.') {
			if (digits == 0)
				return false;
			dots++;
			digits = 0;
		} else if (isdigit((unsigned char)s[i]) && digits < 3) {
			digits++;
		} else {
			return false;
		}
	}
	return dots == 3 && digits > 0;
}

static bool port_at(const char *p, char *port, size_t len);

/* Whether s[0..n) is a source file's name, as a log's file:line prefix
 * gives it ("gcs_rpc_client.h:151", "socket.cpp:663"): no host. */
static bool source_file(const char *s, size_t n)
{
	static const char *const ext[] = {".h", ".c", ".cc", ".cpp", ".cxx",
					  ".hpp", ".cu", ".py", ".go", ".rs",
					  ".java", ".js", ".ts", ".scala",
					  ".jl", ".rb", ".kt", ".cs", ".php",
					  ".lua"};

	for (size_t k = 0; k < sizeof(ext) / sizeof(ext[0]); k++) {
		size_t e = strlen(ext[k]);

		if (n > e && strncmp(s + n - e, ext[k], e) == 0)
			return true;
	}
	return false;
}

/* Whether s[0..n), between brackets, is an address: an IPv6 one (with
 * its %zone), or a host name followed by "]:PORT" as torch prints any
 * host ("[node-1.example]:29500"). A log's "[W socket.cpp:663]" or
 * "[2025-07-23 10:05:49,679 W 51000 51000]" prefix is neither. */
static bool bracketed(const char *s, size_t n)
{
	char a[64];
	unsigned char b[16];
	size_t k = 0;
	bool letter = false;

	if (n == 0 || n >= sizeof(a))
		return false;
	memcpy(a, s, n);
	a[n] = '\0';
	a[strcspn(a, "%")] = '\0';
	if (strchr(a, ':') != NULL)
		return inet_pton(AF_INET6, a, b) == 1;
	while (k < n && explain_host_char((unsigned char)s[k]))
		letter |= isalpha((unsigned char)s[k++]);
	return k == n && (letter || explain_is_ip(a)) && s[n + 1] == ':' &&
	       isdigit((unsigned char)s[n + 2]);
}

/* The first endpoint a line names: an IPv4 address, a bracketed IPv6
 * one, or host:port with a host that holds a letter (a time stamp's
 * 10:05:49 is none), with its port if one follows (":PORT", or
 * Python's tuple "('ADDR', PORT)"). Returns false when
 * the line names none. */
static bool line_endpoint(const char *t, char *addr, size_t alen,
			  char *port, size_t plen)
{
	addr[0] = port[0] = '\0';
	for (size_t i = 0; t[i]; i++) {
		size_t s = i, n = 0, p = 0;
		bool letter = false;

		if (i > 0 && explain_host_char((unsigned char)t[i - 1]))
			continue; /* not a token's start */
		if (t[i] == '[') {
			const char *q = strchr(t + i, ']');

			if (q == NULL || !bracketed(t + i + 1, (size_t)(q - t) -
							       i - 1))
				continue;
			s = i + 1;
			n = (size_t)(q - t) - s;
			p = n + 1;
		} else {
			while (explain_host_char((unsigned char)t[i + n]))
				letter |= isalpha((unsigned char)t[i + n++]);
			if (n == 0)
				continue;
			/* after a colon only an IPv4 address starts a token
			 * ("ipv4:10.1.2.3:2222"; a port or a pid does not) */
			if (i > 0 && t[i - 1] == ':' && !is_ipv4(t + s, n))
				continue;
			if (!is_ipv4(t + s, n) &&
			    (!letter || t[s + n] != ':' ||
			     !isdigit((unsigned char)t[s + n + 1]) ||
			     source_file(t + s, n)))
				continue;
			p = n;
		}
		if (t[s + p] == ':' && isdigit((unsigned char)t[s + p + 1])) {
			size_t k = 0;

			while (isdigit((unsigned char)t[s + p + 1 + k]) && k < 6)
				k++;
			/* a third colon field (host:pid:tid) or a dot after
			 * the digits ("ipv4:10.1.2.3"): not a port */
			if ((t[s + p + 1 + k] == ':' &&
			     isdigit((unsigned char)t[s + p + 2 + k])) ||
			    t[s + p + 1 + k] == '.')
				continue;
			snprintf(port, plen, "%.*s", (int)k, t + s + p + 1);
		} else if (strncmp(t + s + p, "', ", 3) == 0) {
			/* Python's address tuple: ('10.1.2.3', 6379) */
			port_at(t + s + p + 3, port, plen);
		}
		snprintf(addr, alen, "%.*s", (int)n, t + s);
		return true;
	}
	return false;
}

/* See explain_priv.h. */
bool explain_line_endpoint(const char *t, char *addr, size_t alen,
			   char *port, size_t plen)
{
	return line_endpoint(t, addr, alen, port, plen);
}

/* The digits at p (2 to 5 of them, ending the token) into port. */
static bool port_at(const char *p, char *port, size_t len)
{
	size_t n = 0;

	while (isdigit((unsigned char)p[n]) && n < 6)
		n++;
	if (n < 2 || n > 5 || isalnum((unsigned char)p[n]))
		return false;
	snprintf(port, len, "%.*s", (int)n, p);
	return true;
}

/* A port the line names without an address: ":::8080", "*:8080", or
 * after a word that starts with "port" ("port 8080", "port=8080",
 * "port: 8080", "port[16666]", "port_base at 30234", "port `29500`",
 * "`port`:52321").
 * Returns false when none. */
static bool line_port(const char *t, char *port, size_t len)
{
	static const char *const before[] = {":::", "*:", " :"};
	static const char *const joins[] = {" at ", ": ", ":", "=", "[",
					    " `", " "};

	for (size_t k = 0; k < sizeof(before) / sizeof(before[0]); k++) {
		const char *p = strstr(t, before[k]);

		if (p != NULL && port_at(p + strlen(before[k]), port, len))
			return true;
	}
	for (const char *p = t; (p = strpbrk(p, "Pp")) != NULL; p++) {
		const char *q = p + 4;

		if (strncmp(p + 1, "ort", 3) != 0 ||
		    (p > t && isalpha((unsigned char)p[-1])))
			continue;
		while (isalpha((unsigned char)*q) || *q == '_')
			q++;
		q += *q == '`' || *q == '\'' || *q == '"'; /* `port`:N */
		for (size_t j = 0; j < sizeof(joins) / sizeof(joins[0]); j++)
			if (strncmp(q, joins[j], strlen(joins[j])) == 0 &&
			    port_at(q + strlen(joins[j]), port, len))
				return true;
	}
	return false;
}

/* The command that decides, from what the line names (the host the
 * program called, where the line names none); others: a peer may have
 * given the address (generic_one). */
static void gen_next(enum gen_class cls, const struct logsig *s,
		     const char *addr, const char *port, const char *cc,
		     bool others, char *buf, size_t len)
{
	bool loop = cls == GEN_CONNECT && cc && strcmp(cc, "loopback") == 0;
	bool advertised = loop && (s->flags & LOGSIG_PEER);
	const char *a = addr[0] ? addr : "HOST";
	const char *p = port[0] ? port : "PORT";
	const char *on = addr[0] ? addr : "the host the program called (HOST)";

	if (advertised)
		/* loopback a peer handed out: probing it here tests this
		 * node, not the peer */
		snprintf(buf, len, "on the peer that gave %s as its address "
			 "(the server or broker this line reached through "
			 "another address first): the address it advertises "
			 "(Kafka's advertised.listeners, a replica set's "
			 "member host, a server's --host) and getent hosts "
			 "$(hostname) there (a 127.x answer is what it gave); "
			 "it must be an address the clients reach", a);
	else if (loop)
		/* loopback is this node's (or this container's) own: probing
		 * it from elsewhere tests nothing */
		snprintf(buf, len, "on the node that printed it: ss -ltnp "
			 "'sport = :%s' (nothing there: the server is not up "
			 "on this host, or it runs in a container or VM whose "
			 "loopback is its own: publish the port, have the "
			 "server listen on 0.0.0.0 there, and dial the host's "
			 "address)%s", p, others ?
			 "; if a peer gave this address, getent hosts "
			 "$(hostname) on that peer (a 127.x answer is what it "
			 "advertised: map its name to its LAN address in "
			 "/etc/hosts)" : "");
	else if (cls == GEN_NAME)
		snprintf(buf, len, "on the node that printed it: getent hosts "
			 "%s (it must print the address the peers use: fix "
			 "its /etc/hosts entry or the DNS record, or give the "
			 "job the address)", addr[0] ? addr : "NAME");
	else if (strncmp(s->id, "generic-in-use", 14) == 0)
		snprintf(buf, len, "on the node that printed it: ss -ltnp "
			 "'sport = :%s' (the process that holds the port: "
			 "stop it, or give the job another port)", p);
	else if (cls == GEN_BIND)
		snprintf(buf, len, "on the node that printed it: ip -brief "
			 "address (is %s one of its addresses?) and getent "
			 "hosts $(hostname); for a connect: sysctl "
			 "net.ipv4.ip_local_port_range and ss -s",
			 addr[0] ? addr : "the address it bound");
	else if (cls == GEN_ROUTE)
		snprintf(buf, len, "on the node that printed it: ip route get "
			 "%s (no route: a missing default route, as on an "
			 "offline node, or a subnet no interface covers); ip "
			 "-brief address", addr[0] ? addr : "ADDR");
	else if (cls == GEN_RDMA)
		snprintf(buf, len, "on the node that wrote the log: netprobe "
			 "explain --here FILE (it judges the RDMA devices, "
			 "GIDs and the GID index as netprobe scan does); "
			 "show_gids on both nodes");
	else if (strncmp(s->id, "generic-refused", 15) == 0)
		snprintf(buf, len, "on %s: ss -ltnp 'sport = :%s' (does "
			 "anything listen, and on which address? 127.0.0.1 "
			 "serves no other host); then from the node that "
			 "printed it: netprobe ports %s %s", on, p, a, p);
	else
		snprintf(buf, len, "from the node that printed it: netprobe "
			 "scan --peer %s (with netprobe serve on it) and "
			 "netprobe ports %s %s; on %s: nft list ruleset (a "
			 "drop or reject of that port)", a, a, p, on);
}

/* One token at p as a connect's target: a name or an address
 * (brackets dropped) with ":PORT" or " [at] port N" after it. A bare
 * word ("Redis", "NATS:") is a service's name, not a host: a host is
 * an address, has a dot, or comes with its port. *end: where the token
 * stops. */
static bool target_token(const char *p, char *addr, size_t alen,
			 char *port, size_t plen, const char **end)
{
	size_t n = 0;
	bool letter = false;

	p += *p == '[';
	while (explain_host_char((unsigned char)p[n]))
		letter |= isalpha((unsigned char)p[n++]);
	*end = p + n;
	/* a sentence's full stop is no dot of a name ("Unable to connect
	 * to host engine.", issue 42: blind42z d05) */
	while (n > 0 && p[n - 1] == '.' && p[n] != ':')
		n--;
	if (n == 0 || n >= alen || (!letter && !is_ipv4(p, n)))
		return false;
	snprintf(addr, alen, "%.*s", (int)n, p);
	p += n;
	p += *p == ']';
	if (*p == ':')
		port_at(p + 1, port, plen);
	else if (strncmp(p, " port ", 6) == 0 || strncmp(p, " at port ", 9) == 0)
		line_port(p, port, plen);
	if (!is_ipv4(addr, n) && strchr(addr, '.') == NULL && port[0] == '\0') {
		addr[0] = '\0';
		return false;
	}
	return true;
}

/* The target of "connect to [the] [host|server] TARGET" (or "reach
 * ..."), or of the token after a word that names its role (Spark's
 * "connect to master spark-master:7077", "connect to host/10.1.2.3:7077",
 * "reach the gateway at H:P"). Returns false when the words name none
 * ("connect to the server", ":6379"). */
static bool connect_target(const char *t, char *addr, size_t alen,
			   char *port, size_t plen)
{
	static const char *const skip[] = {"the ", "host ", "server ",
					   "remote host "};
	const char *p = strstr(t, "connect to "), *end;

	if (p != NULL)
		p += 11;
	else if ((p = strstr(t, " reach ")) != NULL)
		p += 7;
	else
		return false;
	p += *p == '/'; /* Java's InetSocketAddress: "/10.1.2.3:7077" */
	for (size_t k = 0; k < sizeof(skip) / sizeof(skip[0]); k++)
		if (strncmp(p, skip[k], strlen(skip[k])) == 0)
			p += strlen(skip[k]);
	if (target_token(p, addr, alen, port, plen, &end))
		return true;
	if (end > p && (*end == ' ' || *end == '/')) {
		p = end + 1;
		p += strncmp(p, "at ", 3) == 0 ? 3 : 0;
		return target_token(p, addr, alen, port, plen, &end);
	}
	return false;
}

/* The host a program's words name before "is unreachable" ("host
 * \"n1\" is unreachable"), its quotes dropped, into addr. */
static bool host_named(const char *t, char *addr, size_t alen)
{
	const char *e = strstr(t, " is unreachable"), *b;
	size_t n;

	if (e == NULL || e == t)
		return false;
	b = e;
	if (b[-1] == '"' || b[-1] == '\'') {
		e = --b;
		while (b > t && b[-1] != *e)
			b--;
	} else {
		while (b > t && explain_host_char((unsigned char)b[-1]))
			b--;
	}
	n = (size_t)(e - b);
	if (n == 0 || n >= alen)
		return false;
	for (size_t k = 0; k < n; k++)
		if (!explain_host_char((unsigned char)b[k]))
			return false;
	snprintf(addr, alen, "%.*s", (int)n, b);
	return true;
}

/* The address (or name) and port a generic line names, by its class:
 * a lookup names a name, a connect in words its target, the others an
 * endpoint or a port. A connect whose line names neither takes the
 * endpoint a line near it names (explain_near.h); a bind does not: one
 * that is a port held names it on its line, and one that does not is
 * as often a process's limit (blind42c 009: Open MPI's EADDRINUSE for
 * a full descriptor table, with its node's address a line before).
 * Returns whether it took one. */
static bool gen_parse(const struct explain_hit *h, enum gen_class cls,
		      char *addr, size_t alen, char *port, size_t plen)
{
	addr[0] = port[0] = '\0';
	if (in_words(h->m.sig)) {
		connect_target(h->text, addr, alen, port, plen);
		return false;
	}
	if (timeout_in_words(h->m.sig) &&
	    connect_target(h->text, addr, alen, port, plen))
		return false;
	if (strcmp(h->m.sig->id, "generic-noroute-host-words") == 0 &&
	    host_named(h->text, addr, alen))
		return false;
	if (cls != GEN_NAME || !explain_line_name(h->text, addr, alen))
		line_endpoint(h->text, addr, alen, port, plen);
	if (cls == GEN_NAME)
		port[0] = '\0';
	else if (port[0] == '\0')
		line_port(h->text, port, plen);
	if (cls != GEN_CONNECT || addr[0] != '\0' || port[0] != '\0' ||
	    h->near_line == 0 || !takes_near(h->m.sig))
		return false;
	snprintf(addr, alen, "%s", h->near_addr);
	snprintf(port, plen, "%s", h->near_port);
	return true;
}

/* Whether a generic line of class cls, whose endpoint gen_parse gave,
 * stays quiet. A refusal, a timeout or a port held with no address or
 * port on its line names nothing to test, and is as often a peer that
 * died or a process's own limit (Open MPI's EADDRINUSE for a full
 * descriptor table, SGE's commlib refusing a launch): no failure line
 * and no network evidence for the symptoms either. A connect failure
 * beside an HTTP client (unless toward a peer's address, http_peer),
 * toward an HTTPS service by a public name, or
 * one the program says it retries is not the job's peers failing. */
static bool gen_quiet(bool http, const struct explain_hit *h,
		      enum gen_class cls, const char *addr, const char *port)
{
	const char *cc;

	if (cls == GEN_CONNECT &&
	    ((http && !http_peer(addr)) || https_line(h->text) ||
	     retried(h->text)))
		return true;
	/* "connect to" names its target: a port with no host before it
	 * (Ray's "GCS at address :6379") is a setting left empty */
	if (in_words(h->m.sig) &&
	    addr[0] == '\0')
		return true;
	/* a lookup no resolver was asked in earnest: a cut literal, an
	 * unset setting, a shell's split argument (explain_genname.c) */
	if (cls == GEN_NAME && explain_name_not_asked(h->text))
		return true;
	/* an address literal needs no lookup: a resolver that "did not
	 * find" one was handed it by a program or library that asked
	 * wrongly (issue 42: blind42r d01, Asio's "bad address: 0.0.0.0
	 * error: Host not found (authoritative)") */
	if (cls == GEN_NAME && addr[0] != '\0' && explain_is_ip(addr))
		return true;
	/* loopback drops nothing and needs no route: a timeout toward it
	 * is a server that accepted and did not answer in time (a lock, a
	 * load), no filter or path (issue 42: blind42z c16, a local API
	 * behind SQLite's writer lock) */
	if (strncmp(h->m.sig->id, "generic-timedout", 16) == 0 &&
	    (cc = explain_addr_class(addr)) != NULL &&
	    strcmp(cc, "loopback") == 0)
		return true;
	/* no peer process answers with an unreachable host: the network
	 * stack (no neighbour, a REJECT) does, address or not */
	if (strncmp(h->m.sig->id, "generic-noroute", 15) == 0)
		return false;
	return (cls == GEN_CONNECT || cls == GEN_BIND) && addr[0] == '\0' &&
	       port[0] == '\0';
}

/* See explain_priv.h. */
bool explain_generic_quiet(const struct explain_ctx *x,
			   const struct explain_hit *h)
{
	enum gen_class cls;
	char addr[64], port[8];

	if (!(h->m.sig->flags & LOGSIG_GENERIC))
		return false;
	cls = gen_class_of(h->m.sig);
	gen_parse(h, cls, addr, sizeof(addr), port, sizeof(port));
	return gen_quiet(x->http_client, h, cls, addr, port);
}

/* Whether the log says the name addr did not resolve (a framework's
 * row or a generic lookup line): a connect to that name then failed
 * for that reason, and adds no candidate of its own (Spark's "Failed
 * to connect to master spark-master:7077" after Akka's lookup). */
static bool name_failed(const struct explain_log *lg, const char *addr)
{
	char n[64], p[8];

	if (addr[0] == '\0' || explain_is_ip(addr))
		return false;
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *o = &lg->hits[i];
		const char *f = logmatch_field(&o->m, "host");
		const char *codes = o->m.sig->codes ? o->m.sig->codes :
				    o->m.sig->maybe;

		if (o->m.sig->flags & LOGSIG_GENERIC) {
			if (gen_class_of(o->m.sig) != GEN_NAME)
				continue;
			gen_parse(o, GEN_NAME, n, sizeof(n), p, sizeof(p));
			if (strcmp(n, addr) == 0)
				return true;
		} else if (codes && strstr(codes, "name-unresolved") && f &&
			   strcmp(f, addr) == 0) {
			return true;
		}
	}
	return false;
}

/* Whether a line is a bind's or a listen's (Go's "listen tcp A:P:
 * bind: ..."), not a connect's. */
static bool binds(const char *t)
{
	return (strstr(t, "bind") || strstr(t, "listen")) &&
	       !strstr(t, "connect");
}

/* One generic line's candidates: its endpoint is parsed once, for the
 * quiet test and for what the line opens. */
static void generic_one(const struct explain_ctx *x,
			const struct explain_hit *h, struct explain_result *r)
{
	const struct logsig *s = h->m.sig;
	enum gen_class cls = gen_class_of(s);
	char addr[64], port[8], codes[160], why[256], next[512];
	const char *extra = NULL, *cc;
	bool near, others;

	/* a refusal, a timeout or an RDMA retry beside a cause that is
	 * not the network (a crashed, OOM-killed or stuck peer) is that
	 * cause's echo */
	if ((cls == GEN_CONNECT || cls == GEN_RDMA) && x->other)
		return;
	near = gen_parse(h, cls, addr, sizeof(addr), port, sizeof(port));
	if (gen_quiet(x->http_client, h, cls, addr, port) ||
	    (cls == GEN_CONNECT && name_failed(x->lg, addr)))
		return;
	snprintf(codes, sizeof(codes), "%s", s->maybe);
	/* a peer may have given this address: the log names other hosts,
	 * or it is 127.0.1.1, the address Debian's installer and
	 * cloud-init give the host's own name in /etc/hosts, dialled only
	 * through that name (blind42y b11, raft peers named by host
	 * name) */
	others = x->lg->other_hosts || strcmp(addr, "127.0.1.1") == 0;
	if (near)
		snprintf(why, sizeof(why), "%s (line %ld, near it, names "
			 "%s%s%s)", s->meaning, h->near_line, addr,
			 port[0] ? ":" : "", port);
	else if (addr[0])
		snprintf(why, sizeof(why), "%s (the line names %s%s%s)",
			 s->meaning, addr, port[0] ? ":" : "", port);
	else
		snprintf(why, sizeof(why), "%s", s->meaning);
	/* a bind of a loopback address that no interface holds: lo has
	 * no 127.0.0.1 (issue 42: blind42s c09, k3s's apiserver on
	 * 127.0.0.1:6444); a connect's EADDRNOTAVAIL toward loopback is
	 * its ephemeral ports, as anywhere, and ::1's a host with IPv6
	 * off */
	if (strncmp(s->id, "generic-not-avail", 17) == 0 &&
	    strncmp(addr, "127.", 4) == 0 && binds(h->text)) {
		explain_open(r, h, finding_name(FINDING_LOOPBACK_DOWN),
			     "a bind of a loopback address failed because no "
			     "interface holds it: lo is down or has no "
			     "127.0.0.1", "on the node that printed it: ip "
			     "address show lo (it must be UP with inet "
			     "127.0.0.1/8; if not: ip link set lo up and ip "
			     "address add 127.0.0.1/8 dev lo)");
		return;
	}
	/* an address in a container pool opens the bridge's NAT beside
	 * what the errno says, as a framework row's would; a link-local
	 * one works on one link only; a VM's NAT address is every VM's */
	cc = cls == GEN_NAME ? NULL : explain_addr_class(addr);
	if (cc && strstr(cc, "bridge"))
		extra = finding_name(FINDING_CONTAINER_BRIDGE_NAT);
	/* a connect in words, no errno, toward a name: its lookup may be
	 * what failed (Java's "Failed to connect to H:P" wraps an
	 * UnknownHostException; issue 42: blind42o b08, e05, Spark
	 * executors' pod names) */
	else if (in_words(s) && cc == NULL && addr[0] != '\0' &&
		 !explain_is_ip(addr))
		extra = "name-unresolved"; /* not localhost: always resolves */
	/* loopback toward a log that names other hosts, or on a line that
	 * says a peer advertised its address: a peer advertised it
	 * (blind42o e09, a DataNode's ip_addr 127.0.0.1; blind42p a07, a
	 * Kafka broker's advertised listener) */
	else if (cls == GEN_CONNECT && cc && strcmp(cc, "loopback") == 0 &&
		 (others || (s->flags & LOGSIG_PEER)))
		extra = finding_name(FINDING_HOSTNAME_LOOPBACK);
	else if (cc && strcmp(cc, "link-local") == 0)
		extra = finding_name(FINDING_IPV6_LINK_LOCAL_ONLY);
	else if (cc && strcmp(cc, "vm-nat") == 0)
		extra = "nat-detected,address-conflict";
	if (extra != NULL &&
	    strlen(codes) + strlen(extra) + 2 < sizeof(codes))
		snprintf(codes + strlen(codes), sizeof(codes) - strlen(codes),
			 ",%s", extra);
	gen_next(cls, s, addr, port, cc, others, next, sizeof(next));
	explain_open(r, h, codes, why, next);
}

/* After the framework rows: a network cause one of them decided is the
 * more precise answer (Open MPI's help text repeats its errno on a line
 * of its own), so the generic lines open nothing beside it. */
void explain_generic(const struct explain_ctx *x, struct explain_result *r)
{
	bool framework_net = false;

	for (size_t i = 0; i < r->ncauses; i++) {
		if (r->causes[i].kind == EXPLAIN_NET && !r->causes[i].open)
			return;
		framework_net |= r->causes[i].kind == EXPLAIN_NET;
	}
	/* a connect that failed in words with no errno says less than a
	 * framework row's candidates beside it (MPICH's "unable to
	 * connect to server H at port P" after its errno line): it adds
	 * nothing there */
	for (size_t i = 0; i < x->lg->nhits; i++)
		if (x->lg->hits[i].m.sig->flags & LOGSIG_GENERIC &&
		    !(framework_net && in_words(x->lg->hits[i].m.sig)))
			generic_one(x, &x->lg->hits[i], r);
}
