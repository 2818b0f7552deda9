"""Figures from results: what published tables report, overall, per family and per app.

Definitions (the docs repeat them, and the tests recompute them from the JSONL):

- **N** counts the cases that ran: every record except infra skips, which published tables
  list apart (``Infra skips``), and cases not available on the env (``Not available``: a task
  the env cannot run, such as an AndroidWorld task the embedded simulator does not mirror),
  listed apart too. ``success_rate_all`` divides by every case instead.
- **Success x/N**: records with ``success`` true, with its 95% Wilson score interval
  (``success_ci95``): with 100 cases, 1 success is 0.2-5.4%, not "1%".
- **Mean return**: MobileGym's ``mean_return``, the mean *final progress* (the judge's partial
  credit in [0, 1] at the episode's end) over the N cases. It credits a Verify task that starts in
  its goal state with 1.0 however the episode ends; read it beside the success rate.
- **Progress gained**: mean of final minus initial progress (``start_progress``; records written
  before it existed count 0). What the agent itself changed: 0 on a Verify task left alone.
- **Env return** (``mean_env_return``, JSON only): mean of the env's summed rewards, which depends
  on the env's reward rule (with the default ``shaped`` rule: the success rate minus penalties).
- **Partial**: cases that ran, did not succeed, and ended with progress strictly between 0 and 1
  (a judge with partial credit gave some), as MobileGym counts them.
- **Average steps**: mean steps over the N cases.
- **Errors**: cases whose env or task crashed (counted in N, as failures).
- **Agent latency**: over every decision of the N cases, the time the env waited for its action
  (for a batched agent: the batch's time); p50, mean and max.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from cerebellum_gym.evaluation.results import NOT_RUN

#: The normal quantile of a two-sided 95% interval.
Z95: Final = 1.959963984540054


def group_metrics(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The figures of one group of records (see the module docstring)."""
    ran = [r for r in records if r["status"] not in NOT_RUN]
    n = len(ran)
    solved = sum(1 for r in ran if r["success"])
    steps = sum(int(r["steps"]) for r in ran)
    invalid = sum(int(r.get("invalid_actions", 0)) for r in ran)
    return {
        "cases": len(records),
        "n": n,
        "solved": solved,
        "success_rate": solved / n if n else 0.0,
        "success_ci95": list(wilson_interval(solved, n)),
        "success_rate_all": solved / len(records) if records else 0.0,
        "mean_return": _mean(float(r["progress"]) for r in ran),
        "mean_progress_gained": _mean(progress_gained(r) for r in ran),
        "mean_env_return": _mean(float(r["return"]) for r in ran),
        "partial": sum(1 for r in ran if is_partial(r)),
        "avg_steps": steps / n if n else 0.0,
        "infra_skips": sum(1 for r in records if r["status"] == "infra_skip"),
        "unavailable": sum(1 for r in records if r["status"] == "unavailable"),
        "errors": sum(1 for r in ran if r["status"] == "error"),
        "invalid_actions": invalid,
        "invalid_rate": invalid / steps if steps else 0.0,
    }


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% by default); ``(0, 1)`` when ``n`` is 0.

    Unlike the normal approximation it stays inside [0, 1] and is not empty at 0 or n successes.

    Example:
        >>> [round(x, 4) for x in wilson_interval(1, 100)]
        [0.0018, 0.0545]
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def progress_gained(record: Mapping[str, Any]) -> float:
    """Final minus initial progress of one record (initial 0 for records written before it was kept)."""
    return float(record["progress"]) - float(record.get("start_progress", 0.0))


def is_partial(record: Mapping[str, Any]) -> bool:
    """Not solved, and the judge gave partial credit: final progress strictly between 0 and 1."""
    return not record["success"] and 0.0 < float(record["progress"]) < 1.0


