/* Command lines from one option table: getopt_long's arrays, the option
 * errors with their "did you mean", --help, and the colour decision. */
#include "base/cli.h"

#include <stdarg.h>
#include <string.h>

#include "base/parse.h"

/* Long options return this plus their index in the table, so that entries
 * sharing a key (aliases) stay apart in error messages. */
#define CLI_VAL_BASE 0x10000
#define CLI_HELP_COL 28

/* A malformed table: every cli_next then fails with this message. */
static int cli_bad_table(struct cli *c, const struct cli_opt *o)
{
	c->bad = true;
	snprintf(c->err, sizeof(c->err), "internal error: option table%s%s",
		 o && o->name ? ": --" : "", o && o->name ? o->name : "");
	return -1;
}

/* True when an entry's destination fits its argument: a flag stores a
 * bool or a count, a required argument a string, a number an integer. */
static bool cli_dest_ok(const struct cli_opt *o)
{
	switch (o->kind) {
	case CLI_KIND_NONE:
		return o->dest == NULL;
	case CLI_KIND_BOOL:
	case CLI_KIND_COUNT:
		return o->dest != NULL && o->arg == CLI_FLAG;
	case CLI_KIND_STR:
		return o->dest != NULL && o->arg == CLI_REQUIRED &&
		       o->unit == CLI_UNIT_NONE;
	case CLI_KIND_UINT:
		if (o->min < 0)
			return false;
		/* fall through */
	case CLI_KIND_INT:
	case CLI_KIND_LLONG:
		return o->dest != NULL && o->unit != CLI_UNIT_NONE;
	}
	return false;
}

/* Builds getopt_long's arrays from cmd into c (cleared by the caller).
 * Returns 0, or -1 for a malformed table (c->err says so). */
static int cli_build(struct cli *c, const struct cli_cmd *cmd, int argc,
		     char **argv)
{
	bool seen[256] = {false};
	char *s;
	size_t nl = 0;

	c->cmd = cmd;
	c->argc = argc;
	c->argv = argv;
	if (cmd->nopts > CLI_MAX_OPTS)
		return cli_bad_table(c, NULL);
	s = c->shortopts;
	*s++ = ':'; /* missing arguments return ':', and glibc stays quiet */
	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct cli_opt *o = &cmd->opts[i];
		unsigned char l = (unsigned char)o->letter;

		if ((o->key == 0 && o->dest == NULL) || o->key == CLI_END ||
		    o->key == CLI_ERROR || (!o->letter && !o->name) ||
		    !cli_dest_ok(o))
			return cli_bad_table(c, o);
		/* a number needs an argument, a range and a unit it knows */
		if (o->unit != CLI_UNIT_NONE &&
		    (o->arg != CLI_REQUIRED || o->min > o->max ||
		     o->unit > CLI_UNIT_BYTES ||
		     (o->unit == CLI_UNIT_BYTES && o->min < 0)))
			return cli_bad_table(c, o);
		if (o->letter) {
			if (!((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z') ||
			      (l >= '0' && l <= '9')) ||
			    seen[l] || o->arg == CLI_OPTIONAL)
				return cli_bad_table(c, o);
			seen[l] = true;
			*s++ = o->letter;
			if (o->arg == CLI_REQUIRED)
				*s++ = ':';
		}
		if (o->name) {
			for (size_t j = 0; j < nl; j++)
				if (strcmp(c->longopts[j].name, o->name) == 0)
					return cli_bad_table(c, o);
			c->longopts[nl].name = o->name;
			c->longopts[nl].has_arg =
			    o->arg == CLI_FLAG       ? no_argument
			    : o->arg == CLI_REQUIRED ? required_argument
						     : optional_argument;
			c->longopts[nl].flag = NULL;
			c->longopts[nl].val = CLI_VAL_BASE + (int)i;
			nl++;
		}
	}
	*s = '\0';
	/* 0, not 1: glibc then starts afresh, as for a new program */
	optind = 0;
	opterr = 0;
	return 0;
}

int cli_start(struct cli *c, const struct cli_cmd *cmd, int argc,
	      char **argv)
{
	memset(c, 0, sizeof(*c));
	return cli_build(c, cmd, argc, argv);
}

