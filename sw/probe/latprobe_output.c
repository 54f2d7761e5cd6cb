/* latprobe output; see latprobe_output.h. */
#define _GNU_SOURCE
#include "latprobe_output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "latmon/latmon_log.h"
#include "latprobe_action.h"

#include <time.h>

#ifndef LATMON_VERSION
#define LATMON_VERSION "0.1.0"
#endif

static int file_sink(void *ctx, const char *data, size_t len)
{
	return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : EIO;
}

static void u64_text(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%" PRIu64, v);
}

static const struct {
	double q;
	const char *key;
} quantiles[] = {
	{ 0.5, "p50" },
	{ 0.9, "p90" },
	{ 0.99, "p99" },
	{ 0.999, "p99_9" },
};

#define NQUANTILES (sizeof(quantiles) / sizeof(quantiles[0]))

int latprobe_write_log(FILE *out, const struct latprobe_params *params,
		       const struct latprobe_run_info *info, struct latprobe_thread *threads,
		       unsigned nthreads)
{
	char interval[24], elapsed[24], priority[24], bin[24], max_samples[24], dma[24], t0[24];
	char trace[5][24], brk[4][24], dl[3][24], warm[24], idle[48], thr[8][24];
	char hk[512];
	struct latmon_log_kv header[64];
	unsigned nseries =
	    nthreads + (info->stages ? latprobe_trace_series_count(threads, nthreads) : 0);
	size_t nheader = 0;
	struct latmon_log_writer *w = NULL;
	void *mem;
	int err;

	mem = aligned_alloc(alignof(max_align_t),
			    (latmon_log_writer_size(nseries) + alignof(max_align_t) - 1) /
				alignof(max_align_t) * alignof(max_align_t));
	if (!mem)
		return ENOMEM;
	err = latmon_log_writer_init(&w, mem, latmon_log_writer_size(nseries), nseries, file_sink,
				     out);
	if (err)
		goto cleanup;

	u64_text(interval, sizeof(interval), params->interval_ns);
	u64_text(elapsed, sizeof(elapsed), info->elapsed_ns);
	u64_text(priority, sizeof(priority), (uint64_t)params->priority);
	u64_text(bin, sizeof(bin), params->hist_bin_ns);
	u64_text(max_samples, sizeof(max_samples), params->max_samples);
	header[nheader++] = (struct latmon_log_kv){ "source", "latprobe" };
	header[nheader++] = (struct latmon_log_kv){ "tool_version", LATMON_VERSION };
	header[nheader++] = (struct latmon_log_kv){ "unit", "ns" };
	header[nheader++] = (struct latmon_log_kv){ "resolution", "1" };
	header[nheader++] = (struct latmon_log_kv){ "host", info->host };
	header[nheader++] = (struct latmon_log_kv){ "start", info->start_utc };
	header[nheader++] = (struct latmon_log_kv){ "kernel", info->kernel };
	if (params->scenario)
		header[nheader++] = (struct latmon_log_kv){ "scenario", params->scenario };
	header[nheader++] = (struct latmon_log_kv){ "cmdline", info->cmdline };
	header[nheader++] = (struct latmon_log_kv){ "interval_ns", interval };
	header[nheader++] =
	    (struct latmon_log_kv){ "policy", latprobe_policy_name(params->policy) };
	header[nheader++] = (struct latmon_log_kv){ "priority", priority };
	if (params->policy == LATPROBE_POLICY_DEADLINE) {
		u64_text(dl[0], sizeof(dl[0]), params->dl_runtime_ns);
		u64_text(dl[1], sizeof(dl[1]), params->dl_deadline_ns);
		u64_text(dl[2], sizeof(dl[2]), params->dl_period_ns);
		header[nheader++] = (struct latmon_log_kv){ "dl_runtime_ns", dl[0] };
		header[nheader++] = (struct latmon_log_kv){ "dl_deadline_ns", dl[1] };
		header[nheader++] = (struct latmon_log_kv){ "dl_period_ns", dl[2] };
	}
	header[nheader++] =
	    (struct latmon_log_kv){ "clock",
				    params->clock == CLOCK_REALTIME ? "realtime" : "monotonic" };
	header[nheader++] =
	    (struct latmon_log_kv){ "timer", params->posix_timers ? "posix" : "nanosleep" };
	header[nheader++] =
	    (struct latmon_log_kv){ "timer_mode", params->relative ? "relative" : "absolute" };
	if (params->warmup_ns) {
		u64_text(warm, sizeof(warm), params->warmup_ns);
		header[nheader++] = (struct latmon_log_kv){ "warmup_ns", warm };
	}
	if (params->nhk_cpus) {
		size_t used = 0;

		hk[0] = '\0';
		for (unsigned i = 0; i < params->nhk_cpus && used + 12 < sizeof(hk); i++)
			used += (size_t)snprintf(hk + used, sizeof(hk) - used, "%s%u", i ? "," : "",
						 params->hk_cpus[i]);
		header[nheader++] = (struct latmon_log_kv){ "housekeeping", hk };
	}
	if (params->deepest_idle != LATPROBE_IDLE_UNTOUCHED) {
		snprintf(idle, sizeof(idle), "%d", params->deepest_idle);
		header[nheader++] = (struct latmon_log_kv){ "deepest_idle_state", idle };
	}
	header[nheader++] = (struct latmon_log_kv){ "mlock", params->mlock ? "1" : "0" };
	header[nheader++] =
	    (struct latmon_log_kv){ "wakeups", params->aligned ? "aligned" : "spread" };
	if (info->dma_latency_us >= 0) {
		u64_text(dma, sizeof(dma), (uint64_t)info->dma_latency_us);
		header[nheader++] = (struct latmon_log_kv){ "dma_latency_us", dma };
	} else {
		header[nheader++] = (struct latmon_log_kv){ "dma_latency_us", "none" };
		if (info->dma_note && *info->dma_note)
			header[nheader++] =
			    (struct latmon_log_kv){ "dma_latency_note", info->dma_note };
	}
	header[nheader++] = (struct latmon_log_kv){ "elapsed_ns", elapsed };
	u64_text(t0, sizeof(t0), info->t0_mono_ns);
	header[nheader++] = (struct latmon_log_kv){ "t0_mono_ns", t0 };
	header[nheader++] = (struct latmon_log_kv){ "interrupted", info->interrupted ? "1" : "0" };
	if (info->stages) {
		u64_text(trace[0], sizeof(trace[0]), info->trace_events);
		u64_text(trace[1], sizeof(trace[1]), info->trace_overrun);
		u64_text(trace[2], sizeof(trace[2]), info->trace_lost_pages);
		u64_text(trace[3], sizeof(trace[3]), info->trace_window_dropped);
		u64_text(trace[4], sizeof(trace[4]), info->trace_bad_pages);
		header[nheader++] =
		    (struct latmon_log_kv){ "stages", "irq,handler,wakeup,sched,user" };
		header[nheader++] = (struct latmon_log_kv){ "trace_events", trace[0] };
		if (info->trace_irq_event)
			header[nheader++] =
			    (struct latmon_log_kv){ "trace_irq_event", info->trace_irq_event };
		header[nheader++] = (struct latmon_log_kv){ "trace_overrun", trace[1] };
		header[nheader++] = (struct latmon_log_kv){ "trace_lost_pages", trace[2] };
		header[nheader++] = (struct latmon_log_kv){ "trace_window_dropped", trace[3] };
		header[nheader++] = (struct latmon_log_kv){ "trace_bad_pages", trace[4] };
		if (info->trace_used && *info->trace_used)
			header[nheader++] =
			    (struct latmon_log_kv){ "trace_used", info->trace_used };
		if (info->trace_missing && *info->trace_missing)
			header[nheader++] =
			    (struct latmon_log_kv){ "trace_missing", info->trace_missing };
		if (params->explain_ns) {
			u64_text(brk[3], sizeof(brk[3]), params->explain_ns);
			header[nheader++] = (struct latmon_log_kv){ "explain_ns", brk[3] };
		}
	}
	if (info->broke) {
		u64_text(brk[0], sizeof(brk[0]), info->break_cpu);
		u64_text(brk[1], sizeof(brk[1]), info->break_t);
		u64_text(brk[2], sizeof(brk[2]), info->break_latency);
		header[nheader++] = (struct latmon_log_kv){ "break_cpu", brk[0] };
		header[nheader++] = (struct latmon_log_kv){ "break_t", brk[1] };
		header[nheader++] = (struct latmon_log_kv){ "break_latency", brk[2] };
		if (info->break_trace)
			header[nheader++] =
			    (struct latmon_log_kv){ "break_trace", info->break_trace };
	}
	if (info->actions && params->threshold_ns) {
		const struct latprobe_actions *a = info->actions;

		u64_text(thr[0], sizeof(thr[0]), params->threshold_ns);
		u64_text(thr[1], sizeof(thr[1]), a->events);
		u64_text(thr[2], sizeof(thr[2]), atomic_load(&a->thr.above));
		u64_text(thr[3], sizeof(thr[3]), a->traces_saved);
		u64_text(thr[4], sizeof(thr[4]), a->signals_sent);
		u64_text(thr[5], sizeof(thr[5]), a->shells_ok);
		u64_text(thr[6], sizeof(thr[6]), a->action_errors);
		header[nheader++] = (struct latmon_log_kv){ "threshold_ns", thr[0] };
		header[nheader++] = (struct latmon_log_kv){ "threshold_events", thr[1] };
		header[nheader++] = (struct latmon_log_kv){ "threshold_samples", thr[2] };
		header[nheader++] = (struct latmon_log_kv){ "threshold_traces", thr[3] };
		header[nheader++] = (struct latmon_log_kv){ "threshold_signals", thr[4] };
		header[nheader++] = (struct latmon_log_kv){ "threshold_shells_ok", thr[5] };
		header[nheader++] = (struct latmon_log_kv){ "threshold_action_errors", thr[6] };
	}
	err = latmon_log_begin(w, header, nheader);

	for (unsigned i = 0; !err && i < nthreads; i++) {
		char name[32], cpu[16];
		struct latmon_log_kv meta[3];

		snprintf(name, sizeof(name), "cpu%u", threads[i].cpu);
		snprintf(cpu, sizeof(cpu), "%u", threads[i].cpu);
		meta[0] = (struct latmon_log_kv){ "cpu", cpu };
		meta[1] = (struct latmon_log_kv){ "hist_bin_ns", bin };
		meta[2] = (struct latmon_log_kv){ "max_samples", max_samples };
		err = latmon_log_series(w, i, name, "t,latency", meta, 3);
	}
	if (info->stages)
		err = err ? err : latprobe_write_trace_series(w, nthreads, threads, nthreads);
	for (unsigned i = 0; !err && i < nthreads; i++) {
		const struct latprobe_thread *th = &threads[i];

		for (uint64_t k = 0; !err && k < th->nsamples; k++) {
			int64_t values[2] = { th->t[k], th->latency[k] };

			err = latmon_log_sample(w, i, values, 2);
		}
	}
	for (unsigned i = 0; !err && i < nthreads; i++) {
		const struct latprobe_hist *h = &threads[i].hist;

		for (uint64_t k = 0; !err && k < h->nbins; k++) {
			int64_t lo = (int64_t)(k * h->bin_ns), hi = (int64_t)((k + 1) * h->bin_ns);

			if (h->counts[k])
				err = latmon_log_bin(w, i, &lo, &hi, h->counts[k]);
		}
		if (!err && h->overflow) {
			int64_t lo = (int64_t)(h->nbins * h->bin_ns);

			err = latmon_log_bin(w, i, &lo, NULL, h->overflow);
		}
	}
	for (unsigned i = 0; !err && i < nthreads; i++) {
		const struct latprobe_thread *th = &threads[i];
		struct latmon_log_counter counters[7];
		size_t n = 0;

		counters[n++] = (struct latmon_log_counter){ "events", th->events };
		counters[n++] = (struct latmon_log_counter){ "missed", th->missed };
		if (params->warmup_ns)
			counters[n++] = (struct latmon_log_counter){ "warmup", th->warmup };
		if (th->hist.count) {
			counters[n++] = (struct latmon_log_counter){ "min", th->hist.min };
			counters[n++] = (struct latmon_log_counter){ "max", th->hist.max };
			if (!th->hist.sum_saturated)
				counters[n++] = (struct latmon_log_counter){ "sum", th->hist.sum };
		}
		err = latmon_log_counters(w, i, counters, n);
	}
	if (!err)
		err = latmon_log_end(w);
	if (!err && fflush(out))
		err = errno ? errno : EIO;
cleanup:
	free(mem);
	return err;
}

