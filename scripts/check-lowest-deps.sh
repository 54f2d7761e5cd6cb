#!/usr/bin/env bash
# Check pyproject.toml's dependency ranges from below: install latmon with the LOWEST versions of
# its direct dependencies the ranges allow (uv's --resolution lowest-direct) into a scratch
# environment and run the host package's tests there. Not part of make test (minutes, and a
# second copy of numpy, scipy, pyarrow...); run it after changing a lower bound.
#   scripts/check-lowest-deps.sh            (needs network access to PyPI)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$here/build/lowest-deps
py=${PYTHON:-python3}
rm -rf "$work/env" && mkdir -p "$work"
[ -x "$work/uv/bin/uv" ] || { "$py" -m venv "$work/uv" && "$work/uv/bin/pip" install -q uv; }
export UV_CACHE_DIR=$work/cache VIRTUAL_ENV=$work/env
"$work/uv/bin/uv" venv -q -p "$py" "$work/env"
# the test tools at the lock's versions; latmon's own dependencies at their lower bounds
pins=$(grep -E '^(pytest|pytest-xdist|hypothesis)==' "$here/requirements.lock")
# shellcheck disable=SC2086
timeout 900 "$work/uv/bin/uv" pip install -q --resolution lowest-direct "$here" $pins
echo "lowest versions installed:"
"$work/uv/bin/uv" pip list 2>/dev/null | grep -iE '^(numpy|pyarrow|matplotlib|scipy|click|pyyaml|hdrhistogram|plotly|statsmodels|duckdb) '
cd "$here"
PATH=$work/env/bin:$PATH timeout 1800 "$work/env/bin/python" -m pytest -q -p no:cacheprovider -n 2 \
  tests/test_stats.py tests/test_distribution.py tests/test_exact.py tests/test_cli_analysis.py \
  tests/test_tail.py tests/test_query.py tests/test_runfile.py tests/test_ingest.py \
  tests/test_reader_plain.py tests/test_reader_cyclictest.py tests/test_reader_hdr_log.py \
  tests/test_reader_ila_csv.py tests/test_reader_jitterdebugger.py \
  tests/test_reader_rtla_timerlat_hist.py tests/test_interactive.py tests/test_plots.py \
  tests/test_compare.py tests/test_tables.py tests/test_textscan.py tests/test_textparse_fallback.py \
  tests/test_cli.py tests/test_tail_interactive.py tests/test_tail_plots.py tests/test_tail_report.py \
  tests/test_tail_tables.py tests/test_plan.py tests/test_output.py tests/test_measure.py \
  tests/test_configurations.py tests/test_cli_errors.py tests/test_cli_tail.py \
  tests/test_cli_consistency.py
