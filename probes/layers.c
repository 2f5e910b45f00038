/* netprobe layers: how this process is attached to the network (container,
 * WSL, VM, NAT, bridges), each conclusion with its evidence. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "doc/doc.h"
#include "layers/layers.h"
#include "kernel/nl.h"
#include "base/sysroot.h"

/* Same words as the SYNOPSIS in netprobe(1). */
static void usage(FILE *fp)
{
	fprintf(fp, "usage: netprobe layers [--json] [--sysroot DIR]\n");
}

/* Human output: the conclusions, then the evidence, then the findings. */
static void print_text(const struct layers *ly, const struct doc *d)
{
	size_t i;
	json_t *o;

	printf("container  %s\n", layers_container_name(ly->container));
	printf("netmode    %s\n", layers_netmode_name(ly->netmode));
	printf("wsl        %s%s\n", layers_wsl_name(ly->wsl),
	       ly->wsl_container ? " (container inside WSL2)" : "");
	printf("virt       %s\n", ly->virt);
	printf("reach      %s\n", layers_reach_name(ly->reach));
	if (ly->shm_bytes >= 0)
		printf("shm        %lld MiB\n", ly->shm_bytes >> 20);
	else
		printf("shm        unknown\n");
	json_array_foreach(ly->bridges, i, o) {
		json_t *m = json_object_get(o, "members"), *x;
		size_t j;

		printf("bridge     %s:",
		       json_string_value(json_object_get(o, "name")));
		if (json_array_size(m) == 0)
			printf(" no members");
		json_array_foreach(m, j, x)
			printf(" %s", json_string_value(x));
		printf("\n");
	}
	printf("evidence\n");
	json_array_foreach(ly->evidence, i, o)
		printf("  %-28s %s\n",
		       json_string_value(json_object_get(o, "source")),
		       json_string_value(json_object_get(o, "fact")));
	doc_print_findings(d, stdout, true);
}

/* Writes the error to stderr and, in JSON mode, into the document. */
static int fail(struct doc *d, bool json, const char *msg,
		const char *subject, int err)
{
	char why[128];
	size_t n;

	snprintf(why, sizeof(why), "%s", strerror(err));
	n = strlen(why);
	if (n > 0)
		why[0] = (char)tolower((unsigned char)why[0]);
	fprintf(stderr, "netprobe layers: %s '%s': %s\n", msg, subject, why);
	if (json && d->root != NULL) {
		doc_add_error(d, "sysroot", "%s '%s': %s", msg, subject, why);
		doc_write(d, stdout);
	}
	return 2;
}

/* Collect, decide, emit; the exit status is the verdict. */
int cmd_layers(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"sysroot", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *root = NULL;
	bool json = false;
	struct sysroot sr;
	struct iface_list ifl = {0};
	bool have_ifl = true;
	struct layers ly;
	struct doc d;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 's':
			root = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			fprintf(stderr,
				"netprobe layers: option '%s' needs a value\n",
				argv[optind - 1]);
			usage(stderr);
			return 2;
		default:
			fprintf(stderr,
				"netprobe layers: unknown option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "netprobe layers: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return 2;
	}
	if (doc_init(&d, "netprobe", "layers") < 0) {
		fprintf(stderr, "netprobe layers: cannot build the document\n");
		return 2;
	}
	if (sysroot_init(&sr, root) < 0) {
		rc = fail(&d, json, "cannot use sysroot", root ? root : "/",
			  errno);
		doc_free(&d);
		return rc;
	}
	/* live: netlink, which must work; recorded: a tree without
	 * /sys/class/net leaves the files alone to decide */
	if (iface_collect(&ifl, &sr) < 0) {
		if (sysroot_is_live(&sr) || errno != ENOENT) {
			bool live = sysroot_is_live(&sr);

			rc = fail(&d, json,
				  live ? "netlink refused"
				       : "cannot read interfaces of sysroot",
				  live ? "RTM_GETLINK" : root, errno);
			doc_free(&d);
			return rc;
		}
		have_ifl = false;
	}
	if (layers_detect(&ly, &sr, have_ifl ? &ifl : NULL) < 0) {
		rc = fail(&d, json, "nothing readable in sysroot",
			  root ? root : "/", errno);
		iface_list_free(&ifl);
		doc_free(&d);
		return rc;
	}
	iface_list_free(&ifl);
	layers_findings(&ly, &d);
	doc_set(&d, "layers", layers_to_json(&ly));
	if (json)
		doc_write(&d, stdout);
	else
		print_text(&ly, &d);
	rc = doc_exit_status(&d, true);
	layers_free(&ly);
	doc_free(&d);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "netprobe layers: cannot write 'stdout'\n");
		return 2;
	}
	return rc;
}
