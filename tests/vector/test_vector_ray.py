"""RayVectorEnv on a real local Ray cluster: gymnasium's vector contract (against SyncVectorEnv),
the eval harness with ``vectorization="ray"``, and lost actors as infrastructure faults.

The cluster starts once per module (about 6-8 s on a loaded 2-core machine: Ray starts its GCS,
raylet and agents as separate processes); each actor is one more worker process (about 1 s).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import Agent, load_agent
from cerebellum_gym.agents.base import OracleSource
from cerebellum_gym.core.actions import batch_actions
from cerebellum_gym.errors import CerebellumError, DeviceLostError
from cerebellum_gym.evaluation.runner import EvalConfig, make_vector_env, run_suite
from cerebellum_gym.evaluation.suites import load_suite
from cerebellum_gym.vector.ray import RayEnvLostError, RayVectorEnv, import_ray, truncate_lost_env

ray = pytest.importorskip("ray")

ENV_ID = "Cerebellum-Sim-v0"
#: Tasks the oracle solves in a few steps, from two families.
TASKS = ("SystemWifiTurnOn", "SystemBluetoothTurnOn", "ContactsAddContact")
#: Quiet, small and quick to start: no dashboard, no log streaming, the smallest object store.
RAY_ENV = {"RAY_DEDUP_LOGS": "0", "RAY_USAGE_STATS_ENABLED": "0"}


# One local Ray cluster for the whole file: keep its tests on one xdist worker (--dist loadgroup).
pytestmark = pytest.mark.xdist_group("ray")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """One local Ray instance for the module (or the one this process already has)."""
    saved = {key: os.environ.get(key) for key in RAY_ENV}
    os.environ.update(RAY_ENV)
    started = not ray.is_initialized()
    if started:
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
            object_store_memory=80 * 1024 * 1024,
        )
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def same(a: Any, b: Any, where: str = "") -> None:
    """Assert two (batched) observations or infos are equal, recursing through dicts, tuples and arrays."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and sorted(a) == sorted(b), f"{where}: keys {sorted(a)} != {sorted(b)}"
        for key in a:
            same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, np.ndarray) and a.dtype != object:
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype, f"{where}: {a.dtype} vs {getattr(b, 'dtype', type(b))}"
        np.testing.assert_array_equal(a, b, err_msg=where)
    elif isinstance(a, tuple | list | np.ndarray):
        assert len(a) == len(b), f"{where}: length {len(a)} != {len(b)}"
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{k}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


@pytest.mark.parametrize(
    ("envs_per_actor", "mode"),
    [(1, gym.vector.AutoresetMode.DISABLED), (2, gym.vector.AutoresetMode.NEXT_STEP)],
    ids=["1-disabled", "2-next"],
)
def test_matches_sync_vector_env(cluster: Any, envs_per_actor: int, mode: gym.vector.AutoresetMode) -> None:
    kwargs = {"task": list(TASKS), "max_steps": 6}
    ray_envs = RayVectorEnv(env_id=ENV_ID, num_envs=2, env_kwargs=kwargs, envs_per_actor=envs_per_actor, autoreset_mode=mode)
    sync_envs = gym.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, **kwargs)
    try:
        assert len(ray_envs.actors) == 2 // envs_per_actor
        assert ray_envs.single_observation_space == sync_envs.single_observation_space
        assert ray_envs.action_space == sync_envs.action_space
        assert ray_envs.metadata["autoreset_mode"] == mode
        got, want = ray_envs.reset(seed=[11, 12]), sync_envs.reset(seed=[11, 12])
        same(got, want, "reset")
        assert "screenshot" in got[0] and got[0]["screenshot"].shape[0] == 2
        for step in range(8):
            oracle = sync_envs.call("oracle_action")
            assert ray_envs.call("oracle_action") == oracle
            actions = batch_actions([a or "W" for a in oracle], want[0]["labels"])
            want = sync_envs.step(actions)
            got = ray_envs.step(actions)
            same(got, want, f"step {step}")
            done = want[2] | want[3]
            if mode == gym.vector.AutoresetMode.DISABLED and done.any():
                # Without autoreset the caller resets finished envs, as the harness does: a masked reset.
                seeds = [100 + step if d else None for d in done]
                want = sync_envs.reset(seed=seeds, options={"reset_mask": done.copy()})
                same(ray_envs.reset(seed=seeds, options={"reset_mask": done.copy()}), want, f"reset after step {step}")
        # gymnasium's masked reset: only env 1 starts again, env 0 keeps its observation.
        options = {"reset_mask": np.array([False, True])}
        same(
            ray_envs.reset(seed=[None, 21], options=dict(options)), sync_envs.reset(seed=[None, 21], options=dict(options)), "masked reset"
        )
        ray_envs.set_attr("marker", ["a", "b"])
        assert ray_envs.get_attr("marker") == ("a", "b")
        assert ray_envs.call("progress") == sync_envs.call("progress")
    finally:
        ray_envs.close()
        sync_envs.close()
    assert ray.is_initialized(), "closing must not shut down a Ray instance it did not start"
    assert all(actor is None for actor in ray_envs.actors) or not ray_envs.actors


