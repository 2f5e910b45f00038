/* Dropping root after the privileged part of a probe is done (capture
 * handles opened): to the user who ran sudo, else to nobody. */
#ifndef NP_PRIVDROP_H
#define NP_PRIVDROP_H

#include <stdbool.h>
#include <sys/types.h>

#define PRIVDROP_NOBODY 65534 /* when the passwd database has no nobody */

struct privdrop_target {
	uid_t uid;
	gid_t gid;
	const char *who; /* "SUDO_UID" or "nobody": where the ids came from */
};

/* Chooses whom to become: SUDO_UID and SUDO_GID when both are set and
 * parse as non-root ids, else nobody_uid/nobody_gid (the passwd entry, or
 * PRIVDROP_NOBODY). Pure. Returns 0. */
int privdrop_choose(const char *sudo_uid, const char *sudo_gid,
                    uid_t nobody_uid, gid_t nobody_gid,
                    struct privdrop_target *t);

/* The same, reading the environment and the passwd database. */
int privdrop_choose_live(struct privdrop_target *t);

/* Becomes t's user when running as root: clears the supplementary
 * groups, sets the group, then the user, and checks that root cannot be
 * regained. Returns 1 when not root (nothing to drop), 0 when dropped, -1
 * with errno when a step failed. */
int privdrop_to(const struct privdrop_target *t);

#endif
