/* Sysroot-relative reads of kernel and configuration files. */
#include "base/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Validates the directory once, so later reads fail only per file. */
int sysroot_init(struct sysroot *sr, const char *dir)
{
	struct stat st;
	size_t n;

	sr->dir[0] = '\0';
	if (dir == NULL || strcmp(dir, "/") == 0 || *dir == '\0')
		return 0;
	if (stat(dir, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	if (access(dir, R_OK | X_OK) < 0)
		return -1;
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n >= sizeof(sr->dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sr->dir, dir, n);
	sr->dir[n] = '\0';
	return 0;
}

/* The live system is the empty root. */
bool sysroot_is_live(const struct sysroot *sr)
{
	return sr->dir[0] == '\0';
}

/* Path join with length check; paths are always absolute. */
int sysroot_path(const struct sysroot *sr, const char *path, char *out,
		 size_t len)
{
	int n = snprintf(out, len, "%s%s", sr->dir, path);

	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* O_NONBLOCK so a FIFO planted in a sysroot cannot hang the open; fstat
 * then refuses anything but a regular file (sysfs and procfs files are
 * regular). */
int sysroot_open(const struct sysroot *sr, const char *path)
{
	char full[PATH_MAX];
	struct stat st;
	int fd;

	if (sysroot_path(sr, path, full, sizeof(full)) < 0)
		return -1;
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* Bounded whole-file read; /proc files report size 0, so read in a loop. */
ssize_t sysroot_read(const struct sysroot *sr, const char *path, char *buf,
		     size_t len)
{
	size_t got = 0;
	int fd, saved;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	fd = sysroot_open(sr, path);
	if (fd < 0)
		return -1;
	while (got < len - 1) {
		ssize_t r = read(fd, buf + got, len - 1 - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

/* First line only: most sysfs attributes are one line. */
ssize_t sysroot_read_line(const struct sysroot *sr, const char *path,
			  char *buf, size_t len)
{
	ssize_t n = sysroot_read(sr, path, buf, len);
	char *nl;

	if (n < 0)
		return -1;
	nl = strchr(buf, '\n');
	if (nl != NULL)
		*nl = '\0';
	n = (ssize_t)strlen(buf);
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t' ||
			 buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return n;
}

/* One integer per file, as sysfs attributes hold them. */
int sysroot_read_ll(const struct sysroot *sr, const char *path,
		    long long *out)
{
	char buf[64], *end;
	long long v;

	if (sysroot_read_line(sr, path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (end == buf || *end != '\0' || errno == ERANGE) {
		errno = EINVAL;
		return -1;
	}
	*out = v;
	return 0;
}

/* Links in sysfs (device/driver, master) are read, never followed. */
ssize_t sysroot_readlink(const struct sysroot *sr, const char *path,
			 char *buf, size_t len)
{
	char full[PATH_MAX];
	ssize_t n;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	if (sysroot_path(sr, path, full, sizeof(full)) < 0)
		return -1;
	n = readlink(full, buf, len - 1);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* lstat, so a dangling recorded link still counts as present. */
const char *sysroot_odd_kind(const struct sysroot *sr, const char *path)
{
	char full[PATH_MAX];
	struct stat st;

	if (sysroot_path(sr, path, full, sizeof(full)) < 0 ||
	    stat(full, &st) < 0 || S_ISREG(st.st_mode))
		return NULL;
	return S_ISFIFO(st.st_mode)  ? "a FIFO"
	       : S_ISSOCK(st.st_mode) ? "a socket"
	       : S_ISCHR(st.st_mode)  ? "a character device"
	       : S_ISBLK(st.st_mode)  ? "a block device"
	       : S_ISDIR(st.st_mode)  ? "a directory"
	                              : "not a file";
}

bool sysroot_exists(const struct sysroot *sr, const char *path)
{
	char full[PATH_MAX];
	struct stat st;

	if (sysroot_path(sr, path, full, sizeof(full)) < 0)
		return false;
	return lstat(full, &st) == 0;
}