/* True when cmd has an entry with this letter (not 0) or long name. */
static bool cli_spelt(const struct cli_cmd *cmd, char letter,
		      const char *name)
{
	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct cli_opt *e = &cmd->opts[i];

		if ((letter && e->letter == letter) ||
		    (name && e->name && strcmp(e->name, name) == 0))
			return true;
	}
	return false;
}

int cli_start_common(struct cli *c, const struct cli_cmd *cmd,
		     const struct cli_opt *common, size_t ncommon, int argc,
		     char **argv)
{
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	if (cmd->nopts + ncommon > CLI_MAX_OPTS) {
		c->cmd = cmd;
		return cli_bad_table(c, NULL);
	}
	for (size_t i = 0; i < cmd->nopts; i++)
		c->all[n++] = cmd->opts[i];
	c->joined = *cmd;
	c->joined.ncommon = 0;
	for (size_t i = 0; i < ncommon; i++) {
		struct cli_opt o = common[i];

		/* the command's own spelling wins; what is left stays */
		if (cli_spelt(cmd, o.letter, NULL))
			o.letter = 0;
		if (cli_spelt(cmd, 0, o.name))
			o.name = NULL;
		if (!o.letter && !o.name)
			continue;
		c->all[n++] = o;
		c->joined.ncommon++;
	}
	c->joined.opts = c->all;
	c->joined.nopts = n;
	return cli_build(c, &c->joined, argc, argv);
}

/* The table entry behind what getopt_long returned, or NULL. */
static const struct cli_opt *cli_entry(const struct cli *c, int ch)
{
	if (ch >= CLI_VAL_BASE && (size_t)(ch - CLI_VAL_BASE) < c->cmd->nopts)
		return &c->cmd->opts[ch - CLI_VAL_BASE];
	for (size_t i = 0; i < c->cmd->nopts; i++)
		if (c->cmd->opts[i].letter && c->cmd->opts[i].letter == ch)
			return &c->cmd->opts[i];
	return NULL;
}

/* Fills names[] with the long names; returns how many. */
static size_t cli_long_names(const struct cli *c, const char **names)
{
	size_t n = 0;

	for (size_t i = 0; i < c->cmd->nopts; i++)
		if (c->cmd->opts[i].name)
			names[n++] = c->cmd->opts[i].name;
	return n;
}

/* "--jsn" given: ambiguous prefix, or the closest name. */
static int cli_unknown_long(struct cli *c, const char *word)
{
	const char *names[CLI_MAX_OPTS];
	size_t n = cli_long_names(c, names), len, hits = 0, off;
	const char *eq = strchr(word, '='), *best;
	char name[64];

	len = eq ? (size_t)(eq - word) : strlen(word);
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, word, len);
	name[len] = '\0';
	for (size_t i = 0; i < n; i++)
		if (strncmp(names[i], name, len) == 0)
			hits++;
	if (len > 0 && hits > 1) {
		off = (size_t)snprintf(c->err, sizeof(c->err),
				       "option '--%s' is ambiguous (could be",
				       name);
		for (size_t i = 0, k = 0; i < n && off < sizeof(c->err); i++) {
			if (strncmp(names[i], name, len) != 0)
				continue;
			off += (size_t)snprintf(c->err + off,
						sizeof(c->err) - off, "%s '--%s'",
						k++ == 0 ? "" : ",", names[i]);
		}
		if (off < sizeof(c->err))
			snprintf(c->err + off, sizeof(c->err) - off, ")");
		return CLI_ERROR;
	}
	best = cli_closest(name, names, n);
	if (best)
		snprintf(c->err, sizeof(c->err),
			 "unknown option '--%s' (did you mean '--%s'?)", name,
			 best);
	else
		snprintf(c->err, sizeof(c->err), "unknown option '--%s'", name);
	return CLI_ERROR;
}

