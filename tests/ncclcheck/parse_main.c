/* ncclcheck's command line alone, for the examples test where no GPU
 * (or no CUDA toolkit) is: exits 0 when ncclcheck would accept the
 * arguments, 2 with ncclcheck's own message when it would refuse them. */
#include <stdio.h>
#include <string.h>

#include "nc.h"

/* Parses as ncclcheck's main does, and stops there. */
int main(int argc, char **argv)
{
	static struct nc_opts o;
	char err[512];
	int rc = nc_opts_parse(&o, argc, argv, err, sizeof(err));

	if (rc < 0) {
		fprintf(stderr, "ncclcheck: %s\n", err);
		return 2;
	}
	if (rc == 1 && strcmp(err, "help") == 0)
		return nc_help(stdout) == 0 ? 0 : 2;
	if (rc == 1 && strcmp(err, "list") == 0)
		return nc_coll_list(stdout) == 0 ? 0 : 2;
	printf("ncclcheck-parse: accepted\n");
	return 0;
}
