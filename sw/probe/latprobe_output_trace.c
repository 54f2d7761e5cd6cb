/* Stages, coverage and spikes in latprobe's output; see latprobe_output_trace.h. */
#include "latprobe_output_trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define WHY_LEN 640

static void i64_text(char *buf, size_t len, int64_t v)
{
	snprintf(buf, len, "%" PRId64, v);
}

unsigned latprobe_trace_series_count(const struct latprobe_thread *threads, unsigned nthreads)
{
	unsigned n = 3 * nthreads; /* cpuN.stages, cpuN.irq, cpuN.thread */

	for (unsigned i = 0; i < nthreads; i++)
		n += threads[i].nspikes;
	return n;
}

static uint64_t kept(const struct latprobe_thread *th)
{
	uint64_t n = 0;

	for (int r = 0; r < LATPROBE_STAGES_NRESULTS; r++)
		n += th->stage_counts[r];
	return n;
}

static int write_stage_series(struct latmon_log_writer *w, unsigned id,
			      const struct latprobe_thread *th)
{
	char name[40], of[32], cpu[16];
	struct latmon_log_kv meta[3];
	struct latmon_log_counter c[LATPROBE_STAGES_NRESULTS + 2];
	int err;

	snprintf(of, sizeof(of), "cpu%u", th->cpu);
	snprintf(name, sizeof(name), "cpu%u.stages", th->cpu);
	snprintf(cpu, sizeof(cpu), "%u", th->cpu);
	meta[0] = (struct latmon_log_kv){ "kind", "stages" };
	meta[1] = (struct latmon_log_kv){ "of", of };
	meta[2] = (struct latmon_log_kv){ "cpu", cpu };
	err = latmon_log_series(w, id, name,
				"t,latency,stage_irq,stage_handler,stage_wakeup,stage_sched,"
				"stage_user,switch_traced",
				meta, 3);
	for (uint64_t k = 0; !err && k < th->nsamples; k++) {
		int64_t values[3 + LATPROBE_NSTAGES] = { th->t[k], th->latency[k] };

		if (!th->stage_result || th->stage_result[k] != LATPROBE_STAGES_OK)
			continue;
		memcpy(&values[2], &th->stages[k * LATPROBE_NSTAGES],
		       sizeof(int64_t) * LATPROBE_NSTAGES);
		values[2 + LATPROBE_NSTAGES] = th->switch_traced[k];
		err = latmon_log_sample(w, id, values, 3 + LATPROBE_NSTAGES);
	}
	for (int r = 0; r < LATPROBE_STAGES_NRESULTS; r++)
		c[r] = (struct latmon_log_counter){ r ? latprobe_stage_result_names[r] : "matched",
						    th->stage_counts[r] };
	c[LATPROBE_STAGES_NRESULTS] =
	    (struct latmon_log_counter){ "switch_untraced", th->switch_untraced };
	c[LATPROBE_STAGES_NRESULTS + 1] =
	    (struct latmon_log_counter){ "switch_untraced_idle", th->switch_untraced_idle };
	return err ? err : latmon_log_counters(w, id, c, LATPROBE_STAGES_NRESULTS + 2);
}

static const char *const component_names[LATPROBE_NCOMPONENTS] = { "irq", "thread" };

uint64_t latprobe_component_values(const struct latprobe_thread *th, enum latprobe_component c,
				   int64_t *t, int64_t *v)
{
	/* irq: expiry to the probe timer's handler (rtla's IRQ latency, taken in its hrtimer
	 * callback); thread: expiry to the switch to the probe (rtla's Thread latency) */
	int last = c == LATPROBE_COMPONENT_IRQ ? LATPROBE_STAGE_HANDLER : LATPROBE_STAGE_SCHED;
	uint64_t n = 0;

	for (uint64_t k = 0; th->stage_result && k < th->nsamples; k++) {
		int64_t sum = 0;

		if (th->stage_result[k] != LATPROBE_STAGES_OK)
			continue;
		for (int st = 0; st <= last; st++)
			sum += th->stages[k * LATPROBE_NSTAGES + (uint64_t)st];
		if (t)
			t[n] = th->t[k];
		v[n++] = sum;
	}
	return n;
}

