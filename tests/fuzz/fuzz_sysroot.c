/* libFuzzer target for the sysroot readers: a recorded tree (the
 * docker-bridge fixture, NP_FUZZ_SYSROOT to choose another) copied once
 * into a private directory, the files the input names rewritten with its
 * bytes, then every collector that reads a sysroot run over it (interfaces,
 * routes, layers, the socket table, the environment record), and the
 * files put back. Input: chunks of [file (1 byte)][length (2 bytes, little
 * endian)][bytes]. */
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sysroot.h"
#include "kernel/iface.h"
#include "kernel/jobenv.h"
#include "kernel/nl.h"
#include "kernel/sockinfo.h"
#include "layers/layers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILES 256

static struct {
	char rel[512];
	char *text;
	size_t len;
} files[MAX_FILES];
static size_t nfiles;
static const char *src;
static char root[] = "/dev/shm/np-fuzz-sysroot-XXXXXX";

/* Writes n bytes to root/rel, creating it. */
static void put(const char *rel, const void *p, size_t n)
{
	char full[1024];
	int fd;

	snprintf(full, sizeof(full), "%s/%s", root, rel);
	fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (n > 0 && write(fd, p, n) < 0)
		n = 0;
	close(fd);
}

/* nftw: copies the fixture tree, keeping regular files in memory. */
static int copy(const char *path, const struct stat *st, int type,
		struct FTW *f)
{
	const char *rel = path + strlen(src);
	char full[1024], link[512];
	ssize_t n;
	FILE *fp;

	(void)f;
	while (*rel == '/')
		rel++;
	snprintf(full, sizeof(full), "%s/%s", root, rel);
	if (type == FTW_D) {
		mkdir(full, 0755);
	} else if (type == FTW_SL) {
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			if (symlink(link, full) < 0)
				return 0;
		}
	} else if (type == FTW_F && S_ISREG(st->st_mode) &&
		   nfiles < MAX_FILES) {
		fp = fopen(path, "rb");
		if (fp == NULL)
			return 0;
		files[nfiles].text = malloc((size_t)st->st_size + 1);
		if (files[nfiles].text != NULL) {
			files[nfiles].len = fread(files[nfiles].text, 1,
						  (size_t)st->st_size, fp);
			snprintf(files[nfiles].rel, sizeof(files[0].rel),
				 "%s", rel);
			put(rel, files[nfiles].text, files[nfiles].len);
			nfiles++;
		}
		fclose(fp);
	}
	return 0;
}

/* nftw: removes one entry of the copy. */
static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *f)
{
	(void)st;
	(void)f;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* The copy goes when the fuzzer exits. */
static void cleanup(void)
{
	nftw(root, rm_one, 32, FTW_DEPTH | FTW_PHYS);
}

static void start(void)
{
	src = getenv("NP_FUZZ_SYSROOT");
	if (src == NULL)
		src = "tests/fixtures/sysroot/docker-bridge";
	if (mkdtemp(root) == NULL ||
	    nftw(src, copy, 32, FTW_PHYS) < 0 || nfiles == 0) {
		fprintf(stderr, "fuzz_sysroot: cannot copy '%s'\n", src);
		abort();
	}
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool touched[MAX_FILES] = {0};
	struct iface_list l = {0};
	struct route_info defs[8];
	struct sock_table t = {0};
	static struct env_record er;
	struct layers ly;
	struct sysroot sr;
	size_t off = 0, nd;

	if (nfiles == 0)
		start();
	while (off + 3 <= size) {
		size_t k = data[off] % nfiles;
		size_t n = (size_t)data[off + 1] | (size_t)data[off + 2] << 8;

		off += 3;
		if (n > size - off)
			n = size - off;
		put(files[k].rel, data + off, n);
		touched[k] = true;
		off += n;
	}
	if (sysroot_init(&sr, root) == 0) {
		int got = iface_collect(&l, &sr);

		route_defaults(&sr, defs, 8, &nd);
		memset(&ly, 0, sizeof(ly));
		if (layers_detect(&ly, &sr, got == 0 ? &l : NULL) == 0)
			layers_free(&ly);
		sockinfo_listeners(&sr, &t);
		sockinfo_free(&t);
		env_record_read(&sr, &er);
		iface_list_free(&l);
	}
	for (size_t k = 0; k < nfiles; k++)
		if (touched[k])
			put(files[k].rel, files[k].text, files[k].len);
	return 0;
}
