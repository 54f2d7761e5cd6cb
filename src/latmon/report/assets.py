"""The HTML page's style sheet and the script that draws its figures when they scroll into
view."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure as StaticFigure

CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, sans-serif; margin: 1.2em auto; padding: 0 1.5em;
       max-width: 96em; color: #222; line-height: 1.35; }
h1 { font-size: 1.45em; margin: 0 0 .2em; } h2 { font-size: 1.2em; margin-top: 1.8em; }
h3 { font-size: 1.02em; margin: 1.2em 0 .4em; }
.table-scroll { max-width: 100%; overflow-x: auto; margin: .4em 0 1em; }
table { border-collapse: separate; border-spacing: 0; font-size: .86em; }
th, td { border-bottom: 1px solid #d5d9e0; padding: .22em .6em; text-align: right;
         white-space: nowrap; font-variant-numeric: tabular-nums; }
thead th { background: #eef2f7; border-bottom: 2px solid #b8c2d0; vertical-align: bottom; }
th.l, td.l { text-align: left; }
.key { position: sticky; left: 0; z-index: 1; background: #fff; text-align: left;
       white-space: normal; min-width: 9em; max-width: 22em; overflow-wrap: anywhere;
       box-shadow: 1px 0 0 #d5d9e0; }
thead th.key { background: #eef2f7; z-index: 2; }
tbody th { font-weight: normal; }
tr.damaged > * { background: #fff1e6; }
tr.fail > * { background: #fdecec; }
.meta td, .meta th { white-space: normal; overflow-wrap: anywhere; }
.meta td.l { max-width: 60em; }
.note { color: #555; font-size: .86em; max-width: 75em; }
.bad { color: #a50f15; font-weight: bold; }
.good { color: #1a7f37; font-weight: bold; }
.answer { font-size: 1.08em; margin: .6em 0; }
ul.glance { list-style: none; padding-left: 0; margin: .3em 0 .8em; }
ul.glance li { margin: .2em 0; }
.emulated { background: #fff3cd; border: 1px solid #d39e00; padding: .5em; }
nav { font-size: .88em; margin: .4em 0; } nav a { margin-right: 1em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; padding: .6em;
      font-size: .85em; }
.plot { width: 100%; min-height: 420px; margin: .2em 0; }
.figure h4 { margin: .5em 0 0; font-size: .95em; font-weight: 600; }
.figure { border: 1px solid #e3e7ee; border-radius: 4px; padding: .3em .6em .5em; margin: 1em 0; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(34em, 1fr)); gap: 0 1em; }
details { margin: .4em 0; } summary { cursor: pointer; }
@page { size: A4 landscape; margin: 10mm; }
@media print { .plot { break-inside: avoid; } .figure { break-inside: avoid; }
               body { max-width: none; } .table-scroll { overflow: visible; }
               table { font-size: .72em; } th, td { white-space: normal; } }
"""

#: Renders the figures one after the other once the page is parsed (the first screen's first),
#: yielding between them so the page stays responsive; counts them in ``window.latmonFigures``.
#: Each is drawn with the one template the page carries (``plotly_style.TEMPLATE``).
BOOT_JS = """
(function () {
  var figures = Array.prototype.slice.call(document.querySelectorAll("div.plot[data-spec]"));
  var state = { total: figures.length, rendered: 0, errors: [] };
  var template = JSON.parse(document.getElementById("plotly-template").textContent);
  window.latmonFigures = state;
  function next(i) {
    if (i >= figures.length) {
      document.documentElement.setAttribute("data-figures", "done");
      return;
    }
    var div = figures[i];
    try {
      var spec = JSON.parse(document.getElementById(div.getAttribute("data-spec")).textContent);
      spec.layout.template = template;
      Plotly.newPlot(div, spec.data, spec.layout, spec.config).then(function () {
        state.rendered += 1; setTimeout(function () { next(i + 1); }, 0);
      }, function (error) {
        state.errors.push(String(error)); console.error(error); next(i + 1);
      });
    } catch (error) {
      state.errors.push(String(error)); console.error(error);
      setTimeout(function () { next(i + 1); }, 0);
    }
  }
  if (typeof Plotly === "undefined") { state.errors.push("plotly.js missing"); return; }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { next(0); });
  } else { next(0); }
})();
"""

StaticMaker = Callable[[], "list[tuple[str, StaticFigure]]"]
