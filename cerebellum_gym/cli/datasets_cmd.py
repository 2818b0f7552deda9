"""``cerebellum-gym replay``, ``eval-offline`` and ``export``: what to do with recorded episodes.

Datasets are recorded with ``cerebellum-gym eval --record DIR`` or the
:class:`~cerebellum_gym.datasets.RecordEpisodes` wrapper (``docs/datasets.md``).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cerebellum_gym.cli import DefaultsHelpFormatter
from cerebellum_gym.errors import CerebellumError


def register(sub: Any) -> None:
    """Add the ``replay``, ``eval-offline`` and ``export`` sub-commands."""
    replay = sub.add_parser(
        "replay",
        help="audit a recorded dataset: replay each simulator episode and check every observation",
        description=(
            "Re-run each recorded simulator episode from its seed with the recorded actions and check that every "
            "observation (screenshot and history frames by content hash, tree, labels, masks), reward and verdict "
            "matches; check every stored image against its hash. Exit status 1 when anything differs."
        ),
    )
    replay.add_argument("dataset", metavar="DATASET", help="a dataset folder")
    replay.add_argument("--episode", action="append", default=None, help="only this episode id (repeatable)")
    replay.add_argument("--no-images", action="store_true", help="skip decoding the stored images")
    replay.add_argument("--json", default=None, metavar="PATH", help="also write the audit as JSON (default: DATASET/audit.json)")
    replay.set_defaults(handler=run_replay)

    offline = sub.add_parser(
        "eval-offline",
        help="score an agent's next action against recorded actions (the model card's held-out metrics)",
        description=(
            "Sample recorded steps by a quota over action groups, ask the agent for its next action on each recorded "
            "observation, and report exact action string, action type, tap/long-press label, per-group accuracy and "
            "the scroll confusion, as Markdown and JSON."
        ),
        formatter_class=DefaultsHelpFormatter,
    )
    offline.add_argument("--agent", required=True, help="random | oracle | sb3:PATH | qwen:BASE[,ADAPTER] | module:object")
    offline.add_argument("--data", required=True, metavar="DATASET", help="a dataset folder")
    offline.add_argument("--n", type=_count, default=100, help="steps to sample (0: every valid step)")
    offline.add_argument("--seed", type=_count, default=0, help="sampling seed (also seeds the agent)")
    offline.add_argument("--quota", default="tp=5,k=2,scroll=2,wait=2,system=1", help="group weights for sampling")
    offline.add_argument("--recorded-by", default=None, metavar="AGENT", help="only episodes this agent recorded (e.g. oracle)")
    offline.add_argument("--out", default=None, metavar="DIR", help="write offline.md and offline.json here")
    offline.add_argument(
        "--protocol",
        choices=("card",),
        default=None,
        help="card: the model card's held-out protocol (shards 18 and 19, n=100, seed 44103, its quota); overrides --n, --seed, --quota",
    )
    offline.add_argument("--shards", type=_count, nargs="+", default=None, help="only episodes of these source shards (imported data)")
    offline.set_defaults(handler=run_offline)

    datasets = sub.add_parser("datasets", help="public trajectories: import AndroidControl, Android in the Wild, AndroidWorld episodes")
    datasets_sub = datasets.add_subparsers(dest="datasets_command", required=True)
    importer = datasets_sub.add_parser(
        "import",
        help="import a public dataset's files into a dataset folder (resumable; a report per import)",
        description=(
            "Stream the source's files (TFRecords for androidcontrol and aitw, .pkl.gz checkpoints for androidworld) into "
            "OUT, one part per file written atomically; a rerun skips files already imported. Damaged records are skipped "
            "and counted. Writes OUT/import_report.json and .md (steps kept and dropped by reason, action codes, label hit rate)."
        ),
    )
    importer.add_argument(
        "source_kind", choices=("androidcontrol", "aitw", "androidworld"), metavar="KIND", help="androidcontrol | aitw | androidworld"
    )
    importer.add_argument("source", nargs="+", metavar="SOURCE", help="files or folders of files")
    importer.add_argument("out", metavar="OUT", help="the dataset folder (created or resumed)")
    importer.add_argument("--limit", type=_count, default=None, help="at most this many episodes per file")
    importer.add_argument("--no-progress", action="store_true", help="no progress bar")
    importer.set_defaults(handler=run_import)

    export = sub.add_parser(
        "export",
        help="export a dataset: parquet (Hugging Face datasets), minari, sft, dpo",
        description=(
            "parquet: OUT/data/steps-*.parquet + episodes.parquet + README.md (datasets.load_dataset(OUT, 'steps')); "
            "minari: a Minari dataset with id OUT (in --minari-root or MINARI_DATASETS_PATH); sft: OUT/sft.jsonl of "
            "the reference agent's chat messages (its own prompt builder) with the recorded action as target; dpo: OUT/dpo.jsonl "
            "of trajectory pairs of the same task and parameters, deduplicated by content hash."
        ),
    )
    export.add_argument("kind", choices=("parquet", "minari", "sft", "dpo"))
    export.add_argument("dataset", metavar="DATASET", help="a dataset folder")
    export.add_argument("out", metavar="OUT", help="output folder (for minari: the dataset id, e.g. cerebellum/sim-oracle-v0)")
    export.add_argument("--no-images", action="store_true", help="parquet/minari: leave the screenshots out")
    export.add_argument("--complete-only", action="store_true", help="parquet: leave interrupted episodes out")
    export.add_argument("--minari-root", default=None, help="minari: the datasets folder (default: MINARI_DATASETS_PATH or ~/.minari)")
    export.add_argument("--lossless", action="store_true", help="minari: raw screenshots instead of Minari's default JPEG")
    export.add_argument("--all-episodes", action="store_true", help="sft: also steps of failed episodes")
    export.add_argument("--no-prompts", action="store_true", help="dpo: actions only, no per-step prompts")
    export.add_argument(
        "--tokenizer", default=None, metavar="PATH", help="sft/dpo: also render prompt and completion with this tokenizer's chat template"
    )
    export.add_argument("--max-pairs-per-group", type=_count, default=None, help="dpo: cap pairs per task and parameters")
    export.set_defaults(handler=run_export)


def _printable(text: str) -> str:
    """``text`` with any lone surrogate (a recorded task or agent name) as a ``\\ud800`` escape:
    printing it raw would fail on a UTF-8 terminal."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _count(text: str) -> int:
    """An argument that is a whole number >= 0 (argparse reports anything else as a usage error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _file_errors(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``handler`` with a file it cannot read or write reported as one line (a DatasetError), not a traceback."""

    @functools.wraps(handler)
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise  # main ends quietly on a closed pipe
            from cerebellum_gym.datasets import DatasetError

            name = f"{exc.filename}: " if exc.filename else ""
            raise DatasetError(f"{name}{exc.strerror or exc}") from exc

    return run


