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
#include "doc/cmdrun.h"
#include "doc/doc.h"
#include "layers/layers.h"
#include "kernel/nl.h"
#include "base/sysroot.h"

static const struct cli_cmd layers_cmd = {
	"netprobe layers", "[options]",
	"Find how this process is attached: container, WSL, VM, NAT, bridges.",
	NULL, 0, NULL,
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

/* strerror in the house's lower case: "no such file or directory". */
static const char *why_of(int err, char *buf, size_t len)
{
	snprintf(buf, len, "%s", strerror(err));
	if (buf[0] != '\0')
		buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}

/* Options; the common ones go to r. Returns 0 to run, 1 after --help,
 * 2 on bad usage. */
static int layers_parse(struct cmd_run *r, int argc, char **argv,
			const char **root)
{
	const struct cli_opt optv[] = {
	    {0, 0, "sysroot", CLI_REQUIRED, "DIR", NULL,
	     "replay a node recorded under DIR instead of this one", false,
	     CLI_TO(STR, root)},
	    CLI_OPT_HELP,
	};
	struct cli_cmd cmd = layers_cmd;
	struct cli cl;
	char **ops;
	int c;

	cmd.opts = optv;
	cmd.nopts = sizeof(optv) / sizeof(optv[0]);
	cmd_cli(r, &cl, &cmd, argc, argv);
	while ((c = cli_next(&cl)) != CLI_END) {
		if (c == 'h')
			return cli_help(cl.cmd, stdout) == 0 ? 1 : 2;
		return cli_usage_error(&cmd, stderr, "%s", cl.err);
	}
	if (cli_operands(&cl, &ops) > 0)
		return cli_usage_error(&cmd, stderr, "unexpected operand '%s'",
				       ops[0]);
	return 0;
}

/* Collect and decide: the layering of the node under root into ly, its
 * findings into the run's document. Returns 0, or 2 (reported). */
static int layers_collect(struct cmd_run *r, const char *root,
			  struct layers *ly)
{
	const char *where = root ? root : "/";
	struct iface_list ifl = {0};
	bool have_ifl = true;
	struct sysroot sr;
	char why[128];

	if (sysroot_init(&sr, root) < 0)
		return cmd_fail(r, "sysroot", "cannot use sysroot", where, "%s",
				why_of(errno, why, sizeof(why)));
	/* live: netlink, which must work; recorded: a tree without
	 * /sys/class/net leaves the files alone to decide */
	if (iface_collect(&ifl, &sr) < 0) {
		bool live = sysroot_is_live(&sr);

		if (live || errno != ENOENT)
			return cmd_fail(
			    r, "sysroot",
			    live ? "netlink refused"
				 : "cannot read interfaces of sysroot",
			    live ? "RTM_GETLINK" : root, "%s",
			    why_of(errno, why, sizeof(why)));
		have_ifl = false;
	}
	if (layers_detect(ly, &sr, have_ifl ? &ifl : NULL) < 0) {
		iface_list_free(&ifl);
		return cmd_fail(r, "sysroot", "nothing readable in sysroot",
				where, "%s", why_of(errno, why, sizeof(why)));
	}
	iface_list_free(&ifl);
	if (layers_findings(ly, &r->doc) < 0) {
		layers_free(ly);
		return cmd_fail(r, "sysroot", "cannot decide the layering of",
				where, "%s", why_of(errno, why, sizeof(why)));
	}
	return 0;
}

/* parse -> collect -> decide -> finish; the exit status is the verdict. */
int cmd_layers(int argc, char **argv)
{
	const char *root = NULL;
	struct cmd_run r;
	struct layers ly;
	int rc;

	cmd_begin(&r, "netprobe", "layers", stdout, stderr);
	rc = layers_parse(&r, argc, argv, &root);
	if (rc != 0)
		return rc == 1 ? 0 : 2;
	if ((rc = cmd_parsed(&r)) != 0)
		return cmd_finish(&r, rc);
	if (cmd_doc(&r) < 0)
		return cmd_finish(&r, cmd_fail(&r, "doc",
		                               "cannot build the document",
		                               NULL, NULL));
	rc = layers_collect(&r, root, &ly);
	if (rc != 0)
		return cmd_finish(&r, rc);
	doc_set(&r.doc, "layers", layers_to_json(&ly));
	if (!r.json && !r.quiet)
		print_text(&ly, &r.doc);
	rc = cmd_status(&r, true);
	layers_free(&ly);
	return cmd_finish(&r, rc);
}

CMD_COMMAND(layers, cmd_layers, 30,
            "find container, WSL, NAT and bridge layering");
