"""Derived files of runs: summaries, the comparison, the chart and the HTML report.

All of them are recomputed from ``results.jsonl`` and ``run.json`` alone, so they can be
rebuilt at any time (``cerebellum-gym compare`` does, for any set of run folders).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cerebellum_gym.evaluation.chart import success_chart
from cerebellum_gym.evaluation.report import ReportRun, write_report
from cerebellum_gym.evaluation.results import RESULTS_FILE, ResultsError, read_run, write_json, write_text
from cerebellum_gym.evaluation.summary import agent_label, compare, compare_markdown, summarize, summary_markdown

CHART_FILE: Final = "success_by_family.png"
REPORT_FILE: Final = "report.html"


@dataclass(frozen=True)
class RunOutputs:
    """Paths written for one run."""

    summary_md: Path
    summary_json: Path
    report: Path
    chart: Path | None
    markdown: str


def load_report_run(run_dir: str | os.PathLike[str], label: str | None = None) -> ReportRun:
    """A run folder read back, with its summary computed."""
    folder = Path(run_dir)
    meta, records = read_run(folder)
    return ReportRun(label or agent_label(meta), folder, meta, records, summarize(records, meta))


def finalize_run(run_dir: str | os.PathLike[str], *, wall_s: float | None = None) -> RunOutputs:
    """Write ``summary.md``, ``summary.json``, the chart and ``report.html`` of one run folder."""
    run = load_report_run(run_dir)
    folder = run.run_dir
    markdown = summary_markdown(run.summary, run.meta, wall_s=wall_s)
    write_text(folder / "summary.md", markdown)
    write_json(folder / "summary.json", run.summary)
    chart = success_chart([(run.label, run.meta, run.summary)], folder / CHART_FILE)
    report = write_report(
        [run], folder / REPORT_FILE, title=f"{run.label} on {run.meta.get('suite', '?')}", chart=chart.name if chart else None
    )
    return RunOutputs(folder / "summary.md", folder / "summary.json", report, chart, markdown)


def unique_labels(runs: Sequence[ReportRun]) -> list[str]:
    """Run labels, with the folder name added where two runs share a label."""
    labels = [r.label for r in runs]
    return [f"{label} [{r.run_dir.name}]" if labels.count(label) > 1 else label for label, r in zip(labels, runs, strict=True)]


def write_comparison(run_dirs: Sequence[str | os.PathLike[str]], out_dir: str | os.PathLike[str]) -> tuple[str, dict[str, Any], Path]:
    """Compare runs: ``compare.md``, ``compare.json``, the chart and a combined ``report.html`` in ``out_dir``.

    Returns:
        The Markdown, the comparison data, and the report's path.

    Raises:
        ResultsError: a folder that holds no results.
    """
    if not run_dirs:
        raise ResultsError("compare needs at least one run folder")
    runs = []
    for d in run_dirs:
        if not (Path(d) / RESULTS_FILE).is_file():
            raise ResultsError(f"{d} is not a run folder (no {RESULTS_FILE})")
        runs.append(load_report_run(d))
    labels = unique_labels(runs)
    runs = [ReportRun(label, r.run_dir, r.meta, r.records, r.summary) for label, r in zip(labels, runs, strict=True)]
    comparison = compare([(r.label, r.meta, r.records) for r in runs])
    markdown = compare_markdown(comparison)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_text(out / "compare.md", markdown)
    write_json(out / "compare.json", comparison)
    chart = success_chart([(r.label, r.meta, r.summary) for r in runs], out / CHART_FILE)
    report = write_report(runs, out / REPORT_FILE, title="Comparison: " + " vs ".join(labels), chart=chart.name if chart else None)
    return markdown, comparison, report
