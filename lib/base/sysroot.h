/* Every read of /proc, /sys, /etc and /run goes through a sysroot, so tests
 * replay recorded trees. The empty root means the live system. */
#ifndef NP_SYSROOT_H
#define NP_SYSROOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct sysroot {
	char dir[PATH_MAX]; /* "" for the live system, else no trailing '/' */
};

/* Sets the root to dir (NULL or "/" for the live system). Returns 0, or -1
 * with errno ENOENT/ENOTDIR/EACCES when dir is not a readable directory. */
int sysroot_init(struct sysroot *sr, const char *dir);

/* True when the sysroot is a recorded tree, not the live system: live-only
 * probes (netlink, statfs, bind) must then not run. */
bool sysroot_is_live(const struct sysroot *sr);

/* Joins the root and an absolute path into out. Returns 0, or -1 with
 * errno ENAMETOOLONG. */
int sysroot_path(const struct sysroot *sr, const char *path, char *out,
		 size_t len);

/* Opens path under the sysroot for reading: a regular file only (a FIFO,
 * device or socket there gives -1 with errno EINVAL, never a hang).
 * Returns the fd, or -1 with errno. */
int sysroot_open(const struct sysroot *sr, const char *path);

/* Reads at most len-1 bytes of a file and NUL-terminates them. Returns the
 * byte count, or -1 with errno. */
ssize_t sysroot_read(const struct sysroot *sr, const char *path, char *buf,
		     size_t len);

/* Reads the first line, without its newline and trailing blanks. Returns
 * its length, or -1 with errno. */
ssize_t sysroot_read_line(const struct sysroot *sr, const char *path,
			  char *buf, size_t len);

/* Reads an integer file such as /sys/class/net/eth0/mtu. Returns 0, or -1
 * with errno (EINVAL when it does not hold one number). */
int sysroot_read_ll(const struct sysroot *sr, const char *path,
		    long long *out);

/* readlink(2) under the root; the target is returned as recorded. Returns
 * its length, or -1 with errno. */
ssize_t sysroot_readlink(const struct sysroot *sr, const char *path,
			 char *buf, size_t len);

/* What stands at path under the root when it is there but not a regular
 * file ("a FIFO", "a directory", ...), so that a reader can say so rather
 * than an errno's text; NULL when it is a regular file or absent. */
const char *sysroot_odd_kind(const struct sysroot *sr, const char *path);

/* True when the path exists under the root (any type). */
bool sysroot_exists(const struct sysroot *sr, const char *path);

#endif