int latprobe_write_component_values(struct latmon_log_writer *w, unsigned id, unsigned cpu,
				    const char *kind, const char *source, const int64_t *t,
				    const int64_t *v, uint64_t n)
{
	char name[40], of[32], cpus[16];
	struct latmon_log_kv meta[4];
	struct latmon_log_counter cnt[3];
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int err;

	snprintf(of, sizeof(of), "cpu%u", cpu);
	snprintf(name, sizeof(name), "cpu%u.%s", cpu, kind);
	snprintf(cpus, sizeof(cpus), "%u", cpu);
	meta[0] = (struct latmon_log_kv){ "kind", kind };
	meta[1] = (struct latmon_log_kv){ "of", of };
	meta[2] = (struct latmon_log_kv){ "cpu", cpus };
	meta[3] = (struct latmon_log_kv){ "from", source };
	err = latmon_log_series(w, id, name, "t,latency", meta, 4);
	for (uint64_t k = 0; !err && k < n; k++) {
		int64_t values[2] = { t[k], v[k] };

		lo = v[k] < lo ? v[k] : lo;
		hi = v[k] > hi ? v[k] : hi;
		err = latmon_log_sample(w, id, values, 2);
	}
	cnt[0] = (struct latmon_log_counter){ "events", n };
	cnt[1] = (struct latmon_log_counter){ "min", (uint64_t)(n && lo > 0 ? lo : 0) };
	cnt[2] = (struct latmon_log_counter){ "max", (uint64_t)(n && hi > 0 ? hi : 0) };
	return err ? err : latmon_log_counters(w, id, cnt, n ? 3 : 1);
}

static int write_component_series(struct latmon_log_writer *w, unsigned id,
				  const struct latprobe_thread *th, enum latprobe_component c)
{
	int64_t *t, *v;
	uint64_t n;
	int err;

	t = malloc((th->nsamples ? th->nsamples : 1) * sizeof(*t));
	v = malloc((th->nsamples ? th->nsamples : 1) * sizeof(*v));
	if (!t || !v) {
		free(t);
		free(v);
		return ENOMEM;
	}
	n = latprobe_component_values(th, c, t, v);
	err =
	    latprobe_write_component_values(w, id, th->cpu, component_names[c], "stages", t, v, n);
	free(t);
	free(v);
	return err;
}