def _kill(actor: Any) -> None:
    """Kill an actor and wait until Ray reports it dead (``ray.kill`` only asks)."""
    ray.kill(actor)
    for _ in range(100):
        try:
            ray.get(actor.__ray_ready__.remote(), timeout=1)
        except ray.exceptions.RayActorError:
            return
        except ray.exceptions.GetTimeoutError:
            continue
    raise AssertionError("the actor did not die")


def test_lost_actor_raises_or_truncates_and_comes_back(cluster: Any) -> None:
    kwargs = {"task": "SystemWifiTurnOn", "pixels": False}
    envs = RayVectorEnv(env_id=ENV_ID, num_envs=2, env_kwargs=kwargs, autoreset_mode=gym.vector.AutoresetMode.DISABLED)
    try:
        obs, _ = envs.reset(seed=[1, 2])
        _kill(envs.actor_of(0))
        actions = batch_actions(["W", "W"], obs["labels"])
        with pytest.raises(RayEnvLostError) as lost:
            envs.step(actions)
        assert isinstance(lost.value, DeviceLostError) and lost.value.indices == (0,)
        assert envs.lost == (True, False)
        with pytest.raises(RayEnvLostError):
            envs.call("oracle_action")

        # The next reset of the lost env starts a fresh actor for it.
        envs.reset(seed=[1, None], options={"reset_mask": np.array([True, False])})
        assert envs.lost == (False, False)
        assert envs.call("oracle_action")[0]

        # "truncate": the batch goes on; the lost env is truncated and says why.
        envs._lost_handler = truncate_lost_env  # switch the policy in place: no second set of actors
        _kill(envs.actor_of(1))
        _, rewards, terminated, truncated, infos = envs.step(actions)
        assert truncated.tolist() == [False, True] and rewards[1] == 0.0 and not terminated.any()
        assert "RayEnvLostError" in infos["infra_error"][1]
        assert envs.call("oracle_action")[1] is None

        # An actor that does not answer in time counts as lost (and is killed), not waited on.
        # It is kept busy first: a step it had already answered when the wait began would beat
        # even this timeout (a flake seen under CI's load).
        envs.actor_of(0).__ray_call__.remote(lambda host: time.sleep(5))
        envs.timeout_s = 1e-6
        _, _, _, truncated, infos = envs.step(actions)
        assert truncated.all() and "did not answer" in infos["infra_error"][0]
        assert envs.actors == (None, None)
    finally:
        envs.close()


class _KillingOracle(Agent):
    """The oracle, which kills slot 0's Ray actor after its second decision (a lost machine)."""

    name = "killing-oracle"
    privileged = True

    def __init__(self) -> None:
        self.inner = load_agent("oracle")
        self.batches = 0
        self.killed = False

    def act(self, observation: Any) -> str:
        raise AssertionError("the harness acts on batches")

    def act_batch(self, observations: Sequence[Any], oracle: OracleSource | None = None) -> list[str]:
        actions = self.inner.act_batch(observations, oracle)
        self.batches += 1
        envs = getattr(oracle, "envs", None)
        if self.batches == 2 and isinstance(envs, RayVectorEnv):
            _kill(envs.actor_of(0))
            self.killed = True
        return actions


