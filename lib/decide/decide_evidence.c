/* The order of evidence: a measurement from a peer (reflection,
 * connect-back, reachability) outranks a guess from the local layering;
 * a guess a measurement contradicts stays in the document as info with
 * both facts, never as a fault. */
#include "decide/decide.h"

#include <string.h>

/* True when the route toward the peer leaves by loopback: the peer is
 * this host and measures nothing about other hosts. */
static bool peer_is_self(const struct iface_list *l,
                         const struct peer_verdict *p)
{
	const struct iface *ifc = iface_by_name(l, p->local_ifname);

	return ifc != NULL && decide_is_loopback(ifc);
}

/* Every peer but this host answered, saw our own source address and
 * connected back; at least one such peer. A peer that did not answer
 * measured nothing, so it leaves the guess standing. */
bool decide_peers_direct(const struct iface_list *l,
                         const struct peer_verdict *peers, size_t n)
{
	size_t measured = 0;

	for (size_t i = 0; i < n; i++) {
		const struct peer_verdict *p = &peers[i];

		if (peer_is_self(l, p))
			continue;
		if (!p->responded || p->nat != 0 || p->inbound != 1)
			return false;
		measured++;
	}
	return measured > 0;
}

/* The guess as info: its own evidence, then what each peer measured.
 * Returns 0, or -1 on no memory. */
static int add_contradicted(const json_t *f, enum finding_code code,
                            const struct iface_list *l,
                            const struct peer_verdict *peers, size_t n,
                            struct doc *d)
{
	const char *sum = json_string_value(json_object_get(f, "summary"));
	json_t *ev = json_deep_copy(json_object_get(f, "evidence"));

	for (size_t i = 0; i < n; i++) {
		const struct peer_verdict *p = &peers[i];

		if (peer_is_self(l, p))
			continue;
		evidence_add(&ev, "responder",
		             "peer %s saw this node as %s, its own source "
		             "address toward it, and connected back to it",
		             p->peer, p->observed_addr);
	}
	return doc_add_finding(d, code, SEV_INFO, ev,
	                "nothing to change for the peers measured; name "
	                "every node of the job with --peer to cover them all",
	                "the layering suggested this (%s), but every peer "
	                "saw this node's own address and connected back: "
	                "the measurement wins",
	                sum != NULL ? sum : finding_name(code));
}

/* The layering's findings, each as it is unless the peers' measurement
 * contradicts a NAT guess. */
int decide_layers(const struct layers *ly, const struct iface_list *l,
                  const struct peer_verdict *peers, size_t npeers,
                  struct doc *d)
{
	bool direct = decide_peers_direct(l, peers, npeers);
	struct doc tmp;
	json_t *f;
	size_t i;

	int rc = 0;

	if (doc_init(&tmp, "netprobe", NULL) < 0)
		return -1;
	if (layers_findings(ly, &tmp) < 0) {
		doc_free(&tmp);
		return -1;
	}
	json_array_foreach(tmp.findings, i, f)
	{
		const struct finding_def *def = finding_lookup(
		    json_string_value(json_object_get(f, "code")));
		enum severity sev = SEV_INFO;
		if (def == NULL)
			continue;
		if (direct && (def->flags & FF_GUESS)) {
			rc = add_contradicted(f, def->id, l, peers, npeers, d);
		} else {
			severity_parse(json_string_value(
			                   json_object_get(f, "severity")),
			               &sev);
			rc = doc_add_finding(
			    d, def->id, (int)sev,
			    json_deep_copy(json_object_get(f, "evidence")),
			    json_string_value(json_object_get(f, "fix")), "%s",
			    json_string_value(json_object_get(f, "summary")));
		}
		if (rc < 0)
			break;
	}
	doc_free(&tmp);
	return rc;
}
