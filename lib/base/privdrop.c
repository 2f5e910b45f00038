/* Privilege drop: setgroups, setgid, setuid, in that order (the group
 * calls need root), then a check that setuid(0) now fails. */
#include "base/privdrop.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/parse.h"

int privdrop_choose(const char *sudo_uid, const char *sudo_gid,
                    uid_t nobody_uid, gid_t nobody_gid,
                    struct privdrop_target *t)
{
	long long u, g;
	const char *err;

	if (sudo_uid != NULL && sudo_gid != NULL &&
	    parse_num(sudo_uid, 1, 0x7fffffff, &u, &err) == 0 &&
	    parse_num(sudo_gid, 1, 0x7fffffff, &g, &err) == 0) {
		t->uid = (uid_t)u;
		t->gid = (gid_t)g;
		t->who = "SUDO_UID";
		return 0;
	}
	t->uid = nobody_uid;
	t->gid = nobody_gid;
	t->who = "nobody";
	return 0;
}

int privdrop_choose_live(struct privdrop_target *t)
{
	const struct passwd *pw = getpwnam("nobody");

	return privdrop_choose(getenv("SUDO_UID"), getenv("SUDO_GID"),
	                       pw != NULL ? pw->pw_uid : PRIVDROP_NOBODY,
	                       pw != NULL ? pw->pw_gid : PRIVDROP_NOBODY, t);
}

int privdrop_to(const struct privdrop_target *t)
{
	if (geteuid() != 0 && getuid() != 0)
		return 1;
	if (t->uid == 0) {
		errno = EINVAL;
		return -1;
	}
	if (setgroups(0, NULL) < 0 || setgid(t->gid) < 0 || setuid(t->uid) < 0)
		return -1;
	if (setuid(0) == 0 || geteuid() == 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}
