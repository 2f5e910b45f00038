/* What a person's paste does to a log line, and what the program's own
 * words hide (issue 42: blind42j): a placeholder the paster put in a
 * host name ("<namespace>") is no launcher syntax; a variable nothing
 * expanded ("$lws_leader_address") is the name looked up, which no
 * retry resolves, and its fix is to expand it; NCCL's " : " written
 * "Bootstrap: "; a port held in Accelerate's words, in backticks; a
 * launch command giving a loopback rendezvous to several hosts; a
 * framework's words inside a Python exception. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(placeholder_is_no_syntax)
{
	static const char *const l[] = {
		"ssh: Could not resolve hostname all-reduce-worker-1.all-"
		"reduce.<namespace>.svc: Name or service not known", NULL};
	static const char *const slots[] = {
		"ssh: Could not resolve hostname node-1:8: Name or service not "
		"known", NULL};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "cause name-unresolved"));
	ck_assert(!unitfix_has(&r, "other launcher-syntax"));
	/* a host list's own syntax still is the launcher's */
	unitfix_explain(slots, -1, &r);
	ck_assert(unitfix_has(&r, "other launcher-syntax"));
}
END_TEST

START_TEST(unexpanded_variable_is_the_name)
{
	static const char *const l[] = {
		"[W318 09:34:46.763761558 socket.cpp:767] [c10d] The IPv6 "
		"network addresses of ($lws_leader_address, 29500) cannot be "
		"retrieved (gai error: -2 - Name or service not known).",
		NULL};
	/* an ordinary name's IPv6 warning alone is still a retry */
	static const char *const plain[] = {
		"[W318 09:34:46.763761558 socket.cpp:767] [c10d] The IPv6 "
		"network addresses of (leader-0, 29500) cannot be retrieved "
		"(gai error: -2 - Name or service not known).", NULL};
	struct explain_result r;
	const char *fix;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "cause name-unresolved"));
	fix = unitfix_cause(&r, "cause name-unresolved")->fix;
	ck_assert_ptr_nonnull(fix);
	ck_assert_msg(strstr(fix, "$(NAME)") && strstr(fix, "literal"),
		      "fix: %s", fix);
	unitfix_explain(plain, -1, &r);
	ck_assert(!unitfix_has(&r, "cause name-unresolved"));
}
END_TEST

START_TEST(nccl_words_without_space)
{
	static const char *const l[] = {
		"NCCL WARN Bootstrap: no socket interface found", NULL};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "open nccl-ifname-nomatch"));
}
END_TEST

START_TEST(port_held_in_accelerates_words)
{
	static const char *const l[] = {
		"ConnectionError: Tried to launch distributed communication on "
		"port `29500`, but another process is utilizing it. Please "
		"specify a different port", NULL};
	struct explain_result r;
	bool port = false;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "open port-in-use"));
	for (size_t i = 0; i < r.ncauses; i++)
		port |= strstr(r.causes[i].next, "'sport = :29500'") != NULL;
	ck_assert(port);
}
END_TEST

START_TEST(loopback_rendezvous_on_several_hosts)
{
	static const char *const mpi[] = {
		"mpirun -n 2  -env DMLC_ROLE server -env DMLC_PS_ROOT_PORT 9795 "
		"-env DMLC_PS_ROOT_URI 127.0.0.1 -env DMLC_NUM_SERVER 2 "
		"--hostfile hosts python train_imagenet.py", NULL};
	static const char *const torchrun[] = {
		"torchrun --nnodes=2 --node_rank=1 --master_addr=localhost "
		"--master_port=29500 train.py", NULL};
	/* one host: loopback is right */
	static const char *const one[] = {
		"torchrun --nnodes=1 --master_addr=127.0.0.1 train.py", NULL};
	struct explain_result r;

	unitfix_explain(mpi, -1, &r);
	ck_assert(unitfix_has(&r, "open listener-loopback-only"));
	unitfix_explain(torchrun, -1, &r);
	ck_assert(unitfix_has(&r, "open rank-unreachable"));
	unitfix_explain(one, -1, &r);
	ck_assert(!unitfix_has(&r, "open listener-loopback-only"));
}
END_TEST

START_TEST(framework_words_inside_a_value_error)
{
	/* Dask's symptom wrapped in ValueError: no code bug, say what
	 * to collect */
	static const char *const sym[] = {
		"ValueError: cannot get address of non-running Server", NULL};
	static const char *const iface[] = {
		"ValueError: 'ib0' is not a valid network interface. Valid "
		"network interfaces are: ['lo', 'eno1']", NULL};
	static const char *const nixl[] = {
		"RuntimeError: Remote NIXL agent engine ID mismatch. Expected "
		"46126a31_dp0,received 96b1c4ff_dp0.", NULL};
	struct explain_result r;
	const char *fix;

	unitfix_explain(sym, -1, &r);
	ck_assert(unitfix_has(&r, "symptom dask-server-not-running"));
	ck_assert(!unitfix_has(&r, "other code-bug"));
	unitfix_explain(iface, -1, &r);
	ck_assert(unitfix_has(&r, "cause nccl-ifname-nomatch"));
	fix = unitfix_cause(&r, "cause nccl-ifname-nomatch")->fix;
	ck_assert_msg(fix && strstr(fix, "interface=") &&
		      !strstr(fix, "NCCL_SOCKET_IFNAME"), "fix: %s", fix);
	unitfix_explain(nixl, -1, &r);
	ck_assert(unitfix_has(&r, "open listener-loopback-only"));
}
END_TEST

Suite *suite_explain_paste(void)
{
	Suite *s = suite_create("explain_paste");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, placeholder_is_no_syntax);
	tcase_add_test(tc, unexpanded_variable_is_the_name);
	tcase_add_test(tc, nccl_words_without_space);
	tcase_add_test(tc, port_held_in_accelerates_words);
	tcase_add_test(tc, loopback_rendezvous_on_several_hosts);
	tcase_add_test(tc, framework_words_inside_a_value_error);
	suite_add_tcase(s, tc);
	return s;
}
