"""The evaluation harness: suites, parallel rollouts, results and reports (``docs/evaluation.md``).

Example:
    >>> import tempfile
    >>> from cerebellum_gym.agents import load_agent
    >>> suite = load_suite("tasks:SystemWifiTurnOn:2")
    >>> result = run_suite(load_agent("oracle"), suite, tempfile.mkdtemp(), EvalConfig(num_envs=2, progress="off"))
    >>> [(r["case"], r["status"], r["success"]) for r in result.records]
    [('SystemWifiTurnOn-0', 'ok', True), ('SystemWifiTurnOn-1', 'ok', True)]
    >>> summarize(result.records)["overall"]["solved"]
    2
"""

from __future__ import annotations

from cerebellum_gym.evaluation.faults import FaultPlan, FaultyDevice
from cerebellum_gym.evaluation.outputs import finalize_run, write_comparison
from cerebellum_gym.evaluation.results import ResultsWriter, read_results, read_run
from cerebellum_gym.evaluation.runner import EvalConfig, RunResult, VectorOracle, run_suite
from cerebellum_gym.evaluation.suites import Case, Suite, SuiteError, available_suites, load_suite
from cerebellum_gym.evaluation.summary import compare, summarize

__all__ = [
    "Case",
    "EvalConfig",
    "FaultPlan",
    "FaultyDevice",
    "ResultsWriter",
    "RunResult",
    "Suite",
    "SuiteError",
    "VectorOracle",
    "available_suites",
    "compare",
    "finalize_run",
    "load_suite",
    "read_results",
    "read_run",
    "run_suite",
    "summarize",
    "write_comparison",
]