/* One explained spike: its explanation in the C record, a row per contributor. */
static int write_spike_series(struct latmon_log_writer *w, unsigned id,
			      const struct latprobe_thread *th, unsigned rank)
{
	const struct latprobe_explanation *x = &th->spikes[rank];
	char name[48], of[32], cpu[16], rk[16], t[24], lat[24], running[24], stages[5][24];
	char who[LATPROBE_CONTRIB_MAX][LATPROBE_NAME_LEN], whokey[LATPROBE_CONTRIB_MAX][8];
	char why[WHY_LEN], switched[4], idle[16], steal[2][24];
	struct latmon_log_kv meta[19 + LATPROBE_NSTAGES + LATPROBE_CONTRIB_MAX];
	struct latmon_log_counter c[3];
	size_t n = 0;
	int err;

	snprintf(name, sizeof(name), "cpu%u.spike.%u", th->cpu, rank + 1);
	snprintf(of, sizeof(of), "cpu%u", th->cpu);
	snprintf(cpu, sizeof(cpu), "%u", th->cpu);
	snprintf(rk, sizeof(rk), "%u", rank + 1);
	i64_text(t, sizeof(t), x->t);
	i64_text(lat, sizeof(lat), x->latency);
	latprobe_explain_text(x, why, sizeof(why));
	meta[n++] = (struct latmon_log_kv){ "kind", "spike" };
	meta[n++] = (struct latmon_log_kv){ "of", of };
	meta[n++] = (struct latmon_log_kv){ "cpu", cpu };
	meta[n++] = (struct latmon_log_kv){ "rank", rk };
	meta[n++] = (struct latmon_log_kv){ "t", t };
	meta[n++] = (struct latmon_log_kv){ "latency", lat };
	meta[n++] = (struct latmon_log_kv){ "cause", latprobe_cause_names[x->cause] };
	meta[n++] =
	    (struct latmon_log_kv){ "class", latprobe_cause_class((enum latprobe_cause)x->cause) };
	meta[n++] = (struct latmon_log_kv){ "why", why };
	meta[n++] =
	    (struct latmon_log_kv){ "stage_result", latprobe_stage_result_names[x->stage_result] };
	if (x->stage_result == LATPROBE_STAGES_OK) {
		for (int s = 0; s < LATPROBE_NSTAGES; s++) {
			static const char *const keys[LATPROBE_NSTAGES] = {
				"stage_irq",   "stage_handler", "stage_wakeup",
				"stage_sched", "stage_user",
			};

			i64_text(stages[s], sizeof(stages[s]), x->match.stages[s]);
			meta[n++] = (struct latmon_log_kv){ keys[s], stages[s] };
		}
		snprintf(switched, sizeof(switched), "%d", x->match.switch_traced ? 1 : 0);
		meta[n++] = (struct latmon_log_kv){ "switch_traced", switched };
	}
	if (x->running_at_expiry >= 0) {
		i64_text(running, sizeof(running), x->running_at_expiry);
		meta[n++] = (struct latmon_log_kv){ "running", running };
	}
	if (x->window_cut)
		meta[n++] = (struct latmon_log_kv){ "window_cut", "1" };
	if (x->idle_state >= 0) {
		snprintf(idle, sizeof(idle), "%" PRId32, x->idle_state);
		meta[n++] = (struct latmon_log_kv){ "idle_state", idle };
	}
	if (x->steal_window_ns) {
		snprintf(steal[0], sizeof(steal[0]), "%" PRIu64, x->steal_ns);
		snprintf(steal[1], sizeof(steal[1]), "%" PRIu64, x->steal_window_ns);
		meta[n++] = (struct latmon_log_kv){ "steal_ns", steal[0] };
		meta[n++] = (struct latmon_log_kv){ "steal_window_ns", steal[1] };
	}
	for (unsigned k = 0; k < x->ncontrib; k++) {
		snprintf(whokey[k], sizeof(whokey[k]), "who%u", k);
		snprintf(who[k], sizeof(who[k]), "%s",
			 x->contrib[k].name[0] ? x->contrib[k].name : "?");
		meta[n++] = (struct latmon_log_kv){ whokey[k], who[k] };
	}
	err = latmon_log_series(w, id, name, "latency,stage,holder,id,prio,first", meta, n);
	for (unsigned k = 0; !err && k < x->ncontrib; k++) {
		const struct latprobe_contribution *ct = &x->contrib[k];
		int64_t values[6] = { (int64_t)ct->ns,	ct->stage, ct->holder,
				      (int64_t)ct->key, ct->prio,  ct->first };

		err = latmon_log_sample(w, id, values, 6);
	}
	c[0] = (struct latmon_log_counter){ "other_ns", x->other_ns };
	c[1] = (struct latmon_log_counter){ "events", x->nevents };
	c[2] = (struct latmon_log_counter){ "silence_ns", x->silence_ns };
	return err ? err : latmon_log_counters(w, id, c, 3);
}

int latprobe_write_trace_series(struct latmon_log_writer *w, unsigned first_id,
				const struct latprobe_thread *threads, unsigned nthreads)
{
	unsigned id = first_id;
	int err = 0;

	for (unsigned i = 0; !err && i < nthreads; i++)
		err = write_stage_series(w, id++, &threads[i]);
	for (unsigned i = 0; !err && i < nthreads; i++) {
		err = write_component_series(w, id++, &threads[i], LATPROBE_COMPONENT_IRQ);
		if (!err)
			err =
			    write_component_series(w, id++, &threads[i], LATPROBE_COMPONENT_THREAD);
	}
	for (unsigned i = 0; !err && i < nthreads; i++) {
		if (threads[i].spikes_above) {
			/* how many were above --explain, also those not explained */
			struct latmon_log_counter c = { "spikes_above", threads[i].spikes_above };

			err = latmon_log_counters(w, first_id + i, &c, 1);
		}
		for (unsigned k = 0; !err && k < threads[i].nspikes; k++)
			err = write_spike_series(w, id++, &threads[i], k);
	}
	return err;
}

