"""Figures from results: what published tables report, overall, per family and per app.

Definitions (the docs repeat them, and the tests recompute them from the JSONL):

- **N** counts the cases that ran: every record except infra skips, which published tables
  list apart (``Infra skips``). ``success_rate_all`` divides by every case instead.
- **Success x/N**: records with ``success`` true.
- **Mean return**: mean episode return (sum of step rewards = progress gained, plus any
  invalid-action penalties) over the N cases. **Mean progress**: mean final progress.
- **Partial**: cases that ran, did not succeed, and ended with progress above 0 (a judge with
  partial credit gave some).
- **Average steps**: mean steps over the N cases.
- **Errors**: cases whose env or task crashed (counted in N, as failures).
- **Agent latency**: over every decision of the N cases, the time the env waited for its action
  (for a batched agent: the batch's time); p50, mean and max.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def group_metrics(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The figures of one group of records (see the module docstring)."""
    ran = [r for r in records if r["status"] != "infra_skip"]
    n = len(ran)
    solved = sum(1 for r in ran if r["success"])
    steps = sum(int(r["steps"]) for r in ran)
    invalid = sum(int(r.get("invalid_actions", 0)) for r in ran)
    return {
        "cases": len(records),
        "n": n,
        "solved": solved,
        "success_rate": solved / n if n else 0.0,
        "success_rate_all": solved / len(records) if records else 0.0,
        "mean_return": _mean(float(r["return"]) for r in ran),
        "mean_progress": _mean(float(r["progress"]) for r in ran),
        "partial": sum(1 for r in ran if not r["success"] and float(r["progress"]) > 0.0),
        "avg_steps": steps / n if n else 0.0,
        "infra_skips": len(records) - n,
        "errors": sum(1 for r in ran if r["status"] == "error"),
        "invalid_actions": invalid,
        "invalid_rate": invalid / steps if steps else 0.0,
    }


def latency_metrics(records: Iterable[Mapping[str, Any]]) -> dict[str, float | int]:
    """Agent latency over every decision of the records that ran: p50, mean, max (seconds)."""
    values = [float(v) for r in records if r["status"] != "infra_skip" for v in r.get("latency_s", [])]
    if not values:
        return {"decisions": 0, "p50": 0.0, "mean": 0.0, "max": 0.0}
    return {"decisions": len(values), "p50": statistics.median(values), "mean": statistics.fmean(values), "max": max(values)}