/* Percentiles of one thread: exact from the samples when every event was kept. */
static bool thread_quantiles(struct latprobe_thread *th, uint64_t *values)
{
	bool exact = th->nsamples == th->events && th->nsamples > 0;

	if (exact)
		latprobe_sort(th->latency, th->nsamples);
	for (size_t q = 0; q < NQUANTILES; q++) {
		if (exact) {
			int64_t v = 0;

			latprobe_quantile_sorted(th->latency, th->nsamples, quantiles[q].q, &v);
			values[q] = (uint64_t)v;
		} else if (latprobe_hist_quantile(&th->hist, quantiles[q].q, &values[q])) {
			values[q] = 0;
		}
	}
	return exact;
}

int latprobe_write_json(FILE *out, const struct latprobe_params *params,
			const struct latprobe_run_info *info, struct latprobe_thread *threads,
			unsigned nthreads)
{
	fprintf(out,
		"{\"source\": \"latprobe\", \"tool_version\": \"%s\", \"unit\": \"ns\", "
		"\"interval_ns\": %" PRIu64 ", \"policy\": \"%s\", \"priority\": %d, "
		"\"mlock\": %s, \"wakeups\": \"%s\", ",
		LATMON_VERSION, params->interval_ns, latprobe_policy_name(params->policy),
		params->priority, params->mlock ? "true" : "false",
		params->aligned ? "aligned" : "spread");
	if (params->policy == LATPROBE_POLICY_DEADLINE)
		fprintf(out,
			"\"deadline\": {\"runtime_ns\": %" PRIu64 ", \"deadline_ns\": %" PRIu64
			", \"period_ns\": %" PRIu64 "}, ",
			params->dl_runtime_ns, params->dl_deadline_ns, params->dl_period_ns);
	fprintf(out, "\"clock\": \"%s\", \"timer\": \"%s\", \"timer_mode\": \"%s\", ",
		params->clock == CLOCK_REALTIME ? "realtime" : "monotonic",
		params->posix_timers ? "posix" : "nanosleep",
		params->relative ? "relative" : "absolute");
	fprintf(out, "\"warmup_ns\": %" PRIu64 ", ", params->warmup_ns);
	fputs("\"housekeeping\": [", out);
	for (unsigned i = 0; i < params->nhk_cpus; i++)
		fprintf(out, "%s%u", i ? ", " : "", params->hk_cpus[i]);
	fputs("], ", out);
	if (params->deepest_idle != LATPROBE_IDLE_UNTOUCHED)
		fprintf(out, "\"deepest_idle_state\": %d, \"idle_states_disabled\": %zu, ",
			params->deepest_idle, info->idle_disabled);
	if (info->actions && params->threshold_ns) {
		const struct latprobe_actions *a = info->actions;

		fprintf(out,
			"\"threshold\": {\"threshold_ns\": %" PRIu64 ", \"events\": %" PRIu64
			", \"samples_above\": %" PRIu64 ", \"traces_saved\": %" PRIu64
			", \"signals_sent\": %" PRIu64 ", \"shells_ok\": %" PRIu64
			", \"shells_failed\": %" PRIu64 ", \"shells_killed\": %" PRIu64
			", \"action_errors\": %" PRIu64 ", \"first_trace\": ",
			params->threshold_ns, a->events, atomic_load(&a->thr.above),
			a->traces_saved, a->signals_sent, a->shells_ok, a->shells_failed,
			a->shells_killed, a->action_errors);
		if (a->traces_saved)
			latprobe_json_string(out, a->first_trace);
		else
			fputs("null", out);
		if (a->events)
			fprintf(out,
				", \"first_event\": {\"cpu\": %u, \"t\": %" PRIu64
				", \"latency\": %" PRIu64 "}",
				a->first_cpu, a->first_t, a->first_latency);
		fputs("}, ", out);
	}
	if (info->dma_latency_us >= 0) {
		fprintf(out, "\"dma_latency_us\": %d, ", info->dma_latency_us);
	} else {
		fputs("\"dma_latency_us\": null, \"dma_latency_note\": ", out);
		latprobe_json_string(out, info->dma_note ? info->dma_note : "");
		fputs(", ", out);
	}
	if (info->stages) {
		fputs("\"trace\": {\"irq_event\": ", out);
		latprobe_json_string(out, info->trace_irq_event ? info->trace_irq_event : "");
		fputs(", \"used\": ", out);
		latprobe_json_string(out, info->trace_used ? info->trace_used : "");
		fputs(", \"missing\": ", out);
		latprobe_json_string(out, info->trace_missing ? info->trace_missing : "");
		fprintf(out,
			", \"events\": %" PRIu64 ", \"overrun\": %" PRIu64
			", \"lost_pages\": %" PRIu64 ", \"window_dropped\": %" PRIu64 "}, ",
			info->trace_events, info->trace_overrun, info->trace_lost_pages,
			info->trace_window_dropped);
	}
	if (info->broke) {
		fprintf(out,
			"\"break\": {\"cpu\": %u, \"t\": %" PRIu64 ", \"latency\": %" PRIu64
			", \"threshold\": %" PRIu64 ", \"trace\": ",
			info->break_cpu, info->break_t, info->break_latency, info->break_threshold);
		if (info->break_trace)
			latprobe_json_string(out, info->break_trace);
		else
			fputs("null", out);
		fputs("}, ", out);
	}
	fprintf(out,
		"\"t0_mono_ns\": %" PRIu64 ", \"elapsed_ns\": %" PRIu64
		", \"interrupted\": %s, \"cpus\": [",
		info->t0_mono_ns, info->elapsed_ns, info->interrupted ? "true" : "false");
	for (unsigned i = 0; i < nthreads; i++) {
		struct latprobe_thread *th = &threads[i];
		uint64_t values[NQUANTILES];
		bool exact;

		fprintf(out,
			"%s{\"cpu\": %u, \"events\": %" PRIu64 ", \"missed\": %" PRIu64
			", \"warmup\": %" PRIu64 ", \"samples_kept\": %" PRIu64,
			i ? ", " : "", th->cpu, th->events, th->missed, th->warmup, th->nsamples);
		if (th->hist.count) {
			exact = thread_quantiles(th, values);
			fprintf(out, ", \"min\": %" PRIu64 ", \"max\": %" PRIu64 ", \"mean\": %.3f",
				th->hist.min, th->hist.max,
				(double)th->hist.sum / (double)th->hist.count);
			for (size_t q = 0; q < NQUANTILES; q++)
				fprintf(out, ", \"%s\": %" PRIu64, quantiles[q].key, values[q]);
			fprintf(out, ", \"percentiles_from\": \"%s\"",
				exact ? "samples" : "histogram");
			if (!exact)
				fprintf(out, ", \"histogram_bin_ns\": %" PRIu64, th->hist.bin_ns);
		}
		if (info->stages)
			latprobe_write_trace_json(out, th);
		fputc('}', out);
	}
	fputs("]}\n", out);
	if (fflush(out) || ferror(out))
		return EIO;
	return 0;
}

