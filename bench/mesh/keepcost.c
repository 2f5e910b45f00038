/* What node 0 of a mesh spends keeping the members' documents (--out,
 * issue 36): each document of DIR dumped compact with sorted keys, as a
 * member sends it, then parsed (node 0 parses each once, for the report),
 * written back pretty from the tree (the way before) and indented from
 * its text (json_indent, the way now), into /dev/null; the CPU of each
 * step, and whether the two ways wrote the same bytes.
 *   keepcost DIR     (make bench-keepcost KEEPCOST_DIR=DIR) */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "doc/json_indent.h"

#define KC_MAX 8192

/* CPU seconds of this process. */
static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Loads DIR's documents as members send them into txt; returns how many. */
static int load(const char *dir, char **txt, size_t *len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL && n < KC_MAX) {
		char p[4096];
		json_t *j;

		if (strstr(e->d_name, ".json") == NULL)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		j = json_load_file(p, 0, NULL);
		if (j == NULL)
			continue;
		txt[n] = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(j);
		if (txt[n] != NULL)
			len[n] = strlen(txt[n]), n++;
	}
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	static char *txt[KC_MAX];
	static size_t len[KC_MAX];
	static json_t *tree[KC_MAX];
	size_t bytes = 0;
	int n, same = 0;
	double t0, t1, t2, t3;

	if (argc != 2 || (n = load(argv[1], txt, len)) <= 0) {
		fprintf(stderr, "keepcost: usage: keepcost DIR (a folder of "
		                "netprobe JSON documents)\n");
		return 2;
	}
	for (int i = 0; i < n; i++)
		bytes += len[i];
	t0 = cpu_s();
	for (int i = 0; i < n; i++)
		tree[i] = json_loadb(txt[i], len[i], 0, NULL);
	t1 = cpu_s();
	FILE *f = fopen("/dev/null", "w");

	if (f == NULL)
		return 2;
	for (int i = 0; i < n; i++)
		json_dumpf(tree[i], f,
		           JSON_SORT_KEYS | JSON_INDENT(2) | JSON_ENSURE_ASCII);
	t2 = cpu_s();
	for (int i = 0; i < n; i++) {
		size_t m;
		char *o = json_indent(txt[i], len[i], &m);

		if (o != NULL)
			fwrite(o, 1, m, f);
		free(o);
	}
	t3 = cpu_s();
	fclose(f);
	for (int i = 0; i < n; i++) {
		size_t m;
		char *o = json_indent(txt[i], len[i], &m);
		char *d = json_dumps(tree[i], JSON_SORT_KEYS | JSON_INDENT(2) |
		                                  JSON_ENSURE_ASCII);

		same += o != NULL && d != NULL && m == strlen(d) + 1 &&
		        memcmp(o, d, m - 1) == 0;
		free(o);
		free(d);
		json_decref(tree[i]);
		free(txt[i]);
	}
	printf("%d documents, %.1f MB compact: parse %.2f s, pretty from "
	       "the tree %.2f s, indented from the text %.2f s; %d of %d "
	       "byte-identical\n",
	       n, (double)bytes / 1e6, t1 - t0, t2 - t1, t3 - t2, same, n);
	return same == n ? 0 : 1;
}
