/* netprobe mesh, the caps of mesh_guard.h: pure decisions over numbers,
 * so that a test can feed them what a hostile member would. */
#include "mesh/mesh_guard.h"

/* See mesh_guard.h. */
enum mesh_keep mesh_watch_keep(size_t len, size_t member_bytes,
                               size_t total_bytes, size_t total_changes)
{
	if (len > MESH_WATCH_CHANGE_MAX)
		return MESH_KEEP_TOO_LARGE;
	if (member_bytes + len > MESH_WATCH_MEMBER_BYTES)
		return MESH_KEEP_MEMBER_FULL;
	if (total_bytes + len > MESH_WATCH_TOTAL_BYTES ||
	    total_changes >= MESH_WATCH_LOG_MAX)
		return MESH_KEEP_LOG_FULL;
	return MESH_KEEP;
}