def latency_metrics(records: Iterable[Mapping[str, Any]]) -> dict[str, float | int]:
    """Agent latency over every decision of the records that ran: p50, mean, max (seconds)."""
    values = [float(v) for r in records if r["status"] not in NOT_RUN for v in r.get("latency_s", [])]
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
        # The tasks of the cases the env could not run at all, by why (listed, never dropped).
        "unavailable": _unavailable_tasks(records),
    }


def _unavailable_tasks(records: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    by_reason: dict[str, set[str]] = {}
    for r in records:
        if r["status"] == "unavailable":
            by_reason.setdefault(str(r.get("error") or "not available on this env"), set()).add(str(r["task"]))
    return {reason: sorted(tasks) for reason, tasks in sorted(by_reason.items())}


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


def fmt_interval(m: Mapping[str, Any]) -> str:
    """The success rate's 95% interval, ``lo-hi%``."""
    lo, hi = m.get("success_ci95") or wilson_interval(int(m["solved"]), int(m["n"]))
    return f"{100 * lo:.1f}-{100 * hi:.1f}%"


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
    """A Markdown table of per-group figures (a "Not available" column when any group has such cases)."""
    unavailable = any(m.get("unavailable") for m in groups.values())
    rows = [
        (
            name,
            fmt_success(m),
            fmt_interval(m),
            f"{m['mean_return']:.3f}",
            f"{m['mean_progress_gained']:.3f}",
            m["partial"],
            f"{m['avg_steps']:.1f}",
            m["infra_skips"],
            m["errors"],
        )
        + ((m.get("unavailable", 0),) if unavailable else ())
        for name, m in groups.items()
    ]
    header = (title, "Success", "95% CI", "Mean return", "Progress gained", "Partial", "Avg steps", "Infra skips", "Errors")
    return _table(header + (("Not available",) if unavailable else ()), rows)


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
        ("Success 95% CI (Wilson)", fmt_interval(o)),
        ("Mean return (mean final progress, as MobileGym)", f"{o['mean_return']:.4f}"),
        ("Progress gained (final - initial)", f"{o['mean_progress_gained']:.4f}"),
        ("Partial (0 < progress < 1, not solved)", o["partial"]),
        ("Infra skips", o["infra_skips"]),
        ("Errors (env or task crashed)", o["errors"]),
        *((("Not available on this env (not run, not in N)", o["unavailable"]),) if o.get("unavailable") else ()),
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
    unavailable = summary.get("unavailable") or {}
    if unavailable:
        lines += [f"## Not available on this env ({o.get('unavailable', 0)} cases, not run)", ""]
        for reason, tasks in unavailable.items():
            lines += [f"- {reason}: {', '.join(tasks)}", ""]
    return "\n".join(lines)


# --- comparison ------------------------------------------------------------------------------


def mcnemar_p(gained: int, lost: int) -> float:
    """Two-sided exact McNemar p-value: the chance of a split of the discordant cases at least this
    uneven if neither run were better (a sign test on the cases only one of them solved).

    Example:
        >>> round(mcnemar_p(9, 1), 4), mcnemar_p(3, 3)
        (0.0215, 1.0)
    """
    total = gained + lost
    if total == 0:
        return 1.0
    tail = sum(math.comb(total, k) for k in range(min(gained, lost) + 1)) / 2**total
    return min(1.0, 2 * tail)


def _paired_mean(diffs: Sequence[float], bound: float) -> dict[str, Any]:
    """Mean of per-case differences with a normal-approximation 95% interval (``±bound`` when n < 2)."""
    n = len(diffs)
    mean = _mean(diffs)
    if n < 2:
        return {"difference": mean, "ci95": [-bound, bound], "beyond_noise": False}
    half = Z95 * statistics.stdev(diffs) / math.sqrt(n)
    # Per-case differences lie in [-bound, bound]; so does their mean.
    lo, hi = max(-bound, mean - half), min(bound, mean + half)
    return {"difference": mean, "ci95": [lo, hi], "beyond_noise": bool(lo > 0 or hi < 0)}


def paired_difference(reference: Sequence[Mapping[str, Any]], other: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Whether ``other`` differs from ``reference`` by more than the noise, paired by case.

    Only cases that ran in both (no infra skip in either) count. Success: the difference in rate,
    its 95% interval (normal approximation on the per-case differences) and the exact McNemar
    p-value on the cases only one run solved; ``beyond_noise`` when p < 0.05. Mean return (final
    progress): the mean per-case difference and its 95% interval; ``beyond_noise`` when the
    interval excludes 0.
    """
    ref = {r["case"]: r for r in reference if r["status"] not in NOT_RUN}
    oth = {r["case"]: r for r in other if r["status"] not in NOT_RUN}
    cases = [c for c in ref if c in oth]
    gained = sum(1 for c in cases if oth[c]["success"] and not ref[c]["success"])
    lost = sum(1 for c in cases if ref[c]["success"] and not oth[c]["success"])
    success = _paired_mean([float(bool(oth[c]["success"])) - float(bool(ref[c]["success"])) for c in cases], 1.0)
    p_value = mcnemar_p(gained, lost)
    success.update(
        {
            "reference_rate": _mean(float(bool(ref[c]["success"])) for c in cases),
            "rate": _mean(float(bool(oth[c]["success"])) for c in cases),
            "gained": gained,
            "lost": lost,
            "p_value": p_value,
            "beyond_noise": p_value < 0.05,
        }
    )
    mean_return = _paired_mean([float(oth[c]["progress"]) - float(ref[c]["progress"]) for c in cases], 1.0)
    return {"n": len(cases), "success": success, "mean_return": mean_return}


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
                "paired": paired_difference(ref_records, records),
            }
        )
    return out


def _paired_row(diff: Mapping[str, Any]) -> list[Any]:
    paired = diff.get("paired") or {}
    if not paired.get("n"):
        return [diff["label"], 0, "-", "-", "-", "no common cases"]
    s, m = paired["success"], paired["mean_return"]
    verdicts = [name for name, part in (("success", s), ("mean return", m)) if part["beyond_noise"]]
    return [
        diff["label"],
        paired["n"],
        f"{100 * s['difference']:+.1f} pp [{100 * s['ci95'][0]:+.1f}, {100 * s['ci95'][1]:+.1f}]",
        f"{s['p_value']:.3g}",
        f"{m['difference']:+.4f} [{m['ci95'][0]:+.4f}, {m['ci95'][1]:+.4f}]",
        f"beyond the noise: {', '.join(verdicts)}" if verdicts else "within the noise",
    ]


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
        row("Success 95% CI", fmt_interval),
        row("Mean return (final progress)", lambda o: f"{o['mean_return']:.4f}"),
        row("Progress gained", lambda o: f"{o['mean_progress_gained']:.4f}"),
        row("Partial", lambda o: str(o["partial"])),
        row("Infra skips", lambda o: str(o["infra_skips"])),
        row("Errors", lambda o: str(o["errors"])),
        row("Average steps", lambda o: f"{o['avg_steps']:.1f}"),
        row("Agent latency p50", lambda o: fmt_seconds(o["latency_s"]["p50"])),
    ]
    if any(r["summary"]["overall"].get("unavailable") for r in runs):
        rows.insert(-2, row("Not available on the env", lambda o: str(o.get("unavailable", 0))))
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
        lines += [f"## Beyond the noise? (paired by case, against {comparison['diffs'][0]['reference']})", ""]
        lines += [
            _table(("Run", "Cases", "Δ success", "McNemar p", "Δ mean return", "Verdict"), [_paired_row(d) for d in comparison["diffs"]]),
            "",
        ]
        lines += [
            "Δ success: percentage points, 95% CI; McNemar p: exact, on the cases only one run solved. "
            "Δ mean return: mean per-case difference in final progress, 95% CI. "
            "A difference is beyond the noise when p < 0.05 (success) or its interval excludes 0 (mean return).",
            "",
        ]
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
