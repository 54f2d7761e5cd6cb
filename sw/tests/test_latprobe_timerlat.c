/* Unit tests of the timerlat tracer's text parser (sw/probe/latprobe_timerlat.c), on lines as
 * Debian's 6.1 PREEMPT_RT arm64 kernel writes them (instances/.../trace_pipe). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "../probe/latprobe_timerlat.h"

#include "check.h"

int main(void)
{
	struct latprobe_timerlat tl;
	struct latprobe_timerlat_series s[4];

	memset(&tl, 0, sizeof(tl));
	memset(s, 0, sizeof(s));
	tl.s = s;
	tl.ncpus = 2;
	tl.t0_ns = 15000000000u;
	CHECK(!latprobe_timerlat_line(&tl, "           <...>-1       [000] d..h...    15.565313: "
					   "#4     context    irq timer_latency   2819824 ns"));
	CHECK(!latprobe_timerlat_line(&tl, "           <...>-125     [000] .......    15.566032: "
					   "#4     context thread timer_latency   4945744 ns"));
	CHECK(!latprobe_timerlat_line(&tl, "          <idle>-0       [001] dn.h1..    15.633159: "
					   "#2     context    irq timer_latency     65552 ns"));
	CHECK(!latprobe_timerlat_line(&tl, "CPU:1 [LOST 17 EVENTS]"));
	CHECK(!latprobe_timerlat_line(&tl, "# tracer: timerlat"));
	/* a CPU not measured, a context this version does not split (user-return) */
	CHECK(!latprobe_timerlat_line(&tl, "  x-3 [007] ....  15.700000: #1 context irq "
					   "timer_latency 5 ns"));
	CHECK(!latprobe_timerlat_line(&tl, "  x-3 [000] ....  15.700000: #9 context user-ret "
					   "timer_latency 5 ns"));
	CHECK(s[0].n == 1 && s[0].v[0] == 2819824 && s[0].seq[0] == 4);
	CHECK(s[0].t[0] == 565313000); /* µs of the trace clock, since t0 */
	CHECK(s[1].n == 1 && s[1].v[0] == 4945744 && s[1].t[0] == 566032000);
	CHECK(s[2].n == 1 && s[2].v[0] == 65552 && s[2].seq[0] == 2);
	CHECK(s[3].n == 0);
	CHECK(tl.lost == 17 && tl.unparsed == 3);
	for (int i = 0; i < 4; i++) {
		free(s[i].t);
		free(s[i].v);
		free(s[i].seq);
	}
	return check_report("test_latprobe_timerlat");
}
