/* XML text escaping for the JUnit writers. */
#include "base/xmlesc.h"

void xml_escape(FILE *fp, const char *s)
{
	for (; s != NULL && *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&#39;", fp);
			break;
		default:
			if (c < 0x20 && c != '\n' && c != '\t')
				fputs("\xef\xbf\xbd", fp);
			else
				fputc(c, fp);
		}
	}
}