@_file_errors
def run_replay(args: argparse.Namespace) -> int:
    from cerebellum_gym.datasets.format import atomic_write
    from cerebellum_gym.datasets.replay import audit

    def show(result: Any) -> None:
        print(result.line(), file=sys.stderr)

    path = Path(args.json) if args.json else Path(args.dataset) / "audit.json"
    if path.is_dir() and not path.is_symlink():
        raise CerebellumError(f"{path} is a folder; --json takes a file path")
    report = audit(args.dataset, episode_ids=args.episode, check_images=not args.no_images, progress=show)
    print(_printable(report.markdown()))  # first: a folder that cannot be written must not lose the audit
    try:
        # Replaced, never written through: a shared dataset's audit.json may be a link to a file elsewhere.
        atomic_write(path, (json.dumps(report.to_json(), indent=1) + "\n").encode())
    except OSError as exc:
        hint = "" if args.json else " (a read-only dataset? pass --json PATH)"
        raise CerebellumError(f"cannot write {path}: {exc.strerror or exc}{hint}") from exc
    print(f"Audit: {path}")
    return 0 if report.ok else 1


@_file_errors
def run_offline(args: argparse.Namespace) -> int:
    from cerebellum_gym.agents import load_agent
    from cerebellum_gym.datasets import open_dataset
    from cerebellum_gym.datasets.exports import output_folder
    from cerebellum_gym.datasets.format import atomic_write
    from cerebellum_gym.datasets.offline import evaluate_offline, offline_markdown

    data = open_dataset(args.data)
    out = output_folder(data, args.out) if args.out else None  # checked before the agent runs
    try:
        agent = load_agent(args.agent)
    except (ValueError, ImportError, OSError) as exc:
        raise CerebellumError(f"cannot load agent {args.agent!r}: {exc}") from exc
    n, seed, quota, shards = args.n or None, args.seed, args.quota, args.shards
    if getattr(args, "protocol", None) == "card":
        from cerebellum_gym.datasets.offline import CARD_PROTOCOL

        n, seed, quota, shards = CARD_PROTOCOL["n"], CARD_PROTOCOL["seed"], CARD_PROTOCOL["quota"], CARD_PROTOCOL["shards"]
    results = evaluate_offline(agent, data, n=n, seed=seed, quota=quota, agent_spec=args.agent, recorded_by=args.recorded_by, shards=shards)
    markdown = offline_markdown(results)
    print(_printable(markdown))
    if out is not None:
        atomic_write(out / "offline.md", markdown.encode("utf-8", "backslashreplace"))
        # ASCII escapes: a recorded action may hold a lone surrogate, which UTF-8 cannot.
        atomic_write(out / "offline.json", (json.dumps(results, indent=1) + "\n").encode())
        print(f"Results: {out / 'offline.json'}")
    return 0


