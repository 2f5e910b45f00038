/* The frameworks' variables parsed by the frameworks' own rules: NCCL's
 * parseStringList and ncclSocketGetAddrFromString (src/misc/utils.cc and
 * src/misc/socket.cc), torch's split of GLOO_SOCKET_IFNAME, MASTER_ADDR
 * as TCPStore resolves it. Pure: no getenv, no resolver. */
#include "kernel/jobenv.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* One step of parseStringList from *p: the next entry's name (start and
 * length) and port, *p moved past it. Text after a ':' up to the next ','
 * is the port (atoi, as NCCL reads it); an entry without a name is
 * skipped. Returns 0, or -1 at the end of the text. */
static int next_entry(const char **p, const char **name, size_t *len,
		      int *port)
{
	const char *s = *p;

	while (*s != '\0') {
		size_t n = strcspn(s, ":,");

		if (n == 0) {
			if (*s == ':')
				s += strcspn(s, ",");
			if (*s == ',')
				s++;
			continue;
		}
		*name = s;
		*len = n;
		*port = -1;
		s += n;
		if (*s == ':') {
			*port = (int)strtol(s + 1, NULL, 10);
			s += strcspn(s, ",");
		}
		if (*s == ',')
			s++;
		*p = s;
		return 0;
	}
	*p = s;
	return -1;
}

/* Entries cut to NCCL's buffer, where NCCL itself would write past it. */
int nccl_iflist_parse(const char *s, struct nccl_netif *list, int max)
{
	const char *name;
	size_t len;
	int n = 0, port;

	if (s == NULL)
		return 0;
	while (n < max && next_entry(&s, &name, &len, &port) == 0) {
		if (len >= sizeof(list[n].prefix))
			len = sizeof(list[n].prefix) - 1;
		memcpy(list[n].prefix, name, len);
		list[n].prefix[len] = '\0';
		list[n].port = port;
		n++;
	}
	return n;
}

/* Copies len bytes of src into dst of size n. Returns 0, or -1 when they
 * do not fit. */
static int copy_part(char *dst, size_t n, const char *src, size_t len)
{
	if (len >= n)
		return -1;
	memcpy(dst, src, len);
	dst[len] = '\0';
	return 0;
}

/* The bracketed form: the address runs to the last '%' before ']' (then
 * the scope's interface name) or to ']'; the port starts two characters
 * after ']', whatever the first of them is, as NCCL reads it. */
static int parse_bracketed(const char *s, struct nccl_comm_id *out)
{
	const char *end = strchr(s, ']'), *pct = NULL;

	if (end == NULL)
		return -1;
	for (const char *q = s + 1; q < end; q++)
		if (*q == '%')
			pct = q;
	out->bracketed = true;
	if (copy_part(out->host, sizeof(out->host), s + 1,
		      (size_t)((pct != NULL ? pct : end) - s - 1)) < 0)
		return -1;
	if (pct != NULL && copy_part(out->scope, sizeof(out->scope), pct + 1,
				     (size_t)(end - pct - 1)) < 0)
		return -1;
	if (end[1] != '\0')
		out->port = (int)strtol(end + 2, NULL, 10);
	/* NCCL does not check this conversion: text that is no IPv6
	 * address leaves its address unset; here family stays AF_UNSPEC */
	if (inet_pton(AF_INET6, out->host, out->addr) == 1)
		out->family = AF_INET6;
	return 0;
}

/* Unbracketed: parseStringList's first entry is the host, which NCCL
 * hands to getaddrinfo; a numeric IPv4 address is converted here. */
int nccl_comm_id_parse(const char *s, struct nccl_comm_id *out)
{
	const char *name;
	size_t len;

	memset(out, 0, sizeof(*out));
	out->port = -1;
	out->family = AF_UNSPEC;
	if (s == NULL || strlen(s) <= 1)
		return -1;
	if (s[0] == '[')
		return parse_bracketed(s, out);
	if (next_entry(&s, &name, &len, &out->port) < 0 ||
	    copy_part(out->host, sizeof(out->host), name, len) < 0)
		return -1;
	if (inet_pton(AF_INET, out->host, out->addr) == 1)
		out->family = AF_INET;
	return 0;
}

/* The inverse of nccl_comm_id_parse for a numeric address. */
int nccl_comm_id_format(int family, const void *addr, int port, char *buf,
			size_t len)
{
	char a[INET6_ADDRSTRLEN], p[16] = "";
	int n;

	if ((family != AF_INET && family != AF_INET6) ||
	    inet_ntop(family, addr, a, sizeof(a)) == NULL)
		return -1;
	if (port >= 0)
		snprintf(p, sizeof(p), ":%d", port);
	n = snprintf(buf, len, family == AF_INET6 ? "[%s]%s" : "%s%s", a, p);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* IPv4 first: "10.0.0.1" is never read as anything else. */
int master_addr_parse(const char *s, int *family, unsigned char *addr)
{
	if (s == NULL || *s == '\0')
		return -1;
	if (inet_pton(AF_INET, s, addr) == 1) {
		*family = AF_INET;
		return 1;
	}
	if (inet_pton(AF_INET6, s, addr) == 1) {
		*family = AF_INET6;
		return 1;
	}
	return 0;
}

/* Literal entries: no port suffix, no '^' or '=' marks are read. */
int env_list_split(const char *s, struct env_entry *out, int max)
{
	int n = 0;

	while (s != NULL && *s != '\0' && n < max) {
		size_t len = strcspn(s, ",");

		if (len > 0) {
			size_t keep = len < sizeof(out[n].s)
					  ? len
					  : sizeof(out[n].s) - 1;

			memcpy(out[n].s, s, keep);
			out[n].s[keep] = '\0';
			n++;
		}
		s += len;
		if (*s == ',')
			s++;
	}
	return n;
}

/* Takes NAME=value into dst when NAME is the variable and dst is empty. */
static void conf_take(const char *name, size_t nlen, const char *value,
		      size_t vlen, const char *want, char *dst,
		      size_t dlen, char *from, size_t flen, const char *path)
{
	if (dst[0] != '\0' || strlen(want) != nlen ||
	    strncmp(name, want, nlen) != 0)
		return;
	if (vlen >= dlen)
		vlen = dlen - 1;
	memcpy(dst, value, vlen);
	dst[vlen] = '\0';
	snprintf(from, flen, "%s", path);
}

/* setEnvFile, line by line: a value NCCL would set is kept only when
 * nothing set it before. */
void nccl_conf_parse(const char *text, const char *path, struct nccl_conf *c)
{
	while (text != NULL && *text != '\0') {
		size_t len = strcspn(text, "\n"), n;
		const char *eq;

		n = len;
		if (n > 0 && text[n - 1] == '\r')
			n--;
		eq = memchr(text, '=', n);
		if (text[0] != '#' && eq != NULL) {
			size_t nl = (size_t)(eq - text), vl = n - nl - 1;

			conf_take(text, nl, eq + 1, vl, "NCCL_SOCKET_IFNAME",
				  c->ifname, sizeof(c->ifname), c->ifname_from,
				  sizeof(c->ifname_from), path);
			conf_take(text, nl, eq + 1, vl, "NCCL_SOCKET_FAMILY",
				  c->family, sizeof(c->family), c->family_from,
				  sizeof(c->family_from), path);
			conf_take(text, nl, eq + 1, vl, "NCCL_COMM_ID",
				  c->comm_id, sizeof(c->comm_id),
				  c->comm_id_from, sizeof(c->comm_id_from),
				  path);
		}
		text += len;
		if (*text == '\n')
			text++;
	}
}
