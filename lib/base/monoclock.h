/* The one clock of every deadline and duration: CLOCK_MONOTONIC in
 * microseconds, which no date change moves, and the milliseconds left
 * until a deadline in the form poll(2) takes. */
#ifndef NP_MONOCLOCK_H
#define NP_MONOCLOCK_H

/* Microseconds of CLOCK_MONOTONIC (since boot); never fails on Linux. */
long long mono_now_us(void);

/* Milliseconds from now until deadline_us (mono_now_us clock) for poll:
 * rounded up, so a wait never ends just before its deadline; 0 once the
 * deadline passed; at most max_ms. */
int mono_left_ms(long long deadline_us, int max_ms);

#endif
