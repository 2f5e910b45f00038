/* XML text escaping shared by every JUnit writer (ncclcheck, report). */
#ifndef NP_XMLESC_H
#define NP_XMLESC_H

#include <stdio.h>

/* Writes s (NULL writes nothing) with XML's five special characters
 * escaped; control characters other than tab and newline become U+FFFD,
 * so the XML stays well formed whatever the text held. */
void xml_escape(FILE *fp, const char *s);

#endif
