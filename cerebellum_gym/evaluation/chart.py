"""A PNG chart of success per family per agent (matplotlib, drawn off-screen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def success_chart(runs: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any]]], path: str | Path) -> Path | None:
    """Draw grouped bars (families plus ``all``, one bar per run) of success rate, in percent.

    Args:
        runs: ``(label, meta, summary)`` per run.
        path: the PNG to write.

    Returns:
        The path, or ``None`` when matplotlib is not installed (``pip install cerebellum-gym[eval]``).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display needed; must precede pyplot
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    families = sorted({f for _, _, s in runs for f in s["by_family"]})
    groups = [*families, "all"]
    width = 0.8 / max(1, len(runs))
    fig, ax = plt.subplots(figsize=(min(14.0, 3.0 + 0.35 * len(groups) * (1 + len(runs))), 4.0), dpi=100)
    for k, (label, meta, summary) in enumerate(runs):
        values, texts = [], []
        for g in groups:
            m = summary["overall"] if g == "all" else summary["by_family"].get(g)
            values.append(100 * m["success_rate"] if m else 0.0)
            texts.append(f"{m['solved']}/{m['n']}" if m else "-")
        xs = [i + (k - (len(runs) - 1) / 2) * width for i in range(len(groups))]
        bars = ax.bar(
            xs, values, width * 0.95, label=label, hatch="//" if meta.get("privileged") else None, edgecolor="black", linewidth=0.4
        )
        for bar, text in zip(bars, texts, strict=True):
            ax.annotate(
                text,
                (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                ha="center",
                va="bottom",
                fontsize=7,
                xytext=(0, 1),
                textcoords="offset points",
            )
    ax.set_xticks(range(len(groups)), groups, rotation=30 if len(groups) > 6 else 0, ha="right" if len(groups) > 6 else "center")
    ax.set_ylabel("success (%)")
    ax.set_ylim(0, 110)
    ax.set_title("Success per family")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out
