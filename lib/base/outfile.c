/* Output files (outfile.h): devices, FIFOs and sockets written in place,
 * symlinks followed, regular files replaced atomically with their mode and
 * owner kept, and no output that is also an input. */
#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

/* Records why, keeping errno for the caller. */
static int fail(struct outfile *o, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct outfile *o, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->why, sizeof(o->why), fmt, ap);
	va_end(ap);
	errno = err;
	return -1;
}

/* True when a and b name the same file (device and inode); false when
 * either cannot be examined. */
static bool outfile_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (a == NULL || b == NULL || stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return false;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* A unix socket is written through a connection (stream, else datagram):
 * open(2) cannot open one. Returns the fd, or -1. */
static int open_socket(const char *path)
{
	static const int types[] = {SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET};
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd, err = ENXIO;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		fd = socket(AF_UNIX, types[i] | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return fd;
		err = errno;
		close(fd);
		if (err != EPROTOTYPE)
			break;
	}
	errno = err;
	return -1;
}

/* Wraps fd in a stream; closes fd on failure. */
static int wrap(struct outfile *o, int fd)
{
	o->fp = fdopen(fd, "w");
	if (o->fp == NULL) {
		int err = errno;

		close(fd);
		if (o->tmp[0] != '\0')
			unlink(o->tmp);
		o->tmp[0] = '\0';
		return fail(o, err, "cannot write '%s': %s", o->path,
			    strerror(err));
	}
	return 0;
}

/* A temporary file beside the target, so rename(2) stays in one file
 * system. Returns its fd, or -1. */
static int make_tmp(struct outfile *o)
{
	char dir[4096];
	const char *base;
	char *slash;
	int n;

	snprintf(dir, sizeof(dir), "%s", o->path);
	slash = strrchr(dir, '/');
	if (slash == NULL) {
		base = o->path;
		n = snprintf(o->tmp, sizeof(o->tmp), ".%s.XXXXXX", base);
	} else {
		*slash = '\0';
		base = slash + 1;
		n = snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.XXXXXX",
			     slash == dir ? "" : dir, base);
	}
	if (n < 0 || (size_t)n >= sizeof(o->tmp)) {
		o->tmp[0] = '\0';
		errno = ENAMETOOLONG;
		return -1;
	}
	n = mkostemp(o->tmp, O_CLOEXEC);
	if (n < 0)
		o->tmp[0] = '\0';
	return n;
}

/* Writes a regular file in place: its hard links, mode and owner stay. */
static int open_in_place(struct outfile *o, int flags)
{
	int fd = open(o->path, O_WRONLY | O_CLOEXEC | flags, 0666);

	if (fd < 0)
		return fail(o, errno, "cannot write '%s': %s", o->path,
			    strerror(errno));
	return wrap(o, fd);
}

/* An existing regular file: replaced through a temporary file that takes
 * its mode and owner, or written in place when that cannot be kept. */
static int open_regular(struct outfile *o, const struct stat *st)
{
	int fd, err;

	if (st->st_nlink > 1)
		return open_in_place(o, O_TRUNC);
	if (st->st_uid != geteuid() && geteuid() != 0)
		return open_in_place(o, O_TRUNC);
	fd = make_tmp(o);
	if (fd < 0) {
		/* a directory we may not write: the file itself may be */
		if (errno == EACCES || errno == EPERM || errno == EROFS)
			return open_in_place(o, O_TRUNC);
		return fail(o, errno, "cannot write '%s': %s", o->path,
			    strerror(errno));
	}
	if (fchmod(fd, st->st_mode & 07777) < 0 ||
	    ((st->st_uid != geteuid() || st->st_gid != getegid()) &&
	     fchown(fd, st->st_uid, st->st_gid) < 0)) {
		err = errno;
		close(fd);
		unlink(o->tmp);
		o->tmp[0] = '\0';
		if (err == EPERM)
			return open_in_place(o, O_TRUNC);
		return fail(o, err, "cannot write '%s': %s", o->path,
			    strerror(err));
	}
	return wrap(o, fd);
}

/* Opens a path that does not exist yet: a dangling symlink creates its
 * target; anything else appears whole on close. */
static int open_new(struct outfile *o, const char *path, bool no_clobber)
{
	struct stat lst;
	int fd;

	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
		return open_in_place(o, O_CREAT | O_TRUNC);
	fd = make_tmp(o);
	if (fd < 0)
		return fail(o, errno, "cannot write '%s': %s", o->path,
			    strerror(errno));
	/* mkstemp makes 0600; a new output gets what the umask allows */
	{
		mode_t um = umask(0);

		umask(um);
		if (fchmod(fd, 0666 & ~um) < 0) {
			int err = errno;

			close(fd);
			unlink(o->tmp);
			o->tmp[0] = '\0';
			return fail(o, err, "cannot write '%s': %s", o->path,
				    strerror(err));
		}
	}
	o->noreplace = no_clobber;
	o->created = true;
	return wrap(o, fd);
}