void latprobe_json_string(FILE *out, const char *text)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void json_spike(FILE *out, const struct latprobe_explanation *x, unsigned rank)
{
	char why[WHY_LEN], prio[24];

	latprobe_explain_text(x, why, sizeof(why));
	fprintf(out,
		"{\"rank\": %u, \"t\": %" PRId64 ", \"latency\": %" PRId64
		", \"cause\": \"%s\", \"class\": \"%s\", \"why\": ",
		rank + 1, x->t, x->latency, latprobe_cause_names[x->cause],
		latprobe_cause_class((enum latprobe_cause)x->cause));
	latprobe_json_string(out, why);
	fprintf(out, ", \"stage_result\": \"%s\"", latprobe_stage_result_names[x->stage_result]);
	if (x->stage_result == LATPROBE_STAGES_OK) {
		fputs(", \"stages\": {", out);
		for (int s = 0; s < LATPROBE_NSTAGES; s++)
			fprintf(out, "%s\"%s\": %" PRId64, s ? ", " : "", latprobe_stage_names[s],
				x->match.stages[s]);
		fprintf(out, "}, \"switch_traced\": %s", x->match.switch_traced ? "true" : "false");
	}
	if (x->running_at_expiry >= 0)
		fprintf(out, ", \"running_at_expiry\": %" PRId32, x->running_at_expiry);
	if (x->idle_state >= 0) {
		fprintf(out, ", \"idle_state\": %" PRId32 ", \"idle_state_name\": ", x->idle_state);
		latprobe_json_string(out, x->idle_name);
	}
	if (x->steal_window_ns)
		fprintf(out, ", \"steal_ns\": %" PRIu64 ", \"steal_window_ns\": %" PRIu64,
			x->steal_ns, x->steal_window_ns);
	fprintf(out,
		", \"events\": %" PRIu32 ", \"silence_ns\": %" PRIu64 ", \"silence_at\": %" PRId64
		", \"window_cut\": %s, \"other_ns\": %" PRIu64 ", \"contributors\": [",
		x->nevents, x->silence_ns, x->silence_at, x->window_cut ? "true" : "false",
		x->other_ns);
	for (unsigned k = 0; k < x->ncontrib; k++) {
		const struct latprobe_contribution *c = &x->contrib[k];

		fprintf(out, "%s{\"stage\": \"%s\", \"holder\": \"%s\", \"name\": ", k ? ", " : "",
			c->stage < LATPROBE_NSTAGES ? latprobe_stage_names[c->stage] : "unstaged",
			latprobe_holder_names[c->holder]);
		latprobe_json_string(out, c->name);
		/* signed, as in the latmon-log (a callback's address is negative) */
		fprintf(out, ", \"id\": %" PRId64, (int64_t)c->key);
		if (c->holder == LATPROBE_HELD_TASK) {
			static const char *const from[] = { "none", "switch_in", "switch_away",
							    "latest" };

			latprobe_prio_text(c->prio, prio, sizeof(prio));
			fprintf(out, ", \"prio\": \"%s\", \"prio_seen\": \"%s\"", prio,
				c->prio_from < 4 ? from[c->prio_from] : "none");
		}
		fprintf(out, ", \"first\": %" PRId64 ", \"ns\": %" PRIu64 "}", c->first, c->ns);
	}
	fputs("]}", out);
}

/* Exact percentiles of the values (nearest rank, as latmon stats). */
static void json_component(FILE *out, const struct latprobe_thread *th, enum latprobe_component c)
{
	static const struct {
		double q;
		const char *key;
	} qs[] = { { 0.5, "p50" }, { 0.9, "p90" }, { 0.99, "p99" }, { 0.999, "p99_9" } };
	int64_t *v = malloc((th->nsamples ? th->nsamples : 1) * sizeof(*v));
	uint64_t n;

	fprintf(out, ", \"%s\": {", component_names[c]);
	if (!v) {
		fputs("\"error\": \"out of memory\"}", out);
		return;
	}
	n = latprobe_component_values(th, c, NULL, v);
	fprintf(out, "\"n\": %" PRIu64, n);
	if (n) {
		latprobe_sort(v, n);
		fprintf(out, ", \"min\": %" PRId64, v[0]);
		for (size_t q = 0; q < sizeof(qs) / sizeof(qs[0]); q++) {
			int64_t x = 0;

			latprobe_quantile_sorted(v, n, qs[q].q, &x);
			fprintf(out, ", \"%s\": %" PRId64, qs[q].key, x);
		}
		fprintf(out, ", \"max\": %" PRId64, v[n - 1]);
	}
	fputc('}', out);
	free(v);
}

