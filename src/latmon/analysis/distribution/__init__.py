"""The one distribution type (:class:`~latmon.analysis.distribution.counts.Distribution`) and
its parts, one job per module:

- :mod:`.counts` — the type: integer values with their counts, every statistic a method;
- :mod:`.bins` — the vocabulary: bounds on the bins, open-bound sentinels, :class:`~.bins.Bounded`
  order statistics, the finished sorted view;
- :mod:`.dense` — streamed samples counted in dense bins, widened past the bound;
- :mod:`.sparse` — bins from histograms, pooled distributions and values spread too wide;
- :mod:`.histogram` — a producer's histogram as bins by the binned-data convention;
- :mod:`.ranks` — nearest ranks and the ranks of a quantile's confidence interval;
- :mod:`.refine` — exact values at chosen ranks from a second pass over the samples;
- :mod:`.spread` — bounds of the variance of binned values.

**Binned data, one convention.** A value known only to lie in a bin [lo, hi) stands at the bin's
lower edge ``lo`` — the value a truncating tool such as cyclictest wrote (bucket k is k µs) —
raised to the producer's recorded minimum and never above its recorded maximum; every statistic
(order statistics, mean, variance, jitter) uses that one value, and order statistics also carry
the bounds of the true value. An overflow bin (values at or above ``overflow_lo``) and an
underflow bin are *open*: an order statistic that falls into one has no value, only bounds
(``≥ overflow_lo``), and is never reported as the maximum.

Samples spread over more integers than ``max_bins`` are counted in coarser bins (width doubled
until they fit); count, min, max, Σx and Σx² stay exact, and
:meth:`~.counts.Distribution.refine` makes chosen ranks exact again from a second pass over the
data (a run file or a text file can be read again, :mod:`.refine`).

Importers take each name from the module that defines it (``from
latmon.analysis.distribution.counts import Distribution``); this package re-exports nothing.
"""
