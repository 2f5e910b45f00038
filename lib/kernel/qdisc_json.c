/* The JSON form of the queueing disciplines (man/netprobe-json.5,
 * section qdiscs): one object per root, ingress or clsact qdisc, with
 * tbf's and htb's parameters where the scan read them (issue 48). */
#include "kernel/qdisc.h"

#include <stdio.h>

/* Sets one integer member; returns json_object_set_new's 0 or -1. */
static int put_int(json_t *o, const char *k, unsigned long long v)
{
	return json_object_set_new(o, k, json_integer((json_int_t)v));
}

/* tbf's part: rate in bits a second, the bucket in bytes and ns, the
 * largest packet it passes (the kernel's max_size). */
static json_t *tbf_json(const struct qdisc_info *q)
{
	json_t *o = json_object();

	if (o == NULL || put_int(o, "rate_bps", q->rate * 8) < 0 ||
	    put_int(o, "peakrate_bps", q->prate * 8) < 0 ||
	    put_int(o, "buffer_ns", q->buffer_ns) < 0 ||
	    put_int(o, "mtu_ns", q->mtu_ns) < 0 ||
	    put_int(o, "limit", q->limit) < 0 ||
	    put_int(o, "max_size", q->max_size) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* htb's part: its direct queue and default class. */
static json_t *htb_json(const struct qdisc_info *q)
{
	json_t *o = json_object();

	if (o == NULL ||
	    json_object_set_new(o, "direct_qlen",
	                        q->direct_qlen_read
	                            ? json_integer(q->direct_qlen)
	                            : json_null()) < 0 ||
	    put_int(o, "default_class", q->defcls) < 0 ||
	    json_object_set_new(o, "default_leaf",
	                        q->default_leaf < 0
	                            ? json_null()
	                            : json_boolean(q->default_leaf)) < 0 ||
	    put_int(o, "classes", q->nclasses) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* One qdisc. */
static json_t *qdisc_json(const struct qdisc_info *q)
{
	json_t *o = json_object(), *x = NULL;
	char h[16];

	snprintf(h, sizeof(h), "%x:", q->handle >> 16);
	if (o == NULL ||
	    json_object_set_new(o, "interface", json_string(q->ifname)) < 0 ||
	    json_object_set_new(o, "kind", json_string(q->kind)) < 0 ||
	    json_object_set_new(o, "parent",
	                        json_string(q->root ? "root" : "ingress")) <
	        0 ||
	    json_object_set_new(o, "handle", json_string(h)) < 0 ||
	    json_object_set_new(o, "drops",
	                        q->drops_read ? json_integer((json_int_t)q->drops)
	                                      : json_null()) < 0)
		goto fail;
	if (q->tbf && ((x = tbf_json(q)) == NULL ||
	               json_object_set_new(o, "tbf", x) < 0))
		goto fail;
	if (q->htb && ((x = htb_json(q)) == NULL ||
	               json_object_set_new(o, "htb", x) < 0))
		goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}

/* See qdisc.h. */
json_t *qdisc_list_to_json(const struct qdisc_list *l)
{
	json_t *a = json_array(), *o;

	if (a == NULL)
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		if ((o = qdisc_json(&l->v[i])) == NULL ||
		    json_array_append_new(a, o) < 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}