/* An unknown letter; "-json" (one dash) also gets its long name offered. */
static int cli_unknown_short(struct cli *c, int letter)
{
	const char *names[CLI_MAX_OPTS];
	size_t n = cli_long_names(c, names);
	const char *best = NULL;

	for (int i = optind - 1; i <= optind && !best; i++) {
		const char *w;

		if (i < 1 || i >= c->argc)
			continue;
		w = c->argv[i];
		if (w[0] == '-' && w[1] != '-' && strlen(w) > 2 &&
		    strchr(w + 1, letter))
			best = cli_closest(w + 1, names, n);
	}
	if (best)
		snprintf(c->err, sizeof(c->err),
			 "unknown option '-%c' (did you mean '--%s'?)", letter,
			 best);
	else
		snprintf(c->err, sizeof(c->err), "unknown option '-%c'",
			 letter);
	return CLI_ERROR;
}

/* The entry whose unit and range apply to o: o itself, or for an alias
 * that gives none the first entry of its key that does. */
static const struct cli_opt *cli_ranged(const struct cli_cmd *cmd,
                                        const struct cli_opt *o)
{
	if (o->unit != CLI_UNIT_NONE || !o->alias)
		return o;
	for (size_t i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].key == o->key &&
		    cmd->opts[i].unit != CLI_UNIT_NONE)
			return &cmd->opts[i];
	return o;
}

/* One end of a range in its unit's spelling: "10m", "4K", "65535". */
static void cli_fmt_end(enum cli_unit u, long long v, char *buf, size_t len)
{
	if (u == CLI_UNIT_DURATION)
		fmt_duration(v, buf, len);
	else if (u == CLI_UNIT_BYTES)
		fmt_size((unsigned long long)v, buf, len);
	else
		snprintf(buf, len, "%lld", v);
}

/* Parses arg as the numeric option o (its unit and range) into *out.
 * Returns 0, or -1 with the whole message in err: "invalid duration '5x'
 * for --interval: not a number (1ms to 10m)". */
static int cli_parse_num(const struct cli_opt *o, const char *arg,
                         long long *out, char *err, size_t errlen)
{
	static const char *const what[] = {
	    [CLI_UNIT_COUNT] = "number",     [CLI_UNIT_PORT] = "port",
	    [CLI_UNIT_PERCENT] = "percentage", [CLI_UNIT_SECONDS] = "number",
	    [CLI_UNIT_DURATION] = "duration", [CLI_UNIT_BYTES] = "size",
	};
	unsigned long long z;
	const char *why;
	char lo[32], hi[32], name[80];
	int rc;

	switch (o->unit) {
	case CLI_UNIT_DURATION:
		rc = parse_duration_us(arg, o->min, o->max, out, &why);
		break;
	case CLI_UNIT_BYTES:
		rc = parse_size(arg, (unsigned long long)o->min,
				(unsigned long long)o->max, &z, &why);
		*out = (long long)z;
		break;
	case CLI_UNIT_COUNT:
	case CLI_UNIT_PORT:
	case CLI_UNIT_PERCENT:
	case CLI_UNIT_SECONDS:
		rc = parse_num(arg, o->min, o->max, out, &why);
		break;
	default:
		snprintf(err, errlen, "internal error: option table: '%s' "
			 "has no unit", o->name ? o->name : "?");
		return -1;
	}
	if (rc == 0)
		return 0;
	if (o->name)
		snprintf(name, sizeof(name), "--%s", o->name);
	else
		snprintf(name, sizeof(name), "-%c", o->letter);
	cli_fmt_end(o->unit, o->min, lo, sizeof(lo));
	cli_fmt_end(o->unit, o->max, hi, sizeof(hi));
	snprintf(err, errlen, "invalid %s '%s' for %s: %s (%s to %s%s)",
		 what[o->unit], arg, name, why, lo, hi,
		 o->unit == CLI_UNIT_PERCENT   ? "%"
		 : o->unit == CLI_UNIT_SECONDS ? " seconds"
					       : "");
	return -1;
}

static const struct cli_opt *cli_primary(const struct cli_cmd *cmd,
					 const struct cli_opt *alias);

