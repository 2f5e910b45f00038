/* Where a log was written (decide/explain_origin.h): its host names and
 * addresses, read with a few literal anchors rather than any word, so
 * that a file name or a Python module is not taken for a host. */
#include "decide/explain_origin.h"
#include "decide/explain.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* A character of a host name as the logs print one. */
static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '.' || c == '_';
}

/* Keeps s (n bytes) in list unless kept already or the list is full. */
static void keep(char (*list)[ORIGIN_NAME_MAX], size_t *cnt, const char *s,
		 size_t n)
{
	if (n == 0 || n >= ORIGIN_NAME_MAX || *cnt >= ORIGIN_MAX)
		return;
	for (size_t i = 0; i < *cnt; i++)
		if (strncasecmp(list[i], s, n) == 0 && list[i][n] == '\0')
			return;
	memcpy(list[*cnt], s, n);
	list[*cnt][n] = '\0';
	(*cnt)++;
}

/* The length of a dotted-quad IPv4 address at p (each part 0-255, not
 * inside a longer run of digits and dots), or 0. */
static size_t ipv4_at(const char *line, const char *p)
{
	const char *q = p;

	if (p > line && (isdigit((unsigned char)p[-1]) || p[-1] == '.'))
		return 0;
	for (int part = 0; part < 4; part++) {
		int v = 0, d = 0;

		while (isdigit((unsigned char)*q) && d < 4) {
			v = v * 10 + (*q++ - '0');
			d++;
		}
		if (d == 0 || d > 3 || v > 255)
			return 0;
		if (part < 3 && *q++ != '.')
			return 0;
	}
	if (isdigit((unsigned char)*q) || (*q == '.' &&
					   isdigit((unsigned char)q[1])))
		return 0;
	return (size_t)(q - p);
}

/* Keeps a name, or the address it is: a name holds a letter and is no
 * "localhost"; an address is an IPv4 one (IPv6 ones are read where a
 * prefix brackets them). */
static void keep_word(struct explain_origin *o, const char *p, size_t n)
{
	bool letter = false;

	for (size_t i = 0; i < n; i++)
		letter |= isalpha((unsigned char)p[i]) != 0;
	while (n > 0 && p[n - 1] == '.')
		n--;
	if (n == 0)
		return;
	if (ipv4_at(p, p) == n)
		keep(o->addrs, &o->naddrs, p, n);
	else if (letter && !(n == 9 && strncasecmp(p, "localhost", 9) == 0))
		keep(o->hosts, &o->nhosts, p, n);
}

/* Whether the word p (n bytes) after a program's "connect to" is a
 * host: an address, a name with a dot, or one a port follows (":P",
 * "]:P", " port P"). A bare word there is the sentence's ("connect to
 * all addresses", "connect to remote host", ssh's "connect to host"),
 * not a peer's name (issue 42: blind42y e01, gRPC's words on a
 * one-host log taken for two other hosts). */
static bool connect_host(const char *p, size_t n)
{
	const char *e = p + n;

	return memchr(p, '.', n) != NULL || ipv4_at(p, p) == n ||
	       (e[0] == ':' && isdigit((unsigned char)e[1])) ||
	       (e[0] == ']' && e[1] == ':') || strncmp(e, " port ", 6) == 0;
}

/* After each anchor of the table, the word that follows is a host:
 * torch's store "(host, port)", the c10d client's "connect to host:port"
 * and "[host]:port" (and ssh's "connect to host H port P"), torchrun's
 * MASTER_ADDR and rdzv endpoint, ssh's and Ray's names, NCCL RAS's "on
 * node", a peer's record ("host_name: \"hdfs\"", an HDFS DataNode's). */
