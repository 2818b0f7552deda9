"""Score the simulator's screens against reference screens of the real apps.

Each reference screen (``benchmarks/fidelity/screens/<app>.json``, format in ``docs/fidelity.md``)
is reached on the simulator the way it is reached on a phone (the AndroidWorld task of the same
name reset at the seed, then the steps), and the simulator's ``uiautomator dump`` there is compared
with the reference: resource-ids, visible texts, (class, label) lines, flags, bounds, the
transitions of its main controls and, where the reference has one, a coarse frame (a stored
luminance grid, or a moment of one of AndroidWorld's recorded runs decoded from a local copy of the
video when the benchmark runs: ``frames.py``).

    python benchmarks/fidelity/score.py                  # every screen, per app, overall
    python benchmarks/fidelity/score.py --app expense -v  # one app, with what each screen misses
    python benchmarks/fidelity/score.py --check-floors    # fail if a screen scores below its floor
    python benchmarks/fidelity/score.py --write-floors    # record today's scores as the floors
    python benchmarks/fidelity/score.py --videos DIR      # also frames of AndroidWorld's videos in DIR
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402
from frames import FrameUnavailable, grid_shape, real_frame, videos_dir  # noqa: E402
from metrics import MEASURES, ScreenScore, luminance_grid, score_dump, select, structural_similarity  # noqa: E402
from reference import SCREENS_DIR, load_all  # noqa: E402

import cerebellum_gym  # noqa: E402,F401  (registers the envs)
from cerebellum_gym.core.tree import UINode, parse_uiautomator_xml  # noqa: E402
from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_ENTER, KEYCODE_HOME  # noqa: E402
from cerebellum_gym.sim.phone import Phone  # noqa: E402
from cerebellum_gym.tasks.registry import get_task_class  # noqa: E402

FLOORS: Final = HERE / "floors.json"
KEYCODES: Final = {"back": KEYCODE_BACK, "home": KEYCODE_HOME, "enter": KEYCODE_ENTER}
#: A swipe over the middle of the screen; ``up`` moves the finger up.
SWIPES: Final = {
    "up": (540, 1700, 540, 700),
    "down": (540, 700, 540, 1700),
    "left": (900, 1200, 180, 1200),
    "right": (180, 1200, 900, 1200),
}


class Unreached(Exception):
    """A reach step found nothing to act on: the simulator cannot get to the screen that way."""


def dump(phone: Phone) -> UINode:
    """The screen as ``uiautomator dump`` prints it, parsed back (what a client of the ADB device reads)."""
    return parse_uiautomator_xml(phone.dump_xml())


class Driver:
    """Reaches screens on the simulator: one env, reset per screen at the reference's task and seed."""

    def __init__(self, videos: Path | None = None) -> None:
        #: Where AndroidWorld's recorded runs are, for frames derived as the benchmark runs.
        self.videos = videos
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.env = gym.make("Cerebellum-Sim-v0")

    def close(self) -> None:
        self.env.close()

    def reach(self, reach: Mapping[str, Any]) -> Phone:
        try:
            get_task_class(reach["task"])
        except Exception as exc:
            raise Unreached(f"the simulator has no task {reach['task']!r}") from exc
        self.env.reset(seed=int(reach.get("seed", 0)), options={"task": reach["task"]})
        phone = getattr(self.env.unwrapped, "device", None)
        assert isinstance(phone, Phone)
        for i, step in enumerate(reach.get("steps", [])):
            self.step(phone, step, f"step {i}")
        return phone

    def step(self, phone: Phone, step: Mapping[str, Any], where: str) -> None:
        ((kind, value),) = step.items()
        if kind == "launch":
            if value not in phone.apps:
                raise Unreached(f"{where}: the simulator has no app {value!r}")
            phone.start_app(value)
        elif kind == "home":
            phone.press_key(KEYCODE_HOME)
        elif kind == "key":
            phone.press_key(KEYCODES[value])
        elif kind in ("tap", "long_press"):
            node = select(list(dump(phone).iter()), value)
            if node is None:
                raise Unreached(f"{where}: nothing matches {dict(value)}")
            x, y = node.center
            (phone.tap if kind == "tap" else phone.long_press)(x, y)
        elif kind == "type":
            phone.type_text(value)
        elif kind == "swipe":
            phone.swipe(*SWIPES[value])
        elif kind == "wait":
            phone.wait(float(value))


def identified(root: UINode, screen: Mapping[str, Any]) -> bool:
    nodes = list(root.iter())
    selectors = screen.get("identify") or []
    return bool(selectors) and all(select(nodes, s) is not None for s in selectors)


def score_screen(driver: Driver, screen: Mapping[str, Any], by_id: Mapping[str, Mapping[str, Any]]) -> ScreenScore:
    try:
        phone = driver.reach(screen["reach"])
    except Unreached as exc:
        return ScreenScore(screen["id"], False, {m: 0.0 for m in MEASURES}, why=str(exc))
    root = dump(phone)
    measures = score_dump(screen, root)
    notes: list[str] = []
    measures["frame"] = _frame(phone, screen.get("frame"), driver.videos, notes)
    transitions = screen.get("transitions") or []
    if transitions:
        ok = 0
        for t in transitions:
            try:
                phone = driver.reach(screen["reach"])
                driver.step(phone, {"tap": t["via"]}, "transition")
            except Unreached:
                continue
            ok += identified(dump(phone), by_id[t["to"]])
        measures["navigation"] = ok / len(transitions)
    else:
        measures["navigation"] = None
    return ScreenScore(screen["id"], True, measures, notes=notes)


