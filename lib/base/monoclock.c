/* CLOCK_MONOTONIC in microseconds (monoclock.h). */
#include "base/monoclock.h"

#include <time.h>

/* See monoclock.h. */
long long mono_now_us(void)
{
	struct timespec ts;

	/* CLOCK_MONOTONIC cannot fail on Linux: the zero is never read */
	if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return 0;
	return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* See monoclock.h. */
int mono_left_ms(long long deadline_us, int max_ms)
{
	long long d = deadline_us - mono_now_us();

	if (d <= 0)
		return 0;
	d = (d + 999) / 1000;
	return d > max_ms ? max_ms : (int)d;
}
