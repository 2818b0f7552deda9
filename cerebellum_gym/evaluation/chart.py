"""A PNG chart of success per family per agent (matplotlib, drawn off-screen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: Type sizes in points: at 100 dpi a point is 1.4 px, and the report shows the PNG at its own size.
_TEXT_PT = 11
_SMALL_PT = 10


def success_chart(runs: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any]]], path: str | Path) -> Path | None:
    """Draw grouped bars (families plus ``all``, one bar per run) of success rate, in percent.

    The figure is sized so that it is legible at its own pixel size (the report shows it unscaled):
    at most 12 inches at 100 dpi, with 10-11 pt text.

    Args:
        runs: ``(label, meta, summary)`` per run.
        path: the PNG to write.

    Returns:
        The path, or ``None`` when matplotlib is not installed (the ``eval`` extra:
        ``pip install 'cerebellum-gym[eval]'``; the command line says so).
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
    # About a third of an inch per bar keeps the "x/N" labels above the bars apart.
    fig_width = min(12.0, max(6.0, 1.4 + len(groups) * len(runs) * 0.34 / 0.8))
    fig, ax = plt.subplots(figsize=(fig_width, 4.6), dpi=100)
    narrow = len(runs) * len(groups) > 14
    for k, (label, meta, summary) in enumerate(runs):
        values, texts = [], []
        for g in groups:
            m = summary["overall"] if g == "all" else summary["by_family"].get(g)
            values.append(100 * m["success_rate"] if m else 0.0)
            texts.append(f"{m['solved']}/{m['n']}" if m else "-")
        xs = [i + (k - (len(runs) - 1) / 2) * width for i in range(len(groups))]
        bars = ax.bar(
            xs, values, width * 0.92, label=label, hatch="//" if meta.get("privileged") else None, edgecolor="black", linewidth=0.4
        )
        for bar, value, text in zip(bars, values, texts, strict=True):
            if value == 0 and text != "-":
                # A 0% bar has no height: a thick stub on the axis in the run's colour shows it ran.
                ax.hlines(0, bar.get_x(), bar.get_x() + bar.get_width(), colors=[bar.get_facecolor()], linewidth=4, zorder=3)
            ax.annotate(
                text,
                (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                ha="center",
                va="bottom",
                fontsize=_SMALL_PT if not narrow else _SMALL_PT - 1,
                rotation=90 if narrow else 0,
                xytext=(0, 2),
                textcoords="offset points",
            )
    rotate = len(groups) > 6
    ax.set_xticks(range(len(groups)), groups, rotation=30 if rotate else 0, ha="right" if rotate else "center", fontsize=_TEXT_PT)
    ax.tick_params(axis="y", labelsize=_SMALL_PT)
    ax.set_ylabel("success (%)", fontsize=_TEXT_PT)
    ax.set_ylim(0, 125 if narrow else 112)  # headroom for the "x/N" labels; the axis itself ends at 100%
    ax.set_yticks(range(0, 101, 20))
    ax.set_title("Success per family", fontsize=_TEXT_PT + 1, loc="left")
    ax.legend(fontsize=_SMALL_PT, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=len(runs), frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out