int outfile_open(struct outfile *o, const char *path,
		 const struct outfile_opts *opts)
{
	static const struct outfile_opts none;
	struct stat st;
	char real[PATH_MAX];
	int fd;

	memset(o, 0, sizeof(*o));
	if (opts == NULL)
		opts = &none;
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		o->is_stdout = true;
		snprintf(o->path, sizeof(o->path), "standard output");
		return 0;
	}
	if (strlen(path) >= sizeof(o->path))
		return fail(o, ENAMETOOLONG, "cannot write '%.64s...': %s",
			    path, strerror(ENAMETOOLONG));
	snprintf(o->path, sizeof(o->path), "%s", path);
	o->no_sync = opts->no_sync;
	for (size_t i = 0; i < opts->ninputs; i++)
		if (outfile_same_file(path, opts->inputs[i]))
			return fail(o, EINVAL,
				    "refusing to write '%s': it is also an "
				    "input ('%s')",
				    path, opts->inputs[i]);
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return fail(o, errno, "cannot write '%s': %s", path,
				    strerror(errno));
		if (opts->in_place) {
			o->created = true;
			return open_in_place(o, O_CREAT | O_TRUNC |
						    (opts->no_clobber ? O_EXCL
								      : 0));
		}
		return open_new(o, path, opts->no_clobber);
	}
	if (S_ISDIR(st.st_mode))
		return fail(o, EISDIR, "cannot write '%s': %s", path,
			    strerror(EISDIR));
	if (S_ISSOCK(st.st_mode)) {
		fd = open_socket(path);
		if (fd < 0)
			return fail(o, errno, "cannot write '%s': %s", path,
				    strerror(errno));
		return wrap(o, fd);
	}
	if (!S_ISREG(st.st_mode)) /* a device or a FIFO: in place */
		return open_in_place(o, 0);
	if (opts->no_clobber)
		return fail(o, EEXIST,
			    "refusing to replace '%s': it exists "
			    "(--no-clobber)",
			    path);
	/* follow a symlink: its target is replaced, in its own directory */
	if (realpath(path, real) == NULL)
		return fail(o, errno, "cannot write '%s': %s", path,
			    strerror(errno));
	snprintf(o->path, sizeof(o->path), "%s", real);
	if (opts->in_place)
		return open_in_place(o, O_TRUNC);
	return open_regular(o, &st);
}

/* Puts the temporary file in place; under no_clobber a file that appeared
 * meanwhile is kept. */
static int commit(struct outfile *o)
{
	if (o->noreplace) {
		if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path,
			      RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EINVAL && errno != ENOSYS)
			return -1;
		/* no renameat2 here: link(2) refuses an existing name too */
		if (link(o->tmp, o->path) < 0)
			return -1;
		unlink(o->tmp);
		return 0;
	}
	return rename(o->tmp, o->path);
}

int outfile_close(struct outfile *o)
{
	int err = 0;

	if (o->fp == NULL)
		return fail(o, EBADF, "cannot write '%s': not open", o->path);
	errno = 0;
	if (fflush(o->fp) == EOF || ferror(o->fp))
		err = errno ? errno : EIO;
	if (o->is_stdout) {
		o->fp = NULL;
		if (err)
			return fail(o, err, "cannot write 'standard output': "
				    "%s", strerror(err));
		return 0;
	}
	if (err == 0 && o->tmp[0] != '\0' && !o->no_sync &&
	    fsync(fileno(o->fp)) < 0 &&
	    errno != EINVAL)
		err = errno;
	if (fclose(o->fp) == EOF && err == 0)
		err = errno ? errno : EIO;
	o->fp = NULL;
	if (err == 0 && o->tmp[0] != '\0' && commit(o) < 0)
		err = errno;
	if (err) {
		if (o->tmp[0] != '\0')
			unlink(o->tmp);
		o->tmp[0] = '\0';
		if (err == EEXIST)
			return fail(o, err,
				    "refusing to replace '%s': it exists "
				    "(--no-clobber)",
				    o->path);
		return fail(o, err, "cannot write '%s': %s", o->path,
			    strerror(err));
	}
	o->tmp[0] = '\0';
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->fp != NULL && !o->is_stdout)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp[0] != '\0')
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

int outfile_sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc, err;

	if (fd < 0)
		return -1;
	rc = syncfs(fd);
	err = errno;
	close(fd);
	errno = err;
	return rc;
}
