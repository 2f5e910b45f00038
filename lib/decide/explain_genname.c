/* netprobe explain: the name a generic lookup line names (issue 42),
 * and whether the lookup was one a resolver was asked in earnest: a
 * line may name no name ("getaddrinfo failed"), an unset setting
 * ("null"), an IPv6 literal its program cut at the first colon, or an
 * argument a shell split off curl's command line. explain_generic.c
 * opens name-unresolved from what this file finds. */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* See explain_priv.h: letters, digits, '.', '-', '_'. */
bool explain_host_char(int c)
{
	return isalnum(c) || c == '.' || c == '-' || c == '_';
}

/* See explain_priv.h. */
bool explain_is_ip(const char *s)
{
	unsigned char b[16];

	return inet_pton(AF_INET, s, b) == 1 || inet_pton(AF_INET6, s, b) == 1;
}

/* Whether p (n bytes) is an IPv4 or IPv6 literal. */
static bool ip_n(const char *p, size_t n)
{
	char buf[64];

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return explain_is_ip(buf);
}

/* Whether p starts an errno's symbol (EAI_AGAIN, ENOTFOUND): 'E' and
 * capitals, digits or '_' up to a space. */
static bool errno_symbol(const char *p)
{
	size_t n = 1;

	if (p[0] != 'E')
		return false;
	while (isupper((unsigned char)p[n]) || isdigit((unsigned char)p[n]) ||
	       p[n] == '_')
		n++;
	return n > 2 && p[n] == ' ';
}

/* A word that follows "getaddrinfo " or "lookup " in a message that
 * names no host ("[Errno 11001] getaddrinfo failed"). */
static bool not_a_name(const char *p, size_t n)
{
	static const char *const words[] = {"failed", "failure", "error",
					    "returned", "timed"};

	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (n == strlen(words[k]) && strncmp(p, words[k], n) == 0)
			return true;
	return false;
}

/* The words that introduce the name a failed lookup names, in the
 * common forms ("resolve host NAME", "lookup NAME", Java's
 * "UnknownHostException: NAME", "'NAME'"). */
static const char *const name_intro[] = {
	"resolve hostname ", "resolve host name ", "resolve host: ",
	"resolve host ", "resolve address ", "resolve name ",
	"lookup ", "UnknownHostException: ", "look up ", "Caused by: [",
	"getaddrinfo ", "hostname ", "host '", "for host ",
	"trying to resolve: ", "address of host: ", "'"};

/* See explain_priv.h. */
bool explain_line_name(const char *t, char *name, size_t len)
{
	for (size_t k = 0; k < sizeof(name_intro) / sizeof(name_intro[0]);
	     k++) {
		const char *p = strstr(t, name_intro[k]);
		size_t n = 0;
		bool letter = false;

		if (p == NULL)
			continue;
		p += strlen(name_intro[k]);
		/* "lookup host NAME", "resolve the name NAME" */
		for (int w = 0; w < 3 && (strncmp(p, "host ", 5) == 0 ||
					  strncmp(p, "the ", 4) == 0 ||
					  strncmp(p, "name ", 5) == 0 ||
					  strncmp(p, "hostname ", 9) == 0 ||
					  strncmp(p, "address ", 8) == 0); w++)
			p = strchr(p, ' ') + 1;
		/* Node's "getaddrinfo ENOTFOUND NAME": the errno's
		 * symbol comes before the name */
		if (errno_symbol(p) && strchr(p, ' ') != NULL)
			p = strchr(p, ' ') + 1;
		while (explain_host_char((unsigned char)p[n]))
			letter |= isalpha((unsigned char)p[n++]);
		while (n > 0 && p[n - 1] == '.') /* a sentence's full stop */
			n--;
		if (n == 0 || !letter || not_a_name(p, n))
			continue;
		snprintf(name, len, "%.*s", (int)n, p);
		return true;
	}
	return false;
}

/* Whether curl's "Could not resolve host: X" names a word no host
 * name is ("2.0,", "{\"a\":"): an argument a shell split off the
 * command line (a body quoted with ' in Windows' cmd), which curl took
 * for a URL (issue 42: blind42y e09). */
static bool name_garbled(const char *t)
{
	const char *p = strstr(t, "resolve host: ");
	size_t n = 0;
	bool letter = false, odd = false;

	if (p == NULL)
		return false;
	p += 14;
	while (p[n] != '\0' && !isspace((unsigned char)p[n]))
		n++;
	/* punctuation after the name ("H; Name or service not known",
	 * "(... host: H)", "H:P: Name or ...") */
	while (n > 0 && strchr(";,.):", p[n - 1]) != NULL)
		n--;
	/* a port after the name ("H:29500") is no part of it */
	for (size_t k = n; k > 0 && isdigit((unsigned char)p[k - 1]); k--)
		if (k >= 2 && p[k - 2] == ':') {
			n = k - 2;
			break;
		}
	for (size_t k = 0; k < n; k++) {
		letter |= isalpha((unsigned char)p[k]) != 0;
		odd |= !explain_host_char((unsigned char)p[k]);
	}
	return n > 0 && (odd || (!letter && !ip_n(p, n)));
}

/* Whether the name a failed lookup names is a program's empty value
 * (Java's "null", Python's "None", Go's "nil", JavaScript's
 * "undefined"): a setting left unset, which no resolver is asked about
 * (issue 42: blind42x a03, Pinot's "UnknownHostException: null" for a
 * broker host never set). */
static bool names_unset(const char *t)
{
	static const char *const unset[] = {"null", "NULL", "None", "nil",
					    "undefined"};
	char name[64];

	if (!explain_line_name(t, name, sizeof(name)))
		return false;
	for (size_t u = 0; u < sizeof(unset) / sizeof(unset[0]); u++)
		if (strcmp(name, unset[u]) == 0)
			return true;
	return false;
}

/* See explain_priv.h. */
bool explain_name_not_asked(const char *t)
{
	/* the resolver handed a lone "[": an IPv6 literal its program cut
	 * at the first colon ("[::ffff:10.1.2.3]:49155"), its parser's
	 * fault and no name that did not resolve (issue 42: blind42w a02,
	 * flux's "unable to resolve upstream peer [: Name or service not
	 * known") */
	return strstr(t, " [: ") != NULL || names_unset(t) ||
	       name_garbled(t);
}