void latprobe_write_trace_json(FILE *out, const struct latprobe_thread *th)
{
	uint64_t total = kept(th);

	json_component(out, th, LATPROBE_COMPONENT_IRQ);
	json_component(out, th, LATPROBE_COMPONENT_THREAD);
	fprintf(out,
		", \"stages\": {\"decomposed\": %" PRIu64 ", \"kept\": %" PRIu64
		", \"coverage\": %.6f, \"switch_untraced\": %" PRIu64
		", \"switch_untraced_idle\": %" PRIu64 ", \"not_decomposed\": {",
		th->stage_counts[LATPROBE_STAGES_OK], total,
		total ? (double)th->stage_counts[LATPROBE_STAGES_OK] / (double)total : 0.0,
		th->switch_untraced, th->switch_untraced_idle);
	for (int r = 1; r < LATPROBE_STAGES_NRESULTS; r++)
		fprintf(out, "%s\"%s\": %" PRIu64, r > 1 ? ", " : "",
			latprobe_stage_result_names[r], th->stage_counts[r]);
	fprintf(out, "}}, \"spikes_above\": %" PRIu64 ", \"spikes\": [", th->spikes_above);
	for (unsigned k = 0; k < th->nspikes; k++) {
		if (k)
			fputs(", ", out);
		json_spike(out, &th->spikes[k], k);
	}
	fputc(']', out);
}

void latprobe_write_trace_summary(FILE *out, const struct latprobe_thread *threads,
				  unsigned nthreads)
{
	for (unsigned i = 0; i < nthreads; i++) {
		const struct latprobe_thread *th = &threads[i];
		uint64_t total = kept(th), ok = th->stage_counts[LATPROBE_STAGES_OK];

		fprintf(out,
			"latprobe: cpu%-3u stages: %" PRIu64 " of %" PRIu64 " wake-ups decomposed "
			"(%.2f %%)",
			th->cpu, ok, total, total ? 100.0 * (double)ok / (double)total : 0.0);
		if (th->switch_untraced)
			fprintf(out,
				"; the kernel did not trace the switch to the probe in %" PRIu64
				" (%" PRIu64 " from the idle task): their sched stage ends at the "
				"return from clock_nanosleep",
				th->switch_untraced, th->switch_untraced_idle);
		fputc('\n', out);
		for (int c = 0; c < LATPROBE_NCOMPONENTS; c++) {
			int64_t *v = malloc((th->nsamples ? th->nsamples : 1) * sizeof(*v));
			int64_t p50 = 0, p99 = 0;
			uint64_t n;

			if (!v)
				break;
			n = latprobe_component_values(th, (enum latprobe_component)c, NULL, v);
			if (n) {
				latprobe_sort(v, n);
				latprobe_quantile_sorted(v, n, 0.5, &p50);
				latprobe_quantile_sorted(v, n, 0.99, &p99);
				fprintf(out,
					"latprobe: cpu%-3u %-6s latency: p50 %" PRId64
					" ns, p99 %" PRId64 " ns, max %" PRId64 " ns (%" PRIu64
					" decomposed wake-ups)\n",
					th->cpu, component_names[c], p50, p99, v[n - 1], n);
			}
			free(v);
		}
		if (th->nspikes) {
			char why[WHY_LEN];

			latprobe_explain_text(&th->spikes[0], why, sizeof(why));
			fprintf(out, "latprobe: cpu%-3u worst at t=%.6f s: %s\n", th->cpu,
				(double)th->spikes[0].t / 1e9, why);
		}
	}
}
