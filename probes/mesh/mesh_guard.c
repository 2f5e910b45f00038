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

/* See mesh_guard.h. */
ssize_t rdv_unauth_victim(const struct rdv_unauth *c, size_t n,
                          long long now_us, bool fds_short)
{
	ssize_t oldest = -1;
	size_t waiting = 0;

	for (size_t i = 0; i < n; i++) {
		if (!c[i].unauth)
			continue;
		waiting++;
		if (oldest < 0 || c[i].since_us < c[oldest].since_us)
			oldest = (ssize_t)i;
	}
	if (oldest < 0)
		return -1;
	if (now_us - c[oldest].since_us >= RDV_UNAUTH_US ||
	    waiting > RDV_UNAUTH_MAX ||
	    (fds_short && now_us - c[oldest].since_us >= RDV_UNAUTH_SHORT_US))
		return oldest;
	return -1;
}

/* See mesh_guard.h. */
bool rdv_fds_short(long lowest_free, unsigned long long limit)
{
	if (lowest_free < 0)
		return true;
	return limit > 0 &&
	       (unsigned long long)lowest_free + RDV_FD_SPARE >= limit;
}
