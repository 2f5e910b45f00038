/* netprobe layers: how this process is attached to the network (container,
 * WSL, VM, NAT, bridges), each conclusion with its evidence. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "commands.h"
#include "doc/doc.h"
#include "layers/layers.h"
#include "kernel/nl.h"
#include "base/sysroot.h"

enum { O_JSON = 'j', O_HELP = 'h', O_SYSROOT = 256 };

static const struct cli_opt layers_optv[] = {
	CLI_OPT_JSON(O_JSON),
	{O_SYSROOT, 0, "sysroot", CLI_REQUIRED, "DIR", NULL,
	 "replay a node recorded under DIR instead of this one", false},
	CLI_OPT_HELP,
};

static const struct cli_cmd layers_cmd = {
	"netprobe layers", "[options]",
	"Find how this process is attached: container, WSL, VM, NAT, bridges.",
	layers_optv, sizeof(layers_optv) / sizeof(layers_optv[0]), NULL,
};

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
	const char *root = NULL;
	bool json = false;
	struct sysroot sr;
	struct iface_list ifl = {0};
	bool have_ifl = true;
	struct layers ly;
	struct doc d;
	struct cli cl;
	char **ops;
	int c, rc;

	cli_start(&cl, &layers_cmd, argc, argv);
	while ((c = cli_next(&cl)) != CLI_END) {
		switch (c) {
		case O_JSON:
			json = true;
			break;
		case O_SYSROOT:
			root = cl.arg;
			break;
		case O_HELP:
			return cli_help(&layers_cmd, stdout) == 0 ? 0 : 2;
		default:
			return cli_usage_error(&layers_cmd, stderr, "%s",
					       cl.err);
		}
	}
	if (cli_operands(&cl, &ops) > 0)
		return cli_usage_error(&layers_cmd, stderr,
				       "unexpected operand '%s'", ops[0]);
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
	if (layers_findings(&ly, &d) < 0) {
		rc = fail(&d, json, "cannot decide the layering of",
			  root ? root : "/", errno);
		layers_free(&ly);
		doc_free(&d);
		return rc;
	}
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
