"""A static HTML report: headline figures per run, the chart, and every episode step by step.

One self-contained HTML file (no server, no network: the data is embedded as JSON and the
script is inline) that references the recorded screens (``frames/``) by relative path. Episodes
can be filtered by agent, family and outcome, and stepped through with buttons or the arrow
keys: each step shows the screen the agent saw (with the set-of-mark overlay, at the width of
the agent's screenshots, with a zoom), the compact tree it read there, the action it took and
the progress after it. Which episodes have screens is decided by the run's ``--screens``
(:mod:`cerebellum_gym.evaluation.frames`): by default every one that did not succeed.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cerebellum_gym.evaluation.frames import read_frame_set
from cerebellum_gym.evaluation.results import write_text
from cerebellum_gym.evaluation.summary import fmt_seconds, fmt_success, is_partial


@dataclass(frozen=True)
class ReportRun:
    """One run in a report."""

    label: str
    run_dir: Path
    meta: Mapping[str, Any]
    records: Sequence[Mapping[str, Any]]
    summary: Mapping[str, Any]


def outcome(record: Mapping[str, Any]) -> str:
    """``success``, ``partial``, ``failure``, ``infra_skip``, ``error`` or ``unavailable``."""
    if record["status"] != "ok":
        return str(record["status"])
    if record["success"]:
        return "success"
    return "partial" if is_partial(record) else "failure"


def write_report(
    runs: Sequence[ReportRun], path: str | os.PathLike[str], *, title: str = "cerebellum-gym evaluation", chart: str | None = None
) -> Path:
    """Write the HTML report for ``runs`` to ``path`` (frame paths made relative to it)."""
    out = Path(path)
    base = out.parent.resolve()
    episodes: list[dict[str, Any]] = []
    for index, run in enumerate(runs):
        prefix = os.path.relpath(run.run_dir.resolve(), base)
        for r in run.records:
            frame_set = read_frame_set(run.run_dir, r) or {}
            frames = [None if f is None else _url(prefix, f) for f in frame_set.get("frames", [])]
            episodes.append(
                {
                    "run": index,
                    "case": r["case"],
                    "task": r["task"],
                    "family": r.get("family", ""),
                    "app": r.get("app", ""),
                    "seed": r.get("seed"),
                    "outcome": outcome(r),
                    "progress": r["progress"],
                    "return": r["return"],
                    "steps": r["steps"],
                    "goal": r.get("goal", ""),
                    "actions": r.get("actions", []),
                    "rewards": r.get("rewards", []),
                    "trace": r.get("progress_trace", []),
                    "frames": frames,
                    "trees": frame_set.get("trees", []),
                    "note": frame_set.get("note", ""),
                    "error": r.get("error", ""),
                    "infra_errors": r.get("infra_errors", []),
                    "attempts": r.get("attempts", 1),
                }
            )
    data = {"runs": [{"label": run.label, "privileged": bool(run.meta.get("privileged"))} for run in runs], "episodes": episodes}
    # ASCII with \\u escapes: any text an agent produced (lone surrogates included) embeds safely.
    payload = json.dumps(data, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/")
    body = _PAGE.replace("__TITLE__", html.escape(title)).replace("__SUMMARY__", _summary_html(runs, chart)).replace("__DATA__", payload)
    write_text(out, body)
    return out


def _url(prefix: str, frame: str) -> str:
    joined = frame if prefix in ("", ".") else f"{prefix}/{frame}"
    return joined.replace(os.sep, "/")


def _summary_html(runs: Sequence[ReportRun], chart: str | None) -> str:
    head = "<tr><th>Agent</th><th>Suite</th><th>Success</th><th>Mean return</th><th>Partial</th><th>Infra skips</th><th>Errors</th>"
    head += "<th>Avg steps</th><th>Latency p50 / max</th></tr>"
    rows = []
    for run in runs:
        o = run.summary["overall"]
        lat = o["latency_s"]
        # The label already says "(privileged)" where it applies (summary.agent_label).
        label = html.escape(run.label)
        if run.meta.get("privileged"):
            label = f'<span title="reads the scripted oracle: an upper bound">{label}</span>'
        cells = [
            label,
            html.escape(str(run.meta.get("suite", ""))),
            fmt_success(o),
            f"{o['mean_return']:.4f}",
            str(o["partial"]),
            str(o["infra_skips"]),
            str(o["errors"]),
            f"{o['avg_steps']:.1f}",
            f"{fmt_seconds(lat['p50'])} / {fmt_seconds(lat['max'])}",
        ]
        rows.append('<tr data-testid="summary-row">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    parts = [f'<table class="summary">{head}{"".join(rows)}</table>']
    if any(run.meta.get("privileged") for run in runs):
        parts.append(
            '<p class="note">Privileged agents read the tasks\' scripted oracle: their figures are an upper bound, not a baseline.</p>'
        )
    for run in runs:  # the replay audit of a recorded run (eval --record)
        audit = _read_audit(run.run_dir)
        if audit:
            parts.append(f'<p class="note" data-testid="audit">{html.escape(run.label)}: {html.escape(audit)}</p>')
    if chart:
        # Shown at its own pixel size: the PNG is drawn to be read at that size (chart.py).
        parts.append(f'<img class="chart" data-testid="chart" src="{html.escape(chart)}" alt="success per family per agent">')
    return "\n".join(parts)


def _read_audit(run_dir: Path) -> str:
    try:
        return str(json.loads((run_dir / "audit.json").read_text()).get("headline", ""))
    except (OSError, ValueError):
        return ""


_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d232b; background: #f6f7f9; }
header { padding: 12px 20px; background: #fff; border-bottom: 1px solid #dde1e6; }
h1 { font-size: 18px; margin: 0 0 8px; }
h2 { font-size: 16px; margin: 0 0 4px; }
table.summary { border-collapse: collapse; margin: 6px 0; }
table.summary th, table.summary td { border: 1px solid #dde1e6; padding: 3px 8px; text-align: left; }
table.summary th { background: #eef1f4; }
.note { color: #5b6570; margin: 4px 0; }
img.chart { max-width: 100%; height: auto; display: block; margin-top: 8px; }
main { display: flex; gap: 16px; padding: 12px 20px; align-items: flex-start; }
#list-pane { width: 400px; flex: none; }
.filters { display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 6px; }
.filters label { font-size: 12px; color: #5b6570; display: flex; flex-direction: column; }
#episodes { list-style: none; margin: 0; padding: 0; max-height: 80vh; overflow-y: auto; background: #fff; border: 1px solid #dde1e6; }
#episodes li { padding: 5px 8px; border-bottom: 1px solid #eef1f4; cursor: pointer;
  display: flex; justify-content: space-between; gap: 6px; }
#episodes li:hover { background: #f0f4ff; }
#episodes li.selected { background: #dfe8ff; }
.badge { font-size: 11px; border-radius: 3px; padding: 1px 5px; color: #fff; white-space: nowrap; }
.success { background: #1f8a4c; } .partial { background: #c98a00; } .failure { background: #b3261e; }
.infra_skip { background: #6b6f76; } .error { background: #7a2ea0; } .unavailable { background: #b8bcc4; }
.cam { font-size: 11px; color: #34568b; }
#viewer { flex: 1; min-width: 0; background: #fff; border: 1px solid #dde1e6; padding: 12px; min-height: 300px; }
#viewer .screen { display: flex; gap: 16px; align-items: flex-start; }
.frame-box { flex: none; overflow: auto; max-height: 85vh; border: 1px solid #c9ced4; background: #eee; }
#frame { display: block; cursor: zoom-in; }
#frame.zoom-2 { cursor: zoom-out; }
#no-frame { width: 464px; max-width: 100%; height: 140px; border: 1px dashed #c9ced4; color: #5b6570; display: flex;
  align-items: center; justify-content: center; text-align: center; font-size: 13px; padding: 0 12px; box-sizing: border-box; }
.side { flex: 1; min-width: 260px; display: flex; flex-direction: column; gap: 8px; }
.controls { display: flex; gap: 6px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
.controls button { padding: 3px 10px; }
.controls .zoom { margin-left: 12px; }
.controls .zoom button.on { background: #34568b; color: #fff; border-color: #34568b; }
.step-action { font-family: ui-monospace, monospace; font-size: 14px; background: #eef3ff; padding: 4px 8px;
  border-left: 3px solid #34568b; }
.panel-title { font-size: 12px; color: #5b6570; margin: 0; }
#tree { font-family: ui-monospace, monospace; font-size: 12.5px; line-height: 1.35; background: #fafbfc; border: 1px solid #dde1e6;
  padding: 6px 8px; margin: 0; max-height: 50vh; overflow: auto; white-space: pre; }
#actions { list-style: none; padding: 0; margin: 0; font-family: ui-monospace, monospace; font-size: 13px;
  max-height: 30vh; overflow: auto; }
#actions li { padding: 2px 6px; border-left: 3px solid transparent; cursor: pointer; white-space: pre-wrap; word-break: break-all; }
#actions li.current { border-left-color: #34568b; background: #eef3ff; }
.meta { color: #5b6570; font-size: 12px; }
.err { color: #7a2ea0; white-space: pre-wrap; font-size: 12px; }
</style>
</head>
<body>
<header>
<h1>__TITLE__</h1>
__SUMMARY__
</header>
<main>
<section id="list-pane">
  <div class="filters">
    <label>Agent <select id="filter-run" data-testid="filter-run"></select></label>
    <label>Family <select id="filter-family" data-testid="filter-family"></select></label>
    <label>Outcome <select id="filter-outcome" data-testid="filter-outcome"></select></label>
  </div>
  <div class="meta" id="count" data-testid="count"></div>
  <ul id="episodes" data-testid="episodes"></ul>
</section>
<section id="viewer" data-testid="viewer">
  <p class="meta">Pick an episode.</p>
</section>
</main>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const state = { shown: [], episode: null, step: 0, zoom: "1" };
const el = (tag, attrs, text) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
};
function fillSelect(id, values, labels) {
  const select = document.getElementById(id);
  select.appendChild(el("option", { value: "" }, "all"));
  values.forEach((v, i) => select.appendChild(el("option", { value: String(v) }, labels ? labels[i] : String(v))));
  select.addEventListener("change", render);
}
function uniq(xs) { return [...new Set(xs)].sort(); }
// Run labels already say "(privileged)" where it applies.
fillSelect("filter-run", DATA.runs.map((_, i) => i), DATA.runs.map(r => r.label));
fillSelect("filter-family", uniq(DATA.episodes.map(e => e.family)));
const OUTCOMES = ["success", "partial", "failure", "infra_skip", "error", "unavailable"];
fillSelect("filter-outcome", OUTCOMES.filter(o => DATA.episodes.some(e => e.outcome === o)));
const hasScreens = e => e.frames.some(f => f);

function render() {
  const run = document.getElementById("filter-run").value;
  const family = document.getElementById("filter-family").value;
  const outcome = document.getElementById("filter-outcome").value;
  state.shown = DATA.episodes.filter(e => (run === "" || String(e.run) === run)
    && (family === "" || e.family === family) && (outcome === "" || e.outcome === outcome));
  const list = document.getElementById("episodes");
  list.replaceChildren();
  state.shown.forEach((e, i) => {
    const li = el("li", { "data-testid": "episode-row", "data-case": e.case, "data-family": e.family,
                          "data-outcome": e.outcome, "data-index": String(i) });
    const left = el("span", {}, `${e.case}`);
    if (DATA.runs.length > 1) left.appendChild(el("span", { class: "meta" }, ` · ${DATA.runs[e.run].label}`));
    const right = el("span", {});
    if (hasScreens(e)) right.appendChild(el("span", { class: "cam", title: "screens recorded" }, "▣ "));
    right.appendChild(el("span", { class: "meta" }, `${e.steps} step${e.steps === 1 ? "" : "s"} · ${Number(e.progress).toFixed(2)} `));
    right.appendChild(el("span", { class: "badge " + e.outcome }, e.outcome.replace("_", " ")));
    li.append(left, right);
    if (e === state.episode) li.classList.add("selected");
    li.addEventListener("click", () => select(e));
    list.appendChild(li);
  });
  document.getElementById("count").textContent = `showing ${state.shown.length} of ${DATA.episodes.length} episodes`;
  if (state.episode && !state.shown.includes(state.episode)) { state.episode = null; drawViewer(); }
}
function select(e) {
  state.episode = e; state.step = 0;
  document.querySelectorAll("#episodes li").forEach(li => li.classList.toggle("selected", state.shown[Number(li.dataset.index)] === e));
  drawViewer();
}
function go(step) {
  const e = state.episode;
  if (!e) return;
  state.step = Math.max(0, Math.min(e.steps, step));
  drawViewer();
}
function setZoom(z) { state.zoom = z; drawViewer(); }
function sizeFrame(img) {
  // "1": the pixels the agent's screenshots have; "2": twice that; "fit": the window's height.
  if (state.zoom === "fit") { img.style.width = "auto"; img.style.maxHeight = "82vh"; return; }
  img.style.maxHeight = "none";
  const apply = () => { img.style.width = (img.naturalWidth * Number(state.zoom)) + "px"; };
  if (img.complete && img.naturalWidth) apply(); else img.addEventListener("load", apply, { once: true });
}
function drawViewer() {
  const v = document.getElementById("viewer");
  v.replaceChildren();
  const e = state.episode;
  if (!e) { v.appendChild(el("p", { class: "meta" }, "Pick an episode.")); return; }
  const k = state.step;
  v.appendChild(el("h2", { "data-testid": "episode-title" }, `${e.case}`));
  const facts = [DATA.runs[e.run].label, `task ${e.task}`, `family ${e.family}`, `app ${e.app}`, `seed ${e.seed}`,
                 e.outcome.replace("_", " "), `return ${Number(e.return).toFixed(3)}`, `attempts ${e.attempts}`];
  v.appendChild(el("div", { class: "meta" }, facts.join(" · ")));
  v.appendChild(el("p", { "data-testid": "goal" }, "Goal: " + e.goal));
  if (e.error) v.appendChild(el("div", { class: "err" }, "Error: " + e.error));
  if (e.infra_errors.length) v.appendChild(el("div", { class: "err" }, "Infra faults: " + e.infra_errors.join(" | ")));
  if (e.note) v.appendChild(el("div", { class: "err", "data-testid": "frames-note" }, e.note));
  const controls = el("div", { class: "controls" });
  const button = (id, text, onclick) => {
    const b = el("button", { id, "data-testid": id }, text);
    b.addEventListener("click", onclick);
    return b;
  };
  const label = el("span", { id: "step-label", "data-testid": "step-label" }, `step ${k} / ${e.steps}`);
  controls.append(button("first", "« first", () => go(0)), button("prev", "◀ prev", () => go(k - 1)), label,
                  button("next", "next ▶", () => go(k + 1)), button("last", "last »", () => go(e.steps)));
  const zoom = el("span", { class: "zoom meta" }, "zoom ");
  for (const [z, text] of [["fit", "fit"], ["1", "1×"], ["2", "2×"]]) {
    const b = button("zoom-" + z, text, () => setZoom(z));
    if (state.zoom === z) b.classList.add("on");
    zoom.appendChild(b);
  }
  controls.appendChild(zoom);
  v.appendChild(controls);
  const screen = el("div", { class: "screen" });
  const src = e.frames[k];
  if (src) {
    const box = el("div", { class: "frame-box" });
    const img = el("img", { id: "frame", "data-testid": "frame", src, alt: `screen before action ${k + 1}`,
                            class: "zoom-" + state.zoom, title: "click to zoom" });
    img.addEventListener("click", () => setZoom(state.zoom === "2" ? "1" : "2"));
    sizeFrame(img);
    box.appendChild(img);
    screen.appendChild(box);
  } else {
    const why = e.frames.length ? "no screen for this step"
      : "no screens recorded for this episode: by default they are kept for every episode that did not succeed "
        + "and twenty that did (all of them in a run of 30 cases or fewer); --screens all keeps every one";
    screen.appendChild(el("div", { id: "no-frame", "data-testid": "no-frame" }, why));
  }
  const side = el("div", { class: "side" });
  const progress = k === 0 ? "start" : Number(e.trace[k - 1] ?? 0).toFixed(3);
  const action = k < e.actions.length ? e.actions[k] : null;
  side.appendChild(el("div", { class: "step-action", "data-testid": "next-action" },
                      action !== null ? `action ${k + 1}: ${action}` : "episode over"));
  side.appendChild(el("div", { class: "meta", "data-testid": "step-progress" }, `progress after step ${k}: ${progress}`));
  if (e.trees.length) {
    side.appendChild(el("p", { class: "panel-title" }, `screen ${k}: the compact tree the agent read`));
    const tree = e.trees[k];
    side.appendChild(el("pre", { id: "tree", "data-testid": "tree" }, tree == null ? "(no tree for this step)" : tree));
  }
  side.appendChild(el("p", { class: "panel-title" }, "actions (click one to go to its step)"));
  const list = el("ol", { id: "actions", "data-testid": "actions" });
  e.actions.forEach((a, i) => {
    const r = e.rewards[i];
    const li = el("li", { "data-step": String(i) }, `${i + 1}. ${a}` + (r ? `  (${r > 0 ? "+" : ""}${Number(r).toFixed(3)})` : ""));
    if (i === k) li.classList.add("current");
    li.addEventListener("click", () => go(i));
    list.appendChild(li);
  });
  side.appendChild(list);
  screen.appendChild(side);
  v.appendChild(screen);
}
document.addEventListener("keydown", ev => {
  if (ev.target.tagName === "SELECT") return;
  if (ev.key === "ArrowRight") go(state.step + 1);
  if (ev.key === "ArrowLeft") go(state.step - 1);
});
render();
const first = state.shown.find(hasScreens) || state.shown[0];
if (first) select(first);
</script>
</body>
</html>
"""