static void anchored(struct explain_origin *o, const char *line)
{
	static const char *const anchors[] = {
		"MASTER_ADDR=", "master_addr=", "--master_addr ",
		"--master-addr ", "rdzv_endpoint=", "--rdzv-endpoint ",
		"Could not resolve hostname ", "node name: ", " on node ",
		"onnect to (", "onnect to host ", "onnect to ", "hostname=",
		"--address='", "--address=", "node_ip_address=",
		"Local node IP: ", "host_name: "};

	for (size_t i = 0; i < sizeof(anchors) / sizeof(anchors[0]); i++) {
		const char *p = line;

		for (int k = 0; k < 8 && (p = strstr(p, anchors[i])); k++) {
			p += strlen(anchors[i]);
			if (*p == '[' || *p == '\'' || *p == '"')
				p++;
			size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					  "abcdefghijklmnopqrstuvwxyz"
					  "0123456789-._");

			if (strcmp(anchors[i], "onnect to ") != 0 ||
			    connect_host(p, n))
				keep_word(o, p, n);
		}
	}
}

/* NCCL's prefix host:pid:tid [dev]: the word before ":digits:digits". */
static void nccl_prefix(struct explain_origin *o, const char *line)
{
	const char *p = line + strspn(line, " \t");
	size_t n = 0;
	const char *q;

	while (name_char(p[n]))
		n++;
	q = p + n;
	if (n == 0 || *q != ':' || !isdigit((unsigned char)q[1]))
		return;
	q++;
	while (isdigit((unsigned char)*q))
		q++;
	if (*q != ':' || !isdigit((unsigned char)q[1]))
		return;
	keep_word(o, p, n);
}

void explain_origin_line(struct explain_origin *o, const char *line)
{
	nccl_prefix(o, line);
	anchored(o, line);
	for (const char *p = line; *p; p++) {
		size_t n;

		if (!isdigit((unsigned char)*p))
			continue;
		n = ipv4_at(line, p);
		if (n > 0) {
			keep_word(o, p, n);
			p += n - 1;
		}
	}
}

/* The part of a name before its first dot. */
static size_t short_len(const char *s)
{
	return strcspn(s, ".");
}

/* An address that names no one host: loopback, unspecified, broadcast,
 * and those many hosts carry alike: Docker's and podman's default
 * bridge pools (docker0's 172.17.0.1 is on every Docker host), IPv6
 * link-local. */
static bool anywhere(const char *a)
{
	return strcmp(a, "0.0.0.0") == 0 || strcmp(a, "255.255.255.255") == 0 ||
	       strcmp(a, "::") == 0 || explain_addr_class(a) != NULL;
}

enum origin_verdict explain_origin_match(const struct explain_origin *o,
					 const char *hostname,
					 const char *const *addrs, size_t n,
					 char *why, size_t len)
{
	bool named = false;

	for (size_t i = 0; i < o->nhosts; i++) {
		const char *h = o->hosts[i];
		size_t a = short_len(h), b;

		named = true;
		if (hostname == NULL || hostname[0] == '\0')
			continue;
		b = short_len(hostname);
		if (strcasecmp(h, hostname) == 0 ||
		    (a == b && strncasecmp(h, hostname, a) == 0)) {
			snprintf(why, len, "the log names %s, this host's "
				 "name (%s)", h, hostname);
			return ORIGIN_HERE;
		}
	}
	for (size_t i = 0; i < o->naddrs; i++) {
		if (anywhere(o->addrs[i]))
			continue;
		named = true;
		for (size_t k = 0; k < n; k++)
			if (addrs[k] && strcmp(addrs[k], o->addrs[i]) == 0) {
				snprintf(why, len, "the log names %s, an "
					 "address of this host",
					 o->addrs[i]);
				return ORIGIN_HERE;
			}
	}
	return named ? ORIGIN_ELSEWHERE : ORIGIN_UNNAMED;
}

bool explain_origin_other_hosts(const struct explain_origin *o)
{
	for (size_t i = 0; i < o->nhosts; i++)
		if (strcasecmp(o->hosts[i], "localhost") != 0)
			return true;
	for (size_t i = 0; i < o->naddrs; i++) {
		const char *c = explain_addr_class(o->addrs[i]);

		if ((c == NULL || strcmp(c, "loopback") != 0) &&
		    strcmp(o->addrs[i], "0.0.0.0") != 0)
			return true;
	}
	return false;
}
