/* A ruleset that exempts packets from connection tracking and then drops
 * them (issue 48; firewalld/firewalld#380): notrack-untracked-drop, from
 * this node's own nftables ruleset (kernel/fwrules.h), with the command
 * that accepts the exempted packets. */
#ifndef NP_DECIDE_NOTRACK_H
#define NP_DECIDE_NOTRACK_H

#include "doc/doc.h"
#include "kernel/fwrules.h"

/* Adds a notrack-untracked-drop fault for each notrack rule of a
 * prerouting chain whose packets no accept of the input chains matches
 * (an accept of ct state untracked, or one with no ct state) while an
 * input chain drops what nothing accepts (its policy or a last rule that
 * drops all): such packets match neither ct state new nor established.
 * Silent for r NULL, another backend than nftables, no notrack rule, or
 * no input chain that drops. Returns 0, or -1 on no memory. */
int decide_notrack(const struct fw_rules *r, struct doc *d);

#endif