/* One option from getopt_long, as cli_next but destinations unstored. */
static int cli_next_one(struct cli *c)
{
	const struct cli_opt *o;
	int ch;

	c->opt = NULL;
	c->arg = NULL;
	if (c->bad)
		return CLI_ERROR;
	c->err[0] = '\0';
	ch = getopt_long(c->argc, c->argv, c->shortopts, c->longopts, NULL);
	if (ch == -1)
		return CLI_END;
	if (ch == '?') {
		o = optopt ? cli_entry(c, optopt) : NULL;
		if (o && optopt >= CLI_VAL_BASE) {
			snprintf(c->err, sizeof(c->err),
				 "option '--%s' takes no argument", o->name);
			return CLI_ERROR;
		}
		if (optopt)
			return cli_unknown_short(c, optopt);
		return cli_unknown_long(c, c->argv[optind - 1] + 2);
	}
	if (ch == ':') {
		o = cli_entry(c, optopt);
		if (o && optopt >= CLI_VAL_BASE)
			snprintf(c->err, sizeof(c->err),
				 "option '--%s' needs an argument (%s)",
				 o->name, o->meta ? o->meta : "a value");
		else
			snprintf(c->err, sizeof(c->err),
				 "option '-%c' needs an argument (%s)", optopt,
				 o && o->meta ? o->meta : "a value");
		return CLI_ERROR;
	}
	o = cli_entry(c, ch);
	if (!o) {
		snprintf(c->err, sizeof(c->err), "unknown option");
		return CLI_ERROR;
	}
	c->opt = o;
	c->arg = optarg;
	if (o->arg == CLI_OPTIONAL && !optarg && optind < c->argc) {
		const char *w = c->argv[optind];

		if (w[0] != '-' || strcmp(w, "-") == 0) {
			c->arg = w;
			optind++;
		}
	}
	o = cli_ranged(c->cmd, o);
	if (o->unit != CLI_UNIT_NONE && c->arg != NULL &&
	    cli_parse_num(o, c->arg, &c->num, c->err, sizeof(c->err)) < 0)
		return CLI_ERROR;
	return o->key;
}

/* The entry whose destination applies to o: o's own, or for an alias
 * without one its option's. NULL: none, the caller gets the key. */
static const struct cli_opt *cli_dest_of(const struct cli_cmd *cmd,
					 const struct cli_opt *o)
{
	if (o->dest == NULL && o->alias)
		o = cli_primary(cmd, o);
	return o && o->dest ? o : NULL;
}

/* Stores the option cli_next_one returned where its entry d says. */
static void cli_store(const struct cli *c, const struct cli_opt *d)
{
	switch (d->kind) {
	case CLI_KIND_BOOL:
		*(bool *)d->dest = true;
		break;
	case CLI_KIND_COUNT:
		(*(int *)d->dest)++;
		break;
	case CLI_KIND_STR:
		*(const char **)d->dest = c->arg;
		break;
	case CLI_KIND_INT:
		*(int *)d->dest = (int)c->num;
		break;
	case CLI_KIND_UINT:
		*(unsigned *)d->dest = (unsigned)c->num;
		break;
	case CLI_KIND_LLONG:
		*(long long *)d->dest = c->num;
		break;
	case CLI_KIND_NONE:
		break;
	}
}

int cli_next(struct cli *c)
{
	/* each round takes at least one word: argc bounds them */
	for (int i = 0; i <= c->argc; i++) {
		const struct cli_opt *d;
		int k = cli_next_one(c);

		if (k == CLI_END || k == CLI_ERROR)
			return k;
		d = cli_dest_of(c->cmd, c->opt);
		if (d == NULL)
			return k;
		cli_store(c, d);
	}
	return CLI_END;
}

int cli_operands(const struct cli *c, char ***ops)
{
	int first = optind < 1 ? 1 : optind;

	if (first > c->argc)
		first = c->argc;
	*ops = c->argv + first;
	return c->argc - first;
}

/* The entry an alias stands for: the first non-alias with its key. */
static const struct cli_opt *cli_primary(const struct cli_cmd *cmd,
                                         const struct cli_opt *alias)
{
	for (size_t i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].key == alias->key && !cmd->opts[i].alias)
			return &cmd->opts[i];
	return NULL;
}