void latprobe_write_summary(FILE *out, struct latprobe_thread *threads, unsigned nthreads)
{
	bool any_hist = false;

	fprintf(out, "latprobe: %-6s %10s %8s %10s %10s %10s %10s %10s (ns)\n", "cpu", "events",
		"missed", "min", "mean", "p50", "p99", "max");
	for (unsigned i = 0; i < nthreads; i++) {
		struct latprobe_thread *th = &threads[i];
		uint64_t values[NQUANTILES];
		bool exact;

		if (th->hist.count == 0) {
			fprintf(out,
				"latprobe: cpu%-3u %10" PRIu64 " %8" PRIu64 "  (no wake-ups)\n",
				th->cpu, th->events, th->missed);
			continue;
		}
		/* the same figures as the JSON and as latmon stats on the log */
		exact = thread_quantiles(th, values);
		any_hist |= !exact;
		fprintf(out,
			"latprobe: cpu%-3u %10" PRIu64 " %8" PRIu64 " %10" PRIu64
			" %10.0f %10" PRIu64 "%s %10" PRIu64 "%s %10" PRIu64 "\n",
			th->cpu, th->events, th->missed, th->hist.min,
			(double)th->hist.sum / (double)th->hist.count, values[0], exact ? "" : "*",
			values[2], exact ? "" : "*", th->hist.max);
		if (th->warmup)
			fprintf(out, "latprobe: cpu%-3u %" PRIu64 " warm-up wake-ups not counted\n",
				th->cpu, th->warmup);
	}
	if (any_hist)
		fprintf(out,
			"latprobe: * the upper edge of a histogram bin (%" PRIu64
			" ns wide): not every sample was kept (--max-samples)\n",
			threads[0].hist.bin_ns);
}

