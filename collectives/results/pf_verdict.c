/* The pre-flight's part of a run's verdict (output.h): the findings the
 * hub decided, into the run. */
#include "results/output.h"

#include "doc/finding.h"

/* A finding the catalogue does not know (a rank of another version) is
 * treated as a fault, and kept as an error naming it: starting NCCL on a
 * doubt would turn a clear message into a hang. */
bool nc_run_pf_findings(struct nc_run *run, const struct nc_pf_finding *f,
			int n)
{
	bool fatal = false;

	for (int i = 0; i < n; i++) {
		const struct finding_def *fd = finding_lookup(f[i].code);
		int sev = f[i].severity >= 0 ? f[i].severity :
			  fd != NULL ? (int)fd->sev : SEV_FAULT;

		if (fd != NULL)
			nc_run_finding(run, fd->id, f[i].severity, "%s",
				       f[i].summary);
		else
			nc_run_error(run, "preflight",
				     "a rank reported finding '%.31s', which "
				     "this version does not know: %s",
				     f[i].code, f[i].summary);
		if (sev == SEV_FAULT)
			fatal = true;
	}
	return fatal;
}