def _suite(folder: Path, seeds: int) -> Any:
    cases = [{"id": f"{t}-{s}", "task": t, "seed": s} for s in range(seeds) for t in TASKS]
    path = folder / "ray-suite.json"
    path.write_text(json.dumps({"name": "ray-suite", "description": "test suite", "env": ENV_ID, "cases": cases}))
    return load_suite(path)


def _lines(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines() if line.strip()]


def test_harness_runs_a_suite_on_ray(cluster: Any, tmp_path: Path) -> None:
    suite = _suite(tmp_path, 2)
    config = EvalConfig(num_envs=2, vectorization="ray", progress="off")
    result = run_suite(load_agent("oracle"), suite, tmp_path / "run", config)
    lines = _lines(tmp_path / "run")
    assert sorted(r["case"] for r in lines) == sorted(c.id for c in suite.cases)  # each case exactly once
    assert all(r["status"] == "ok" and r["success"] and r["attempts"] == 1 for r in lines), lines
    assert result.ran == len(suite.cases)


def test_harness_retries_a_case_whose_actor_was_killed(cluster: Any, tmp_path: Path) -> None:
    suite = _suite(tmp_path, 1)
    agent = _KillingOracle()
    run_suite(agent, suite, tmp_path / "run", EvalConfig(num_envs=2, vectorization="ray", progress="off", max_retries=1))
    assert agent.killed
    lines = _lines(tmp_path / "run")
    assert sorted(r["case"] for r in lines) == sorted(c.id for c in suite.cases)
    assert all(r["status"] == "ok" and r["success"] for r in lines), lines
    retried = [r for r in lines if r["attempts"] == 2]
    assert len(retried) == 1, lines
    assert "RayEnvLostError" in retried[0]["infra_errors"][0]


def test_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(CerebellumError, match=r"cerebellum-gym\[ray\]"):
        import_ray()
    with pytest.raises(CerebellumError, match="ray"):
        make_vector_env(ENV_ID, 2, env_kwargs={}, fault_plan=None, frame_width=232, vectorization="ray")


def test_bad_arguments_fail_before_ray_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # nothing here may need Ray
    with pytest.raises(CerebellumError, match="either env_fns or env_id"):
        RayVectorEnv()
    with pytest.raises(CerebellumError, match="envs_per_actor"):
        RayVectorEnv(env_id=ENV_ID, num_envs=2, envs_per_actor=0)
    with pytest.raises(CerebellumError, match="on_env_lost"):
        RayVectorEnv(env_id=ENV_ID, num_envs=2, on_env_lost="ignore")


def test_auto_never_picks_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    from cerebellum_gym.cli import eval_cmd

    for cpus in (1, 2, 64):
        monkeypatch.setattr(os, "cpu_count", lambda cpus=cpus: cpus)
        for env_id in (ENV_ID, "Cerebellum-Adb-v0"):
            for num_envs in (1, 2, 16):
                assert eval_cmd._vectorization("auto", env_id, num_envs) in ("sync", "async")
    assert eval_cmd._vectorization("ray", ENV_ID, 4) == "ray"


def test_cli_takes_ray_flags(tmp_path: Path) -> None:
    from cerebellum_gym.cli import main

    argv = ["eval", "--agent", "oracle", "--suite", "tasks:SystemWifiTurnOn:1", "--out", str(tmp_path / "r")]
    assert main([*argv, "--ray-address", "auto"]) == 2  # an address without --vectorization ray
    with pytest.raises(SystemExit):
        main([*argv, "--vectorization", "rays"])


def test_sub_envs_that_cannot_be_built_fail_clearly(cluster: Any) -> None:
    with pytest.raises(CerebellumError, match="could not start the sub-envs") as failed:
        RayVectorEnv(env_id=ENV_ID, num_envs=1, env_kwargs={"backend": "no-such-backend"}, timeout_s=60)
    assert "unknown backend 'no-such-backend'" in str(failed.value)
