/* netprobe report: one walk, several emitters. report_walk visits the
 * model's sections in one order and calls an emitter's callbacks; the
 * text, Markdown and HTML renderers are emitters that differ only in how
 * each section is written. A callback left NULL writes nothing. */
#ifndef NP_REPORT_EMIT_H
#define NP_REPORT_EMIT_H

#include "report_model.h"

/* What a format writes for each part of the report. o is the renderer's
 * own state, which starts with its struct out, so a callback may hand o
 * straight to out_f (and the walk writes opens and closes to its fp).
 * Items are objects of the report document (man/netprobe-json.5 names
 * their keys). */
struct report_emitter {
	/* The fixed text that starts and ends a section, indexed by
	 * section (NULL: none); the walk writes opens[sec] after begin and
	 * closes[sec] before end. */
	const char *const *opens;
	const char *const *closes;
	/* A section starts or ends: what depends on the model (the verdict,
	 * a count in a heading) or on the format's state. */
	void (*begin)(void *o, enum rsec sec);
	void (*end)(void *o, enum rsec sec);
	/* RSEC_CAUSE, inside RSEC_CAUSES: the cause (its summary, evidence
	 * and fix text); its fix's commands follow, one RSEC_COMMANDS each,
	 * then RSEC_SYMPTOMS with the findings it owns. */
	void (*cause)(void *o, const struct rm_cause *k);
	/* RSEC_COMMANDS, of a cause's fix or of a firewall entry: each
	 * dialect's block ("shell", "nftables", "iptables-legacy", "ufw",
	 * "firewalld", then "on NODE" blocks) starts with its name, except
	 * "shell", then the section with one call per command line. */
	void (*dialect)(void *o, const char *dialect);
	void (*command)(void *o, const char *line);
	/* RSEC_SYMPTOMS: a finding the cause explains (the cause carries
	 * the fix) */
	void (*symptom)(void *o, const json_t *f);
	/* RSEC_OUTAGES, RSEC_FAULTS, RSEC_WARNINGS: a finding with its fix */
	void (*finding)(void *o, const json_t *f);
	void (*conflict)(void *o, const json_t *c); /* RSEC_CONFLICTS */
	/* RSEC_RECOMMENDATION, in this order */
	void (*note)(void *o, const char *note);
	void (*interfaces)(void *o, const struct report_model *m);
	void (*settings)(void *o, const struct rm_settings *s);
	void (*conf_line)(void *o, const json_t *line); /* RSEC_NCCL_CONF */
	/* ports to open on a node; its RSEC_COMMANDS follow */
	void (*firewall)(void *o, const json_t *entry);
	void (*change)(void *o, const json_t *c); /* RSEC_CHANGES */
	void (*mtu)(void *o, const json_t *mtu);  /* RSEC_MTU */
	/* RSEC_DETAILS, in this order */
	void (*node)(void *o, const json_t *n); /* RSEC_NODES */
	void (*mesh)(void *o, const json_t *mesh); /* RSEC_MESH: the whole */
	void (*matrix)(void *o, const struct rm_matrix *mx);
	void (*heartbeat)(void *o, const struct rm_heartbeat *h);
	void (*nccl)(void *o, const struct rm_nccl *run);
	void (*skipped)(void *o, const struct rm_skip *s); /* RSEC_SKIPPED */
};

/* Walks the whole report through the emitter, then flushes fp. Returns 0,
 * or -1 when writing failed. */
int report_walk(const struct report_model *m, const struct report_emitter *e,
		void *o, FILE *fp);

/* Writing document text safely (render_out.c). */

/* Where an emitter writes, and how document text is escaped for it. */
struct out {
	FILE *fp;
	void (*esc)(FILE *fp, const char *s); /* %s */
	void (*alt)(FILE *fp, const char *s); /* %-s */
};

/* printf, but a %s argument is written through o->esc and a %-s one
 * through o->alt (the format's second kind of text: code in Markdown,
 * trusted markup elsewhere); both write nothing for NULL. Handles the
 * conversions s, d and u (with l, ll or z) and f (with a precision .N
 * or .*), and %%. */
void out_f(const struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Writes s as it is; NULL writes nothing. */
void out_raw(FILE *fp, const char *s);

/* A port entry's port: a number, or a range string through esc or alt. */
void out_port(const struct out *o, const json_t *port, bool alt);

/* Each citation of a cites array as "node:code" (or "code"), with ", "
 * between them and each between pre and post (written as they are); node
 * and code through o->alt when alt, else through o->esc. */
void out_cites(const struct out *o, const json_t *arr, const char *pre,
	       const char *post, bool alt);

void html_nodes(const struct out *o, const json_t *nodes);
void html_matrix(const struct out *o, const struct rm_matrix *mx);
void html_mesh(const struct out *o, const json_t *mesh);
void html_nccl(const struct out *o, const struct rm_nccl *r);

/* An ncclcheck run's hardware and pairs (render_nccl_hw.c): text lines
 * each led by `lead`, or HTML tables with the pair matrix as a grid. */
void text_nccl_hw(const struct out *o, const json_t *run, const char *lead);
void html_nccl_hw(const struct out *o, const json_t *run);

/* SVG charts for the HTML report (render_svg.c). */
void svg_histogram(const struct out *o, const struct rm_heartbeat *h);
void svg_bandwidth(const struct out *o, const struct rm_series *s);

#endif
