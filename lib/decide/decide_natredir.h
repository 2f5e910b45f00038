/* A nat rule that redirects the job's TCP connections to a local port
 * nothing listens on (issue 48, blind48c 05: istio-init's rules with no
 * istio-proxy): nat-redirect-unheld, from this node's own nftables
 * ruleset (kernel/natredir.h) and its listeners (kernel/hostlim.h). */
#ifndef NP_DECIDE_NATREDIR_H
#define NP_DECIDE_NATREDIR_H

#include "doc/doc.h"
#include "kernel/hostlim.h"
#include "kernel/natredir.h"

/* Adds a nat-redirect-unheld fault for each redirect of nr whose target
 * port no listener of l holds, with the command that deletes the base
 * chain's rule that leads to it. Silent for nr NULL or unread, where the
 * listeners are unread or more than were kept, and where one holds the
 * port. Returns 0, or -1 on no memory. */
int decide_natredir(const struct nat_redirs *nr, const struct host_limits *l,
                    struct doc *d);

#endif