void latprobe_write_snapshot(FILE *out, const struct latprobe_thread *threads, unsigned nthreads,
			     uint64_t elapsed_ns)
{
	fprintf(out, "latprobe: snapshot at %.3f s (percentiles: histogram bin edges)\n",
		(double)elapsed_ns / 1e9);
	fprintf(out, "latprobe: %-6s %10s %8s %10s %10s %10s %10s (ns)\n", "cpu", "events",
		"missed", "min", "p50", "p99", "max");
	for (unsigned i = 0; i < nthreads; i++) {
		const struct latprobe_thread *th = &threads[i];
		struct latprobe_hist h = th->hist; /* read as it runs */
		uint64_t p50 = 0, p99 = 0;

		if (h.count == 0) {
			fprintf(out,
				"latprobe: cpu%-3u %10" PRIu64 " %8" PRIu64 "  (no wake-ups)\n",
				th->cpu, th->events, th->missed);
			continue;
		}
		latprobe_hist_quantile(&h, 0.5, &p50);
		latprobe_hist_quantile(&h, 0.99, &p99);
		fprintf(out,
			"latprobe: cpu%-3u %10" PRIu64 " %8" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %10" PRIu64 " %10" PRIu64 "\n",
			th->cpu, th->events, th->missed, h.min, p50, p99, h.max);
	}
	fflush(out);
}