def _frame(phone: Phone, frame: Mapping[str, Any] | None, videos: Path | None, notes: list[str]) -> float | None:
    """SSIM of the simulator's screenshot with the reference's frame at the frame's grid; ``None``
    (and a note) where the real frame cannot be had here."""
    if frame is None:
        return None
    rows, cols = grid_shape(frame)
    if "grid" in frame:
        real = np.array(frame["grid"], dtype=np.float64)
    else:
        try:
            real = luminance_grid(real_frame(frame, videos), rows, cols)
        except FrameUnavailable as exc:
            notes.append(f"frame skipped: {exc}")
            return None
    return structural_similarity(real, luminance_grid(phone.screenshot(216), rows, cols))


def score_all(
    apps: Mapping[str, Mapping[str, Any]], only: Sequence[str] = (), screen_ids: Sequence[str] = (), videos: Path | None = None
) -> dict[str, list[ScreenScore]]:
    by_id = {s["id"]: s for data in apps.values() for s in data["screens"]}
    driver = Driver(videos)
    try:
        out: dict[str, list[ScreenScore]] = {}
        for key, data in apps.items():
            if only and key not in only:
                continue
            rows = [score_screen(driver, s, by_id) for s in data["screens"] if not screen_ids or s["id"] in screen_ids]
            if rows:
                out[key] = rows
        return out
    finally:
        driver.close()


def _fmt(value: float | None) -> str:
    return "   -" if value is None else f"{value:.2f}"


def table(results: Mapping[str, Sequence[ScreenScore]], verbose: bool = False) -> str:
    head = f"{'screen':<34} " + " ".join(f"{m[:6]:>6}" for m in MEASURES) + "  overall"
    lines = [head, "-" * len(head)]
    app_means = []
    for key, rows in results.items():
        for r in rows:
            cells = " ".join(f"{_fmt(r.measures.get(m)):>6}" for m in MEASURES)
            lines.append(f"{r.screen:<34} {cells}  {r.overall:7.2f}" + ("" if r.reached else "  (unreached)"))
            if verbose and r.why:
                lines.append(f"    {r.why}")
            if verbose:
                lines.extend(f"    {note}" for note in r.notes)
        mean = sum(r.overall for r in rows) / len(rows)
        app_means.append(mean)
        lines.append(f"{'  ' + key + ' (app mean)':<34} {'':>{7 * len(MEASURES) - 1}}  {mean:7.2f}")
    screens = [r for rows in results.values() for r in rows]
    if screens:
        lines.append("-" * len(head))
        reached = sum(r.reached for r in screens)
        lines.append(
            f"{len(screens)} screens over {len(results)} apps, {reached} reached; "
            f"overall (mean over screens) {sum(r.overall for r in screens) / len(screens):.3f}, "
            f"mean over apps {sum(app_means) / len(app_means):.3f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--app", action="append", default=[], help="score only this app key (repeatable)")
    parser.add_argument("--screen", action="append", default=[], help="score only this screen id (repeatable)")
    parser.add_argument("--screens-dir", type=Path, default=SCREENS_DIR, help="where the reference files are")
    parser.add_argument("-v", "--verbose", action="store_true", help="say why a screen was not reached")
    parser.add_argument("--json", type=Path, help="also write the scores as JSON here")
    parser.add_argument("--videos", type=Path, help="a folder of AndroidWorld's recorded runs (*.mp4) for the frame measure")
    parser.add_argument("--check-floors", action="store_true", help=f"exit 1 if a screen scores below its floor in {FLOORS.name}")
    parser.add_argument("--write-floors", action="store_true", help=f"record these scores as the floors in {FLOORS.name}")
    args = parser.parse_args(argv)
    try:
        apps = load_all(sorted(args.screens_dir.glob("*.json")))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    unknown = [a for a in args.app if a not in apps]
    if unknown:
        print(f"error: no reference file for app(s) {unknown}; known: {sorted(apps)}", file=sys.stderr)
        return 2
    videos = videos_dir(args.videos)
    results = score_all(apps, args.app, args.screen, videos)
    skipped = sum(1 for rows in results.values() for r in rows if any(n.startswith("frame skipped") for n in r.notes))
    if skipped:
        print(f"note: {skipped} real frame(s) skipped, their videos not found locally (-v says which; --videos DIR)", file=sys.stderr)
    print(table(results, args.verbose))
    flat = {r.screen: r for rows in results.values() for r in rows}
    if args.json:
        payload = {sid: {"overall": round(r.overall, 4), "reached": r.reached, **r.measures} for sid, r in flat.items()}
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    if args.write_floors:
        floors = json.loads(FLOORS.read_text(encoding="utf-8")) if FLOORS.exists() else {}
        floors.update({sid: round(r.overall - 0.005, 2) if r.overall >= 0.005 else 0.0 for sid, r in flat.items()})
        FLOORS.write_text(json.dumps(dict(sorted(floors.items())), indent=1) + "\n", encoding="utf-8")
        print(f"floors written for {len(flat)} screens to {FLOORS}")
    if args.check_floors:
        floors = json.loads(FLOORS.read_text(encoding="utf-8")) if FLOORS.exists() else {}
        low = [f"{sid}: {r.overall:.3f} < floor {floors[sid]}" for sid, r in flat.items() if sid in floors and r.overall < floors[sid]]
        for line in low:
            print(f"below floor: {line}", file=sys.stderr)
        if low:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
