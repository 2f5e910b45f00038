/* netprobe mesh --watch, the change log's caps (issue 45): what node 0
 * keeps of each member's changes and of all, within mesh_guard.h's
 * bounds, and the count of the rest per member. Shared by the member's
 * own log (mesh_watch.c) and the changes node 0 takes from the others
 * (mesh_rdv_join.c). */
#include "mesh/mesh_int.h"

/* See mesh_int.h. */
bool mesh_watch_admit(struct mesh *ms, size_t member, size_t len)
{
	struct mesh_member *m = &ms->m[member];
	enum mesh_keep k = mesh_watch_keep(len, m->watch_bytes, ms->watch_bytes,
	                                   json_array_size(ms->watch_log));

	if (k == MESH_KEEP)
		return true;
	m->watch_dropped++;
	ms->watch_dropped++;
	if (k == MESH_KEEP_TOO_LARGE && ++m->watch_refused == 1)
		cmd_note(&ms->run,
		         "watch: '%s' (rank %zu) sent a change of %zu bytes, "
		         "over %d: refused, and counted",
		         m->name, member, len, MESH_WATCH_CHANGE_MAX);
	if (k != MESH_KEEP_TOO_LARGE &&
	    m->watch_dropped - m->watch_refused == 1)
		cmd_note(&ms->run,
		         "watch: node 0 keeps no more changes of '%s' (rank "
		         "%zu): %s; the rest are counted",
		         m->name, member,
		         k == MESH_KEEP_MEMBER_FULL
		             ? "its share of the log (1 MiB) is full"
		             : "the log (8 MiB, 10000 changes) is full");
	return false;
}

/* See mesh_int.h. */
void mesh_watch_keep_change(struct mesh *ms, size_t member, json_t *ev,
                            size_t len)
{
	if (json_array_append_new(ms->watch_log, ev) < 0) {
		ms->m[member].watch_dropped++;
		ms->watch_dropped++;
		return;
	}
	ms->m[member].watch_bytes += len;
	ms->watch_bytes += len;
}