@_file_errors
def run_import(args: argparse.Namespace) -> int:
    from cerebellum_gym.datasets.importers import import_dataset

    report = import_dataset(args.source_kind, args.source, args.out, progress=not args.no_progress, limit=args.limit)
    print(_printable(report.markdown()))
    print(f"Report: {Path(args.out) / 'import_report.json'}")
    return 0


@_file_errors
def run_export(args: argparse.Namespace) -> int:
    from cerebellum_gym.datasets import exports

    if args.kind == "parquet":
        counts = exports.export_parquet(args.dataset, args.out, images=not args.no_images, complete_only=args.complete_only)
        print(
            f"{counts['episodes']} episodes, {counts['steps']} steps in {counts['shards']} shards "
            f"({counts['bytes'] / 1e6:.1f} MB) -> {args.out}"
        )
    elif args.kind == "minari":
        data = exports.export_minari(args.dataset, args.out, root=args.minari_root, pixels=not args.no_images, jpeg=not args.lossless)
        print(f"{data.total_episodes} episodes, {data.total_steps} steps -> minari dataset {args.out}")
    elif args.kind == "sft":
        counts = exports.export_sft(args.dataset, args.out, only_success=not args.all_episodes, tokenizer=args.tokenizer)
        print(
            f"{counts['examples']} examples from {counts['episodes']} episodes ({counts['images']} images) "
            f"-> {Path(args.out) / 'sft.jsonl'}"
        )
    else:
        stats = exports.export_dpo(
            args.dataset, args.out, prompts=not args.no_prompts, max_pairs_per_group=args.max_pairs_per_group, tokenizer=args.tokenizer
        )
        print(
            f"{stats['kept']} pairs kept of {stats['pairs']} formed ({stats['duplicates_removed']} exact duplicates removed) "
            f"over {stats['groups']} task/parameter groups -> {Path(args.out) / 'dpo.jsonl'}"
        )
    return 0