def summarize(records: Sequence[Mapping[str, Any]], meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The whole summary: run metadata, overall figures with latency, per family, per app."""
    meta = dict(meta or {})
    overall = group_metrics(records)
    overall["latency_s"] = latency_metrics(records)
    return {
        "run": {
            k: meta.get(k)
            for k in (
                "agent",
                "agent_name",
                "privileged",
                "suite",
                "suite_digest",
                "env",
                "seed",
                "num_envs",
                "max_retries",
                "started_at",
                "version",
            )
        },
        "expected_cases": meta.get("cases", len(records)),
        "overall": overall,
        "by_family": {key: group_metrics(group) for key, group in _groups(records, "family").items()},
        "by_app": {key: group_metrics(group) for key, group in _groups(records, "app").items()},
    }


def _groups(records: Sequence[Mapping[str, Any]], key: str) -> dict[str, list[Mapping[str, Any]]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for r in records:
        groups.setdefault(str(r.get(key) or "?"), []).append(r)
    return dict(sorted(groups.items()))


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return math.fsum(items) / len(items) if items else 0.0


# --- formatting ------------------------------------------------------------------------------


def agent_label(meta: Mapping[str, Any]) -> str:
    """The agent's name for tables, marked when privileged (its results are an upper bound)."""
    name = str(meta.get("agent_name") or meta.get("agent") or "agent")
    if meta.get("privileged") and "privileged" not in name:
        name += " (privileged)"
    return name


def fmt_success(m: Mapping[str, Any]) -> str:
    """``x/N = p%`` as model cards print it."""
    return f"{m['solved']}/{m['n']} = {100 * m['success_rate']:.1f}%"


def fmt_seconds(seconds: float) -> str:
    """A duration with a unit that keeps three digits or so."""
    if seconds >= 1.0:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def group_table(groups: Mapping[str, Mapping[str, Any]], title: str) -> str:
    """A Markdown table of per-group figures."""
    rows = [
        (name, fmt_success(m), f"{m['mean_return']:.3f}", m["partial"], f"{m['avg_steps']:.1f}", m["infra_skips"], m["errors"])
        for name, m in groups.items()
    ]
    return _table((title, "Success", "Mean return", "Partial", "Avg steps", "Infra skips", "Errors"), rows)


def summary_markdown(summary: Mapping[str, Any], meta: Mapping[str, Any], *, wall_s: float | None = None) -> str:
    """The summary as Markdown: the headline table, then per family and per app."""
    o = summary["overall"]
    lat = o["latency_s"]
    label = agent_label(meta)
    lines = [f"# {label} on {meta.get('suite', '?')}", ""]
    if meta.get("privileged"):
        lines += ["> Privileged agent: it reads the tasks' scripted oracle, so its figures are an upper bound, not a baseline.", ""]
    facts = [
        f"env `{meta.get('env', '?')}`",
        f"{summary.get('expected_cases', o['cases'])} cases",
        f"agent seed {meta.get('seed', '?')}",
        f"{meta.get('num_envs', '?')} envs",
    ]
    if wall_s is not None:
        facts.append(f"last run {wall_s:.1f} s")
    lines += [" · ".join(facts), ""]
    missing = int(summary.get("expected_cases", o["cases"])) - o["cases"]
    if missing > 0:
        lines += [f"**Incomplete: {missing} cases have no result yet** (rerun with `--resume`).", ""]
    rows = [
        ("Success", fmt_success(o)),
        ("Mean return", f"{o['mean_return']:.4f}"),
        ("Mean progress", f"{o['mean_progress']:.4f}"),
        ("Partial (progress > 0, not solved)", o["partial"]),
        ("Infra skips", o["infra_skips"]),
        ("Errors (env or task crashed)", o["errors"]),
        ("Average steps", f"{o['avg_steps']:.1f}"),
        ("Invalid actions", f"{o['invalid_actions']} ({100 * o['invalid_rate']:.1f}% of steps)"),
        (
            "Agent latency",
            f"p50 {fmt_seconds(lat['p50'])} · mean {fmt_seconds(lat['mean'])} · max {fmt_seconds(lat['max'])}"
            f" ({lat['decisions']} decisions)",
        ),
    ]
    lines += [_table(("Metric", "Result"), rows), "", "## Per family", "", group_table(summary["by_family"], "Family"), ""]
    lines += ["## Per app", "", group_table(summary["by_app"], "App"), ""]
    return "\n".join(lines)


# --- comparison ------------------------------------------------------------------------------


def compare(runs: Sequence[tuple[str, Mapping[str, Any], Sequence[Mapping[str, Any]]]]) -> dict[str, Any]:
    """Several runs side by side: their summaries, and solved-case differences against the first.

    Args:
        runs: ``(label, meta, records)`` per run; the first is the reference.

    Returns:
        ``{"runs": [...], "families": [...], "diffs": [...]}``; each diff lists the cases (common
        to both runs) that the run solved and the reference did not, and the reverse.
    """
    summaries = [(label, meta, summarize(records, meta)) for label, meta, records in runs]
    families = sorted({f for _, _, s in summaries for f in s["by_family"]})
    out: dict[str, Any] = {
        "runs": [{"label": label, "meta": dict(meta), "summary": s} for label, meta, s in summaries],
        "families": families,
        "diffs": [],
    }
    if not runs:
        return out
    ref_label, _, ref_records = runs[0]
    ref = {r["case"]: r for r in ref_records}
    for label, _, records in runs[1:]:
        other = {r["case"]: r for r in records}
        common = [c for c in ref if c in other]
        gained = [c for c in common if other[c]["success"] and not ref[c]["success"]]
        lost = [c for c in common if ref[c]["success"] and not other[c]["success"]]
        out["diffs"].append(
            {
                "label": label,
                "reference": ref_label,
                "common_cases": len(common),
                "solved_delta": sum(1 for c in common if other[c]["success"]) - sum(1 for c in common if ref[c]["success"]),
                "gained": gained,
                "lost": lost,
                "only_in_reference": sum(1 for c in ref if c not in other),
                "only_in_run": sum(1 for c in other if c not in ref),
            }
        )
    return out


def compare_markdown(comparison: Mapping[str, Any], *, max_listed: int = 12) -> str:
    """The comparison as Markdown: headline figures per run, success per family, solved-case diffs."""
    runs = comparison["runs"]
    labels = [r["label"] for r in runs]
    header = ("Metric", *labels)

    def row(name: str, fn: Any) -> list[str]:
        return [name, *(fn(r["summary"]["overall"]) for r in runs)]

    lines = ["# Comparison", ""]
    suites = sorted({str(r["meta"].get("suite")) for r in runs})
    lines += [f"Suite{'s' if len(suites) > 1 else ''}: {', '.join(suites)}", ""]
    if any(r["meta"].get("privileged") for r in runs):
        lines += ["> Runs marked *privileged* read the scripted oracle: an upper bound, not a baseline.", ""]
    rows = [
        row("Success", fmt_success),
        row("Mean return", lambda o: f"{o['mean_return']:.4f}"),
        row("Partial", lambda o: str(o["partial"])),
        row("Infra skips", lambda o: str(o["infra_skips"])),
        row("Errors", lambda o: str(o["errors"])),
        row("Average steps", lambda o: f"{o['avg_steps']:.1f}"),
        row("Agent latency p50", lambda o: fmt_seconds(o["latency_s"]["p50"])),
    ]
    lines += [_table(header, rows), "", "## Success per family", ""]
    fam_rows = []
    for family in comparison["families"]:
        cells = []
        for r in runs:
            m = r["summary"]["by_family"].get(family)
            cells.append(fmt_success(m) if m else "-")
        fam_rows.append([family, *cells])
    lines += [_table(("Family", *labels), fam_rows), ""]
    if comparison["diffs"]:
        lines += [f"## Solved cases against {comparison['diffs'][0]['reference']}", ""]
        diff_rows = []
        for d in comparison["diffs"]:
            diff_rows.append([d["label"], f"{d['solved_delta']:+d}", len(d["gained"]), len(d["lost"]), d["common_cases"]])
        lines += [_table(("Run", "Δ solved", "Newly solved", "No longer solved", "Common cases"), diff_rows), ""]
        for d in comparison["diffs"]:
            for title, ids in (("newly solved", d["gained"]), ("no longer solved", d["lost"])):
                if ids:
                    shown = ", ".join(ids[:max_listed]) + (f", … (+{len(ids) - max_listed})" if len(ids) > max_listed else "")
                    lines.append(f"- {d['label']}, {title}: {shown}")
            if d["only_in_reference"] or d["only_in_run"]:
                lines.append(
                    f"- {d['label']}: {d['only_in_reference']} cases only in the reference,"
                    f" {d['only_in_run']} only in this run (not compared)"
                )
        lines.append("")
    return "\n".join(lines)
