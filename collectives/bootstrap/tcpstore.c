/* torch's TCPStore client (tcpstore.h): one connection per call, every
 * read and write bounded. Messages: a query byte, then keys and values as
 * a u64 length and bytes, numbers in the host's order (little-endian on
 * every machine torch runs on). */
#include "bootstrap/tcpstore.h"
#include "bootstrap/bootstrap_io.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"

enum { Q_VALIDATE = 0, Q_SET = 1, Q_GET = 3, Q_CHECK = 5 };
enum { CHECK_READY = 0, CHECK_NOT_READY = 1 };

/* Appends a u64 length and the bytes. */
static size_t put_bytes(unsigned char *b, const void *p, size_t n)
{
	uint64_t l = n;

	memcpy(b, &l, 8);
	memcpy(b + 8, p, n);
	return 8 + n;
}

/* Connects and validates; returns the socket, or -1 with err set. */
static int store_open(const char *host, int port, long long dl, char *err,
		      size_t errlen)
{
	unsigned char v[5];
	uint32_t magic = NC_STORE_MAGIC;
	int fd = sc_connect(host, port, dl);

	if (fd < 0) {
		snprintf(err, errlen, "cannot reach torch's store at %s:%d: "
			 "%s", host, port, strerror(errno));
		return -1;
	}
	v[0] = Q_VALIDATE;
	memcpy(v + 1, &magic, 4);
	if (sc_write_full(fd, v, sizeof(v), dl) < 0) {
		snprintf(err, errlen, "torch's store at %s:%d: %s", host, port,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* One query of a key with an optional value; no answer read here. */
static int store_send(int fd, int q, const char *key, const void *val,
		      size_t vlen, bool count, long long dl)
{
	size_t kl = strlen(key), n = 0;
	unsigned char *b = malloc(1 + 8 + 8 + kl + 8 + vlen);
	uint64_t one = 1;
	int rc;

	if (b == NULL)
		return -1;
	b[n++] = (unsigned char)q;
	if (count) { /* CHECK takes a list of keys */
		memcpy(b + n, &one, 8);
		n += 8;
	}
	n += put_bytes(b + n, key, kl);
	if (val != NULL)
		n += put_bytes(b + n, val, vlen);
	rc = sc_write_full(fd, b, n, dl);
	free(b);
	return rc;
}

/* SET has no answer: a GET of the key after it proves it arrived. */
int nc_store_set(const char *host, int port, const char *key,
		 const void *val, size_t len, long long deadline_us,
		 char *err, size_t errlen)
{
	char back[16];
	int fd = store_open(host, port, deadline_us, err, errlen);

	if (fd < 0)
		return -1;
	if (store_send(fd, Q_SET, key, val, len, false, deadline_us) < 0) {
		snprintf(err, errlen, "torch's store at %s:%d: set '%s': %s",
			 host, port, key, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (nc_store_get(host, port, key, back, sizeof(back), deadline_us,
			 err, errlen) < 0)
		return -1;
	return 0;
}

/* CHECK every 20 ms until the key exists, then GET it. */
long nc_store_get(const char *host, int port, const char *key, void *val,
		  size_t max, long long deadline_us, char *err,
		  size_t errlen)
{
	unsigned char r;
	uint64_t l;
	char *tmp = NULL;
	long out = -1;
	/* a question asked just before the deadline still gets its answer */
	long long io_dl = deadline_us + 1000000;
	int fd = store_open(host, port, io_dl, err, errlen);

	if (fd < 0)
		return -1;
	for (;;) {
		if (store_send(fd, Q_CHECK, key, NULL, 0, true, io_dl) < 0 ||
		    sc_read_full(fd, &r, 1, io_dl) < 0)
			goto io;
		if (r == CHECK_READY)
			break;
		if (r != CHECK_NOT_READY) {
			snprintf(err, errlen, "torch's store at %s:%d answered "
				 "%u to a check (not torch 2's protocol?)",
				 host, port, r);
			goto out;
		}
		if (mono_now_us() >= deadline_us) {
			snprintf(err, errlen, "torch's store at %s:%d: key '%s' "
				 "was not set in time (rank 0 never "
				 "published its address)", host, port, key);
			goto out;
		}
		usleep(20000);
	}
	if (store_send(fd, Q_GET, key, NULL, 0, false, io_dl) < 0 ||
	    sc_read_full(fd, &l, 8, io_dl) < 0)
		goto io;
	if (l > 1u << 20) {
		snprintf(err, errlen, "torch's store at %s:%d: value of '%s' "
			 "is %llu bytes", host, port, key,
			 (unsigned long long)l);
		goto out;
	}
	tmp = malloc(l + 1);
	if (tmp == NULL || sc_read_full(fd, tmp, l, io_dl) < 0)
		goto io;
	out = (long)(l < max ? l : max);
	memcpy(val, tmp, (size_t)out);
	if ((size_t)out < max)
		((char *)val)[out] = '\0';
	goto out;
io:
	snprintf(err, errlen, "torch's store at %s:%d: '%s': %s", host, port,
		 key, strerror(errno));
out:
	free(tmp);
	close(fd);
	return out;
}

/* Missing parts read "0", as on a first attempt. */
void nc_store_key(const char *run_id, const char *restart, char *buf,
		  size_t len)
{
	snprintf(buf, len, "ncclcheck/hub/%s/%s",
		 run_id != NULL && *run_id ? run_id : "none",
		 restart != NULL && *restart ? restart : "0");
}
