/* netprobe report, decide: which nodes a finding is about. The node a
 * finding's subject is (the node behind NAT its probe failed toward, the
 * target of its document, the first other node its words name), and the
 * other end of a finding about a pair: what the causes (decide_causes.c)
 * and the evidence rules (decide_blame.c) both ask. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "base/hostport.h"
#include "doc/finding.h"
#include "report_decide.h"

/* The node a word of a finding's text names: a node's name or address
 * ("10.231.60.12", "10.231.60.12:7470,"), or NULL. */
static const char *word_node(const struct rctx *c, const char *w, size_t n)
{
	char buf[128], host[128];
	const char *why, *bad;
	unsigned char a[4];
	unsigned port;
	int rc;

	if (n == 0 || n >= sizeof(buf))
		return NULL;
	/* a quoted name or address ("no answer from '10.0.0.2' port
	 * 7470") is that name */
	while (n > 0 && strchr("'\"`", *w) != NULL) {
		w++;
		n--;
	}
	memcpy(buf, w, n);
	buf[n] = '\0';
	while (n > 0 && strchr(".:,;)'\"`", buf[n - 1]) != NULL)
		buf[--n] = '\0';
	/* an IPv4 address or name with its port: the host alone (the one
	 * HOST:PORT parser; a word after the ':' that is no port still
	 * leaves the host before it) */
	rc = hostport_parse(buf, 0, host, sizeof(host), &port, &why, &bad);
	if (rc == HOSTPORT_OK)
		memcpy(buf, host, strlen(host) + 1);
	else if (rc == HOSTPORT_E_PORT && bad != NULL && bad > buf)
		buf[bad - 1 - buf] = '\0';
	if (inet_pton(AF_INET, buf, a) != 1 &&
	    json_array_size(c->nodes) > 0 && strchr(buf, '.') != NULL)
		return NULL; /* a sentence's last word, not a name */
	return rn_resolve(c, buf, buf);
}

/* See report_decide.h. */
const char *rd_text_node(const struct rctx *c, const char *text,
			     const char *self)
{
	const char *p = text, *q, *n;

	while (p != NULL && *p != '\0') {
		/* ']' is skipped too: a text holding one ("=]32768", found by
		 * fuzz_report) left p on it for ever */
		p += strspn(p, " ([]");
		q = p + strcspn(p, " ([]");
		n = word_node(c, p, (size_t)(q - p));
		if (n != NULL && strcmp(n, self) != 0)
			return n;
		p = q;
	}
	return NULL;
}

/*
 * The node a finding is about: the node behind NAT its probe failed
 * toward; the node itself for what it says of itself (connect-back
 * failures, its layering, its hostname); else the target of the document
 * it came from, or the first other node its summary or evidence names.
 */
const char *rd_subject(const struct rctx *c, const json_t *f)
{
	const char *node = rj_strd(f, "node", ""), *code = rj_str(f, "code");
	const char *sum = rj_strd(f, "summary", ""), *n;
	char buf[256];
	size_t i, k;
	json_t *v, *kv;

	if ((n = rj_str(json_object_get(f, "cause"), "node")) != NULL)
		return n;
	if (finding_has_flag(code, FF_SELF) || rf_is_nat(code) || strstr(sum, "back to this"))
		return node;
	json_array_foreach(json_object_get(f, "sources"), i, v)
		json_array_foreach(rx_path_inputs(c, json_string_value(v)), k,
				   kv)
			if ((n = rn_target(c, c->set->in[json_integer_value(kv)].doc,
					   buf, sizeof(buf))) != NULL)
				return rn_resolve(c, n, n) != NULL
					       ? rn_resolve(c, n, n)
					       : node;
	if ((n = rd_text_node(c, sum, node)) != NULL)
		return n;
	json_array_foreach(rj_arr(f, "evidence"), i, v)
		if ((n = rd_text_node(c, rj_strd(v, "fact", ""), node)) != NULL)
			return n;
	return node;
}

/* See report_decide.h: the other node of a finding about a pair. */
const char *rd_pair_of(const struct rctx *c, const json_t *f)
{
	const char *node = rj_strd(f, "node", ""), *s = rd_subject(c, f);
	size_t i;
	json_t *v;

	if (s != NULL && strcmp(s, node) != 0)
		return s;
	if ((s = rd_text_node(c, rj_strd(f, "summary", ""), node)) != NULL)
		return s;
	json_array_foreach(rj_arr(f, "evidence"), i, v)
		if ((s = rd_text_node(c, rj_strd(v, "fact", ""), node)) != NULL)
			return s;
	return NULL;
}