/* "-t, --timeout=TIME", "    --json [FILE]", "-i TIME" into buf. */
static void cli_spell(const struct cli_opt *o, char *buf, size_t len)
{
	const char *meta = o->meta ? o->meta : "ARG";
	size_t off = 0;

	if (o->letter)
		off = (size_t)snprintf(buf, len, "-%c%s", o->letter,
				       o->name ? ", " : "");
	else
		off = (size_t)snprintf(buf, len, "    ");
	if (off >= len)
		return;
	if (!o->name) {
		if (o->arg != CLI_FLAG)
			snprintf(buf + off, len - off, " %s", meta);
		return;
	}
	if (o->arg == CLI_FLAG)
		snprintf(buf + off, len - off, "--%s", o->name);
	else if (o->arg == CLI_REQUIRED)
		snprintf(buf + off, len - off, "--%s=%s", o->name, meta);
	else
		snprintf(buf + off, len - off, "--%s [%s]", o->name, meta);
}

int cli_help(const struct cli_cmd *cmd, FILE *fp)
{
	char spell[96];

	fprintf(fp, "usage: %s %s\n", cmd->name, cmd->synopsis);
	if (cmd->summary)
		fprintf(fp, "%s\n", cmd->summary);
	if (cmd->nopts)
		fprintf(fp, "\noptions:\n");
	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct cli_opt *o = &cmd->opts[i];
		const struct cli_opt *p = o->alias ? cli_primary(cmd, o) : NULL;
		int w;

		if (cmd->ncommon && i == cmd->nopts - cmd->ncommon)
			fprintf(fp, "\ncommon options:\n");
		cli_spell(o, spell, sizeof(spell));
		w = fprintf(fp, "  %s", spell);
		if (w < 0)
			return -1;
		if (w > CLI_HELP_COL - 2)
			fprintf(fp, "\n%*s", CLI_HELP_COL, "");
		else
			fprintf(fp, "%*s", CLI_HELP_COL - w, "");
		if (p && p->name)
			fprintf(fp, "old spelling of --%s", p->name);
		else if (p)
			fprintf(fp, "old spelling of -%c", p->letter);
		else
			fprintf(fp, "%s", o->help ? o->help : "");
		if (o->def && !p)
			fprintf(fp, " (default: %s)", o->def);
		fputc('\n', fp);
	}
	if (cmd->more)
		fprintf(fp, "\n%s", cmd->more);
	return fflush(fp) == 0 && !ferror(fp) ? 0 : -1;
}

int cli_usage_error(const struct cli_cmd *cmd, FILE *fp, const char *fmt, ...)
{
	va_list ap;

	fprintf(fp, "%s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	fprintf(fp, "\nTry '%s --help' for more information.\n", cmd->name);
	return 2;
}

size_t cli_distance(const char *a, const char *b)
{
	/* optimal string alignment over three rows; names are short */
	size_t la = strlen(a), lb = strlen(b), r0[65], r1[65], r2[65];
	size_t *pp = r0, *p = r1, *cur = r2, *t;

	if (la > 64 || lb > 64)
		return la > lb ? la : lb;
	for (size_t j = 0; j <= lb; j++)
		p[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t v = p[j] + 1;

			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (p[j - 1] + cost < v)
				v = p[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			cur[j] = v;
		}
		t = pp;
		pp = p;
		p = cur;
		cur = t;
	}
	return p[lb];
}

const char *cli_closest(const char *word, const char *const *names,
			size_t n)
{
	size_t len = strlen(word), limit = len / 3, best_d = (size_t)-1;
	const char *best = NULL;

	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	for (size_t i = 0; i < n; i++) {
		size_t d = cli_distance(word, names[i]);

		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	if (best && best_d <= limit)
		return best;
	/* "sc": the one name it begins */
	best = NULL;
	for (size_t i = 0; i < n && len > 0; i++) {
		if (strncmp(names[i], word, len) != 0)
			continue;
		if (best)
			return NULL;
		best = names[i];
	}
	return best;
}

bool cli_color(bool is_tty, const char *no_color)
{
	return is_tty && !(no_color && no_color[0] != '\0');
}
