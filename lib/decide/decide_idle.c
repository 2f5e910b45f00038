/* The idle probe's decider (decide_idle.h). */
#include "decide/decide_idle.h"

#include "doc/finding.h"

/* See decide_idle.h. */
int idle_decide(const struct idle_result *r, const char *peer,
                const char *addr, json_t *obj, struct doc *d)
{
	json_t *ev = NULL, *o;

	if (r->state == IDLE_UNTESTED)
		return 0;
	o = json_pack("{s:s, s:I, s:I, s:I, s:s?}", "state",
	              idle_state_name(r->state), "held_ms",
	              (json_int_t)r->held_ms, "wait_ms",
	              (json_int_t)r->wait_ms, "port", (json_int_t)r->port,
	              "error", r->err[0] ? r->err : NULL);
	if (o == NULL || (obj != NULL && json_object_set_new(obj, "idle", o) < 0))
		return -1;
	if (obj == NULL)
		json_decref(o);
	if (r->state != IDLE_KILLED)
		return 0;
	if (evidence_add(&ev, "idle probe",
	                 "%s:%u: HELLO and an echo answered, idle %lld ms, "
	                 "then an echo: no reply within %lld ms",
	                 addr, r->port, r->held_ms, r->wait_ms) < 0)
		return -1;
	return doc_add_finding(
	           d, FINDING_IDLE_CONNECTION_KILLED, -1, ev, NULL,
	           "a connection to %s (%s:%u) left idle for %.1f s was "
	           "dropped on the way: fresh connections to the same port "
	           "pass, the idle one's next packet went unanswered",
	           peer, addr, r->port, (double)r->held_ms / 1000.0) < 0
	           ? -1
	           : 0;
}
