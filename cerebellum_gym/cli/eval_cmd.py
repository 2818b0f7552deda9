"""``cerebellum-gym eval`` and ``cerebellum-gym compare``: run suites, compare runs.

With no arguments, ``eval`` does the README's main job: the baselines (random, and the
privileged oracle as the upper bound) on the simulator's mixed suite, a comparison table, and
a report under ``runs/<timestamp>/``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import traceback
import zipfile
from pathlib import Path
from typing import Any

from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.vector import VECTORIZATION_MODES

DEFAULT_AGENTS = ("random", "oracle")
EXAMPLES = """examples:
  cerebellum-gym eval                                   the baselines on sim-mixed100, with a report
  cerebellum-gym eval --suite sim-smoke --agent oracle  one case per family
  cerebellum-gym eval --agent my_policy:act --pixels off --num-envs 8
  cerebellum-gym eval --env-kwargs '{"max_steps": 20}' --out runs/short
  cerebellum-gym eval --env Cerebellum-AndroidWorld-v0 --suite androidworld-family-system --agent oracle
  cerebellum-gym eval --resume --out runs/20261203-101500  continue a run that stopped"""
DEFAULT_SCREENS = "auto"


def register(sub: Any) -> None:
    """Add the ``eval`` and ``compare`` sub-commands."""
    parser = sub.add_parser(
        "eval",
        help="evaluate agents on a suite (default: the baselines on the simulator's mixed suite)",
        description=(
            "Run every case of a suite with an agent on N parallel envs, writing results.jsonl (one line per case, "
            "flushed as it finishes), summary.md/json, a chart and report.html. With several --agent, each gets a "
            "sub-folder of --out and a comparison is written at --out. With no arguments: random and oracle on "
            "sim-mixed100; with only --env Cerebellum-AndroidWorld-v0, on androidworld-mixed100 (on the embedded "
            "simulator, the cases of tasks it does not mirror are listed as not available there)."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--env", default=None, help="gymnasium env id (default: the suite's, usually Cerebellum-Sim-v0)")
    parser.add_argument(
        "--suite",
        default=None,
        help=(
            "a suite name (see --list-suites), a path to a .json file, all-tasks[:K] or tasks:A,B[:K] "
            "(default: sim-mixed100); with --env Cerebellum-AndroidWorld-v0, androidworld-mixed100"
        ),
    )
    parser.add_argument(
        "--agent",
        action="append",
        default=None,
        help="random | oracle | sb3:PATH | qwen:BASE[,ADAPTER] | module:object; repeat to compare (default: random and oracle)",
    )
    parser.add_argument("--num-envs", type=int, default=None, help="parallel envs (default: min(4, CPUs))")
    parser.add_argument("--out", default=None, help="run folder (default: runs/<timestamp>)")
    parser.add_argument("--seed", type=int, default=0, help="agent seed; cases carry their own env seeds (default: 0)")
    parser.add_argument(
        "--max-retries",
        type=int,
        default=2,
        help="retries of a case that met a device fault before it counts as an infra skip (default: 2)",
    )
    parser.add_argument("--resume", action="store_true", help="continue the run in --out, skipping recorded cases")
    parser.add_argument(
        "--screens",
        default=DEFAULT_SCREENS,
        help=(
            "episodes whose screens and trees the report shows: auto (every episode that did not succeed, a dozen "
            "successes, all in a run of 30 cases or fewer), all, none, or a number of cases spread over families (default: auto)"
        ),
    )
    parser.add_argument(
        "--vectorization",
        choices=VECTORIZATION_MODES,
        default="auto",
        help=(
            "vector env kind (auto: sync for the in-process simulator on <= 2 CPUs or 1 env, else async; "
            "ray: one Ray actor per env, on --ray-address or a local Ray; auto never picks ray; default: auto)"
        ),
    )
    parser.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDR",
        help="with --vectorization ray: the Ray cluster to connect to (auto, HOST:6379 or ray://HOST:10001; default: start a local one)",
    )
    parser.add_argument(
        "--pixels",
        choices=("auto", "on", "off"),
        default="auto",
        help="screenshots in observations (auto: off for random/oracle, on for others; default: auto)",
    )
    parser.add_argument("--env-kwargs", default=None, metavar="JSON", help="extra gym.make options, e.g. '{\"max_steps\": 20}'")
    parser.add_argument(
        "--inject-faults", default=None, metavar="SPEC", help="fault injection for testing the infra path: rate=F,seed=N,at=N,case=ID[:N]"
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="show AndroidWorld's own log on the terminal (default: it goes to a file; $CEREBELLUM_ANDROIDWORLD_LOG names it)",
    )
    parser.add_argument(
        "--progress",
        choices=("auto", "bar", "lines", "off"),
        default="auto",
        help="progress display (auto: a bar on a terminal, plain lines otherwise; default: auto)",
    )
    parser.add_argument(
        "--emulators",
        type=int,
        default=None,
        metavar="N",
        help=(
            "launch N emulators from --avd, one per env (Cerebellum-AndroidWorld-v0 or Cerebellum-Adb-v0), checked between "
            "episodes; a crashed one is restarted and its case retried (see docs/androidworld.md)"
        ),
    )
    parser.add_argument("--avd", default=None, help="with --emulators: the AVD to launch them from")
    parser.add_argument(
        "--envs-per-actor",
        type=int,
        default=1,
        metavar="K",
        help="with --vectorization ray and --emulators: envs (and emulators) per Ray actor, which starts them on its machine",
    )
    parser.add_argument(
        "--emulator-options",
        default=None,
        metavar="JSON",
        help='with --emulators: more EmulatorPool options, e.g. \'{"sdk": "/opt/android", "snapshot": "ready", "recycle_after": 50}\'',
    )
    parser.add_argument(
        "--record",
        default=None,
        metavar="DIR",
        help="record every episode into the dataset folder DIR (see docs/datasets.md); simulator episodes are then replay-audited",
    )
    parser.add_argument("--list-suites", action="store_true", help="list the suites found and exit")
    parser.set_defaults(handler=run)

    cmp = sub.add_parser(
        "compare",
        help="put several runs side by side",
        description=(
            "Compare run folders (or folders holding run folders): success, mean return, partial, infra skips, steps, "
            "per family, and the difference in solved cases against the first run."
        ),
    )
    cmp.add_argument("runs", nargs="+", metavar="DIR", help="run folders; the first is the reference")
    cmp.add_argument(
        "--out", default=None, help="where to write compare.md/json, the chart and report.html (default: runs/compare-<timestamp>)"
    )
    cmp.set_defaults(handler=run_compare)


def run(args: argparse.Namespace) -> int:
    """The ``eval`` command."""
    from cerebellum_gym.agents import load_agent
    from cerebellum_gym.core.memory import reuse_freed_frames
    from cerebellum_gym.evaluation.faults import FaultPlan
    from cerebellum_gym.evaluation.runner import EvalConfig, check_env_id
    from cerebellum_gym.evaluation.suites import available_suites, default_suite, load_suite
    from cerebellum_gym.loader import check_make_kwargs

    if args.list_suites:
        for name, path in available_suites().items():
            print(f"{name:24} {path}")
        print("built in: all-tasks[:K], tasks:NAME,NAME[:K]")
        return 0
    if args.verbose:
        os.environ["CEREBELLUM_VERBOSE"] = "1"  # read where AndroidWorld is imported (its workers inherit it)
    reuse_freed_frames()  # the CLI owns its process: the allocator opt-in (core/memory.py) is its to make
    suite = load_suite(args.suite or default_suite(args.env))
    env_id = args.env or suite.env
    check_env_id(env_id)
    if args.ray_address and args.vectorization != "ray":
        raise CerebellumError("--ray-address needs --vectorization ray")
    if args.resume and not args.out:
        raise CerebellumError("--resume needs --out: the run folder to continue")
    specs = list(dict.fromkeys(args.agent or DEFAULT_AGENTS))
    agents = [(spec, _load_agent(load_agent, spec)) for spec in specs]  # a bad agent fails before anything runs
    out = Path(args.out or Path("runs") / time.strftime("%Y%m%d-%H%M%S"))
    num_envs = args.num_envs if args.num_envs is not None else min(4, os.cpu_count() or 1)
    if num_envs < 1:
        raise CerebellumError(f"--num-envs must be at least 1, got {num_envs}")
    if args.max_retries < 0:
        raise CerebellumError(f"--max-retries must be >= 0, got {args.max_retries}")
    config = EvalConfig(
        env_id=env_id,
        num_envs=num_envs,
        seed=args.seed,
        max_retries=args.max_retries,
        vectorization=_vectorization(args.vectorization, env_id, num_envs),
        ray_address=args.ray_address,
        pixels={"auto": None, "on": True, "off": False}[args.pixels],
        env_kwargs=_json_object(args.env_kwargs, "--env-kwargs"),
        screens=_screens(args.screens),
        fault_plan=FaultPlan.parse(args.inject_faults) if args.inject_faults else None,
        progress=args.progress,
        record_dir=args.record,
    )
    # The env's options refused here, in one line, before a run folder or an agent's name is involved.
    if "task" in config.env_kwargs:
        raise CerebellumError("--env-kwargs takes no 'task': the suite names each case's task; use --suite tasks:NAME,NAME")
    for kwargs in (suite.env_kwargs, config.env_kwargs):
        check_make_kwargs(env_id, kwargs)
    if not args.suite:
        print(f"suite: {suite.name} ({len(suite.cases)} cases, {suite.source})", file=sys.stderr)
    pool = _emulator_pool(args, env_id, config) if args.emulators is not None else None
    try:
        return _run_agents(args, agents, specs, suite, out, config)
    finally:
        if pool is not None:
            pool.close()


def _emulator_pool(args: argparse.Namespace, env_id: str, config: Any) -> Any:
    """Start the ``--emulators`` pool and point each env of ``config`` at its emulator."""
    from cerebellum_gym.devices.emulators import EmulatorPool
    from cerebellum_gym.loader import env_backend

    record = env_backend(env_id)
    if record is None or not record.emulators:
        raise CerebellumError(
            f"--emulators needs an env that runs on emulators (Cerebellum-AndroidWorld-v0, Cerebellum-Adb-v0), not {env_id}"
        )
    if args.emulators < 1:
        raise CerebellumError(f"--emulators must be >= 1, got {args.emulators}")
    if args.num_envs is not None and args.num_envs != args.emulators:
        raise CerebellumError(f"--num-envs {args.num_envs} differs from --emulators {args.emulators}: each env gets one emulator")
    options = _json_object(args.emulator_options, "--emulator-options")
    if config.vectorization == "ray":
        # Each Ray actor starts the emulators of its slots on its own machine (and checks them there).
        if "num" in options:
            raise CerebellumError("--emulator-options takes no 'num': --emulators N is the number of emulators")
        config.num_envs = args.emulators
        config.emulators = {"avd": args.avd, **options}
        config.envs_per_actor = args.envs_per_actor
        return None
    try:
        pool = EmulatorPool(
            args.emulators, avd=args.avd, on_event=lambda text: print(f"emulators: {text}", file=sys.stderr, flush=True), **options
        )
    except TypeError as exc:  # an option EmulatorPool does not take
        raise CerebellumError(f"--emulator-options: {exc}") from None
    pool.start()
    config.num_envs = len(pool)
    config.env_kwargs_per_env = [{"device_options": pool.device_options(i, record.name)} for i in range(len(pool))]  # type: ignore[arg-type]
    config.between_episodes = pool.between_episodes
    if args.vectorization == "auto":
        config.vectorization = _vectorization("auto", env_id, len(pool))
    return pool


def _run_agents(args: argparse.Namespace, agents: list[tuple[str, Any]], specs: list[str], suite: Any, out: Path, config: Any) -> int:
    from cerebellum_gym.evaluation.outputs import CHART_FILE, finalize_run, write_comparison
    from cerebellum_gym.evaluation.runner import run_suite

    run_dirs: list[Path] = []
    slugs = _slugs(specs)
    for (spec, agent), slug in zip(agents, slugs, strict=True):
        run_dir = out if len(agents) == 1 else out / slug
        try:
            result = run_suite(agent, suite, run_dir, config, resume=args.resume, agent_spec=spec)
        except CerebellumError:
            raise
        except KeyboardInterrupt:
            print(f"interrupted; finished cases are in {run_dir / 'results.jsonl'}; continue with --resume --out {out}", file=sys.stderr)
            raise
        except Exception as exc:
            # The harness turns env, task and device failures into results; what reaches here came from the agent.
            traceback.print_exc()
            print(f"cerebellum-gym eval: the agent {spec} raised {type(exc).__name__}: {exc}", file=sys.stderr)
            print(f"finished cases are in {run_dir / 'results.jsonl'}; continue with --resume --out {out}", file=sys.stderr)
            return 1
        audit_md = _audit_recording(args.record, run_dir) if args.record else ""
        outputs = finalize_run(run_dir, wall_s=result.wall_s)
        if outputs.chart is None and len(agents) == 1:
            _no_chart()
        if audit_md:
            (run_dir / "summary.md").write_text(outputs.markdown.rstrip() + "\n\n" + audit_md)
        run_dirs.append(run_dir)
        print(
            f"{agent.name}: {result.ran} cases run in {result.wall_s:.1f} s"
            f" ({len(result.records)}/{len(suite.cases)} recorded) -> {run_dir}",
            file=sys.stderr,
        )
        if len(agents) == 1:
            print(outputs.markdown)
            print(f"Report: {outputs.report}\nResults: {run_dir / 'results.jsonl'}")
    if len(agents) > 1:
        markdown, _, report = write_comparison(run_dirs, out)
        if not (out / CHART_FILE).exists():
            _no_chart()
        print(markdown)
        print(f"Report: {report}\nPer agent: " + ", ".join(str(d) for d in run_dirs))
    return 0


def _no_chart() -> None:
    print("no chart: matplotlib is missing; install the 'eval' extra: pip install 'cerebellum-gym[eval]'", file=sys.stderr)


def run_compare(args: argparse.Namespace) -> int:
    """The ``compare`` command."""
    from cerebellum_gym.evaluation.outputs import CHART_FILE, write_comparison
    from cerebellum_gym.evaluation.results import RESULTS_FILE

    dirs: list[Path] = []
    for given in args.runs:
        folder = Path(given)
        if (folder / RESULTS_FILE).is_file():
            dirs.append(folder)
            continue
        inner = sorted(p.parent for p in folder.glob(f"*/{RESULTS_FILE}")) if folder.is_dir() else []
        if not inner:
            raise CerebellumError(f"{given} is not a run folder (no {RESULTS_FILE}, nor sub-folders with one)")
        dirs.extend(inner)
    out = Path(args.out) if args.out else Path("runs") / time.strftime("compare-%Y%m%d-%H%M%S")
    markdown, _, report = write_comparison(dirs, out)
    if not (out / CHART_FILE).exists():
        _no_chart()
    print(markdown)
    print(f"Report: {report}")
    return 0


def _audit_recording(record_dir: str, run_dir: Path) -> str:
    """Replay-audit the episodes this run recorded; ``audit.json`` in the run folder, Markdown back."""
    from cerebellum_gym.datasets.replay import audit_run

    report = audit_run(record_dir, run_dir)
    (run_dir / "audit.json").write_text(json.dumps(report.to_json(), indent=1) + "\n")
    print(report.headline(), file=sys.stderr)
    return report.markdown()


def _load_agent(loader: Any, spec: str) -> Any:
    try:
        return loader(spec)
    except CerebellumError:
        raise
    except (ValueError, ImportError, OSError, zipfile.BadZipFile) as exc:
        raise CerebellumError(f"cannot load agent {spec!r}: {exc}") from exc


def _vectorization(choice: str, env_id: str, num_envs: int) -> str:
    from cerebellum_gym.loader import env_backend
    from cerebellum_gym.vector import resolve_vectorization

    record = env_backend(env_id)
    return resolve_vectorization(choice, num_envs, in_process=record is not None and record.in_process)


def _screens(text: str) -> str:
    from cerebellum_gym.evaluation.frames import ScreenPolicy

    try:
        ScreenPolicy.parse(text)
    except ValueError as exc:
        raise CerebellumError(str(exc)) from None
    return text


def _json_object(text: str | None, flag: str) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise CerebellumError(f"{flag} is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise CerebellumError(f"{flag} must be a JSON object")
    return value


def _slugs(specs: list[str]) -> list[str]:
    """Folder names for agent specs: ``random``, ``oracle``, ``sb3-model``, ``module-object``."""
    out: list[str] = []
    for spec in specs:
        base = spec
        if spec.startswith("sb3:"):
            base = "sb3-" + Path(spec[4:]).stem
        slug = re.sub(r"[^A-Za-z0-9._-]+", "-", base).strip("-") or "agent"
        candidate, k = slug, 2
        while candidate in out:
            candidate, k = f"{slug}-{k}", k + 1
        out.append(candidate)
    return out
