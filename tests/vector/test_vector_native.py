"""The native batched simulator env and its sharded form, against gymnasium's SyncVectorEnv.

Same seeds and actions must give the same observations, rewards, ends and infos bit for bit, in
every autoreset mode; the sharded form (worker processes writing into shared memory, or Ray
actors) must equal the single-process native env.
"""

from __future__ import annotations

import copy
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.core.actions import batch_actions
from cerebellum_gym.errors import CerebellumError, ConfigError
from cerebellum_gym.loader import make_env
from cerebellum_gym.vector.native import NativeVectorEnv
from cerebellum_gym.vector.shards import DEFAULT_SPIN_S, ProcessTransport, ShardedVectorEnv, _spin, shard_sizes

ENV_ID = "Cerebellum-Sim-v0"
TASKS = ["SystemWifiTurnOn", "ContactsAddContact", "SimpleSmsSend", "FilesDeleteFile"]
#: Small budgets so that episodes end (and autoreset) within a short run.
KWARGS: dict[str, Any] = {"task": TASKS, "max_steps": 7}


def assert_same(a: Any, b: Any, where: str = "obs") -> None:
    """Recursive equality: arrays by dtype, shape and bytes; object arrays element by element."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), f"{where}: keys {list(a)} != {list(b)}"
        for key in a:
            assert_same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), f"{where}: {type(b)} is not an array"
        assert a.dtype == b.dtype and a.shape == b.shape, f"{where}: {a.dtype}{a.shape} != {b.dtype}{b.shape}"
        if a.dtype == object:
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                assert_same(x, y, f"{where}[{i}]")
        else:
            assert np.array_equal(a, b), f"{where}: values differ"
    elif isinstance(a, tuple | list):
        assert type(a) is type(b) and len(a) == len(b), f"{where}: {type(a)}/{len(a)} != {type(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    else:
        assert type(a) is type(b) and a == b, f"{where}: {a!r} != {b!r}"


def policy(rng: np.random.Generator, obs: dict[str, Any], num_envs: int) -> list[str]:
    """Random actions: taps and long-presses of visible labels, typing, scrolls, keys, and now and
    then an illegal action or a terminal one (so that episodes end early too)."""
    actions = []
    for i in range(num_envs):
        labels = obs["labels"][i]
        pick = int(rng.integers(16))
        if pick < 7 and labels:
            actions.append(f"{'T' if pick < 6 else 'P'} {labels[int(rng.integers(len(labels)))]}")
        elif pick == 15:
            actions.append(str(rng.choice(["F", "I", "F done"])))
        else:
            actions.append(str(rng.choice(["K hello", "U", "D", "L", "R", "B", "H", "W"])))
    return actions


def rollout(envs: gym.vector.VectorEnv[Any, Any, Any], steps: int, seed: int = 7) -> list[tuple[Any, ...]]:
    """Every result of a seeded rollout, deep-copied (the native env reuses its arrays)."""
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    out: list[tuple[Any, ...]] = [copy.deepcopy((obs, info))]
    for _ in range(steps):
        actions = batch_actions(policy(rng, obs, envs.num_envs), obs["labels"])
        obs, reward, terminated, truncated, info = envs.step(actions)
        out.append(copy.deepcopy((obs, reward, terminated, truncated, info)))
    return out


def make_sync(num_envs: int, mode: AutoresetMode, **kwargs: Any) -> gym.vector.VectorEnv[Any, Any, Any]:
    return gym.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, **KWARGS, **kwargs)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("pixels", [True, False])
def test_native_equals_sync_bit_for_bit(mode: AutoresetMode, pixels: bool) -> None:
    sync = make_sync(3, mode, pixels=pixels)
    native = gym.make_vec(ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", autoreset_mode=mode, pixels=pixels, **KWARGS)
    try:
        assert isinstance(native, NativeVectorEnv)
        want, got = rollout(sync, 30), rollout(native, 30)
        ends = sum(int(np.sum(step[2] | step[3])) for step in want[1:])
        assert ends >= 3, "the rollout should end (and autoreset) some episodes"
        if mode == AutoresetMode.SAME_STEP:
            assert any("final_obs" in step[4] for step in want[1:])
        for t, (w, g) in enumerate(zip(want, got, strict=True)):
            assert_same(w, g, f"step {t}")
    finally:
        sync.close()
        native.close()


def test_disabled_autoreset_resets_only_the_masked_envs() -> None:
    sync = make_sync(2, AutoresetMode.DISABLED, pixels=False)
    native = NativeVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED, pixels=False, **KWARGS)
    try:
        results = []
        for envs in (sync, native):
            obs, info = envs.reset(seed=3)
            first = copy.deepcopy(envs.step(batch_actions(["F", "W"], obs["labels"])))
            assert list(first[2]) == [True, False]
            again = copy.deepcopy(envs.reset(options={"reset_mask": np.array([True, False])}))
            after = copy.deepcopy(envs.step(batch_actions(["W", "W"], again[0]["labels"])))
            results.append([first, again, after])
        assert_same(results[0], results[1])
        # The finished env was reset (step 1 of its new episode); the other went on.
        assert list(results[1][2][4]["step"]) == [1, 2]
    finally:
        sync.close()
        native.close()


def test_native_is_gym_make_vec_default_and_takes_strings() -> None:
    envs = gym.make_vec(ENV_ID, num_envs=2, task="SystemWifiTurnOn", pixels=False)
    try:
        assert isinstance(envs, NativeVectorEnv)
        obs, _ = envs.reset(seed=0)
        label = obs["labels"][1][0]
        obs, reward, terminated, truncated, info = envs.step(["W", f"T {label}"])
        assert list(info["action"]) == ["W", f"T {label}"]
        assert obs["tree"][0] != obs["tree"][1]
        # Without copy=True the batch arrays are the env's storage, overwritten by the next step.
        again = envs.step(["W", "W"])[0]
        assert again["action_mask"] is obs["action_mask"]
        with pytest.raises(ValueError, match="expected 2 actions"):
            envs.step(["W"])
    finally:
        envs.close()
    copied = NativeVectorEnv(2, copy=True, task="SystemWifiTurnOn", pixels=False)
    try:
        first = copied.reset(seed=0)[0]
        assert copied.step(["W", "W"])[0]["action_mask"] is not first["action_mask"]
    finally:
        copied.close()


def test_shard_sizes_split_evenly() -> None:
    assert shard_sizes(7, 3) == [3, 2, 2]
    assert shard_sizes(2, 2) == [1, 1]
    assert sum(shard_sizes(64, 5)) == 64


@pytest.mark.parametrize(
    ("mode", "local_shard", "spin_s"),
    [
        (AutoresetMode.NEXT_STEP, True, DEFAULT_SPIN_S),
        (AutoresetMode.SAME_STEP, True, DEFAULT_SPIN_S),
        (AutoresetMode.NEXT_STEP, False, DEFAULT_SPIN_S),
        (AutoresetMode.NEXT_STEP, True, 0.0),  # both sides block at once: the pre-spin protocol
    ],
)
def test_sharded_equals_single_process_native(mode: AutoresetMode, local_shard: bool, spin_s: float) -> None:
    native = NativeVectorEnv(5, autoreset_mode=mode, pixels=True, **KWARGS)
    sharded = gym.make_vec(ENV_ID, num_envs=5, shards=2, autoreset_mode=mode, pixels=True, local_shard=local_shard, spin_s=spin_s, **KWARGS)
    try:
        assert isinstance(sharded, ShardedVectorEnv) and sharded.sizes == [3, 2]
        assert [t.spin_s for t in sharded.transports if isinstance(t, ProcessTransport)] == [spin_s] * (1 if local_shard else 2)
        # Shard 0 runs in this process unless asked otherwise; every other shard has a worker.
        assert len(sharded._processes) == (1 if local_shard else 2)
        want, got = rollout(native, 20), rollout(sharded, 20)
        for t, (w, g) in enumerate(zip(want, got, strict=True)):
            assert_same(w, g, f"step {t}")
        assert sharded.get_attr("max_steps") == native.get_attr("max_steps")
        # A masked reset reaches only the shards that hold a masked env.
        mask = np.array([False, False, False, True, False])
        want_reset = copy.deepcopy(native.reset(seed=1, options={"reset_mask": mask.copy()}))
        assert_same(want_reset, sharded.reset(seed=1, options={"reset_mask": mask.copy()}))
    finally:
        native.close()
        sharded.close()


def test_two_sharded_envs_stepped_in_a_pipeline_equal_one_native_env_each() -> None:
    """The pipelined loop: each batch's step_async is sent before the other batch is collected,
    so the policy of one runs while the other's shards step; results are unchanged."""
    halves = [ShardedVectorEnv(3, num_shards=1, local_shard=False, pixels=False, **KWARGS) for _ in range(2)]
    plain = [NativeVectorEnv(3, pixels=False, **KWARGS) for _ in range(2)]
    try:
        assert [type(t).__name__ for t in halves[0].transports] == ["ProcessTransport"]
        want = [rollout(env, 8, seed=s) for env, s in zip(plain, (3, 4), strict=True)]
        rngs = [np.random.default_rng(s) for s in (3, 4)]
        got: list[list[Any]] = [[], []]
        obs = []
        for j, env in enumerate(halves):
            o, info = env.reset(seed=(3, 4)[j])
            got[j].append(copy.deepcopy((o, info)))
            obs.append(o)
        halves[0].step_async(batch_actions(policy(rngs[0], obs[0], 3), obs[0]["labels"]))
        for _ in range(8):
            for j, env in enumerate(halves):
                if j == 0:
                    halves[1].step_async(batch_actions(policy(rngs[1], obs[1], 3), obs[1]["labels"]))
                result = env.step_wait()
                got[j].append(copy.deepcopy(result))
                obs[j] = result[0]
                if j == 0 and len(got[0]) <= 8:
                    env.step_async(batch_actions(policy(rngs[0], obs[0], 3), obs[0]["labels"]))
        for j in range(2):
            for t, (w, g) in enumerate(zip(want[j], got[j], strict=True)):
                assert_same(w, g, f"batch {j} step {t}")
        with pytest.raises(CerebellumError, match="without step_async"):
            halves[0].step_wait()
        halves[0].step_async(["W"] * 3)
        with pytest.raises(CerebellumError, match="again before step_wait"):
            halves[0].step_async(["W"] * 3)
        with pytest.raises(CerebellumError, match=r"reset\(\) while a step is in flight"):
            halves[0].reset(seed=0)
        halves[0].step_wait()  # the transport is still in step: the step's own answer comes back
    finally:
        for env in (*halves, *plain):
            env.close()


def test_sharded_worker_errors_reach_the_caller() -> None:
    sharded = ShardedVectorEnv(2, num_shards=2, task="SystemWifiTurnOn", pixels=False)
    try:
        sharded.reset(seed=0)
        with pytest.raises(AttributeError):
            sharded.call("no_such_method")
        # The workers survive an error and keep stepping.
        obs, *_ = sharded.step(["W", "W"])
        assert obs["goal"] == ("Turn wifi on.", "Turn wifi on.")
    finally:
        sharded.close()
    assert all(not p.is_alive() for p in sharded._processes)


@pytest.mark.xdist_group("ray")
def test_ray_actors_run_shards() -> None:
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False, object_store_memory=80 * 1024 * 1024)
    try:
        native = NativeVectorEnv(3, pixels=True, **KWARGS)
        sharded = ShardedVectorEnv(3, num_shards=2, workers="ray", actor_options={"num_cpus": 0}, pixels=True, **KWARGS)
        try:
            want, got = rollout(native, 8), rollout(sharded, 8)
            for t, (w, g) in enumerate(zip(want, got, strict=True)):
                assert_same(w, g, f"step {t}")
        finally:
            native.close()
            sharded.close()
    finally:
        if started:
            ray.shutdown()


def test_project_make_vec_builds_the_native_env_on_request() -> None:
    from cerebellum_gym.errors import ConfigError
    from cerebellum_gym.vector import make_vec

    envs = make_vec(ENV_ID, 2, "native", task="SystemWifiTurnOn", pixels=False, autoreset_mode=AutoresetMode.SAME_STEP)
    try:
        assert isinstance(envs, NativeVectorEnv) and envs.autoreset_mode == AutoresetMode.SAME_STEP
    finally:
        envs.close()
    with pytest.raises(ConfigError, match="no native vector env"):
        make_vec("Cerebellum-Adb-v0", 2, "native")


class _Grown(gym.ObservationWrapper[Any, Any, Any]):
    """A sub-env wrapper whose observation has a field the batch does not know (as a user's might)."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        assert isinstance(env.observation_space, spaces.Dict)
        self.observation_space = spaces.Dict({**env.observation_space.spaces, "steps": spaces.Box(0, 1000, (1,), np.int64)})

    def observation(self, observation: Any) -> Any:
        assert isinstance(observation, dict)  # the env's own dicts: the batch only keeps parts when the space is its own
        return {**observation, "steps": np.array([self.env.unwrapped._steps], np.int64)}  # type: ignore[attr-defined]


def test_a_sub_env_wrapper_that_grows_the_observation_falls_back_to_concatenation() -> None:
    native = NativeVectorEnv(2, wrap_env=_Grown, pixels=False, **KWARGS)
    sync = gym.vector.SyncVectorEnv([lambda: _Grown(make_env(backend="sim", pixels=False, **KWARGS)) for _ in range(2)])
    try:
        assert not native.native
        want, got = rollout(sync, 12), rollout(native, 12)
        assert list(got[-1][0]["steps"][:, 0]) == list(got[-1][4]["step"])
        for t, (w, g) in enumerate(zip(want, got, strict=True)):
            assert_same(w, g, f"step {t}")
    finally:
        native.close()
        sync.close()


class _Counting(gym.Wrapper[Any, Any, Any, Any]):
    """A sub-env wrapper that leaves the observation alone (it sees the env's parts) and counts steps."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        self.steps = 0

    def step(self, action: Any) -> Any:
        self.steps += 1
        return self.env.step(action)


@pytest.mark.parametrize("shards", [1, 2])
def test_a_sub_env_wrapper_that_keeps_the_space_keeps_the_batch_native_and_equal(shards: int) -> None:
    plain = NativeVectorEnv(3, pixels=True, **KWARGS)
    wrapped: Any = (
        NativeVectorEnv(3, wrap_env=_Counting, pixels=True, **KWARGS)
        if shards == 1
        else ShardedVectorEnv(3, num_shards=2, wrap_env=_Counting, pixels=True, **KWARGS)
    )
    try:
        if shards == 1:
            assert wrapped.native and all(isinstance(e, _Counting) for e in wrapped._steppers)
        want, got = rollout(plain, 10), rollout(wrapped, 10)
        for t, (w, g) in enumerate(zip(want, got, strict=True)):
            assert_same(w, g, f"step {t}")
        assert wrapped.get_attr("_steps") == plain.get_attr("_steps")
    finally:
        plain.close()
        wrapped.close()


def test_a_dead_shard_worker_is_a_device_loss() -> None:
    from cerebellum_gym.errors import DeviceLostError

    sharded = ShardedVectorEnv(2, num_shards=2, task="SystemWifiTurnOn", pixels=False)
    try:
        sharded.reset(seed=0)
        sharded._processes[-1].kill()
        sharded._processes[-1].join(5)
        with pytest.raises(DeviceLostError, match="shard 1"):
            sharded.step(["W", "W"])
    finally:
        sharded.close()


@pytest.mark.parametrize("spin_s", [-0.001, float("nan"), float("inf"), "0.002", None])
def test_a_spin_that_is_not_a_finite_time_is_refused(spin_s: Any) -> None:
    with pytest.raises(ConfigError, match="spin_s"):
        ShardedVectorEnv(2, num_shards=2, spin_s=spin_s, task="SystemWifiTurnOn", pixels=False)


def test_spin_polls_until_ready_or_its_time_is_up() -> None:
    calls = iter([False, False, True])
    assert _spin(lambda: next(calls), 5.0)  # ready on the third poll, long before the deadline
    polls = 0

    def never() -> bool:
        nonlocal polls
        polls += 1
        return False

    begin = time.perf_counter()
    assert not _spin(never, 0.01)
    assert time.perf_counter() - begin >= 0.01 and polls > 1
    polls = 0
    assert not _spin(never, 0.0) and polls == 0  # no spin: straight to the blocking wait


@pytest.mark.skipif(not hasattr(os, "eventfd"), reason="eventfd is Linux-only; elsewhere workers wait in the pipe")
def test_a_spinning_worker_takes_a_ring_in_its_spin_and_after_it() -> None:
    from multiprocessing import Pipe

    from cerebellum_gym.vector.shards import _new_bell, _wait_for_bell

    bell = _new_bell("fork")
    assert bell is not None
    parent, child = Pipe()
    try:
        for delay in (0.0, 0.3):  # a ring within the 0.1 s spin, and one after it (the blocking wait)
            ring = threading.Timer(delay, lambda: (parent.send(("step", ())), os.eventfd_write(bell, 1)))
            ring.start()
            _wait_for_bell(bell, child, spin_s=0.1)
            ring.join()
            assert child.recv() == ("step", ())
            with pytest.raises(BlockingIOError):  # the ring was consumed with its request
                os.eventfd_read(bell)
    finally:
        parent.close()
        child.close()
        os.close(bell)


@pytest.mark.skipif(not hasattr(os, "eventfd"), reason="eventfd is Linux-only; elsewhere workers wait in the pipe")
def test_a_shard_worker_waits_for_the_doorbell_and_notices_a_dead_parent() -> None:
    from multiprocessing import Pipe

    from cerebellum_gym.vector.shards import _new_bell, _wait_for_bell

    bell = _new_bell("fork")
    assert bell is not None and _new_bell("spawn") is None  # a spawned worker could not inherit it
    parent, child = Pipe()
    try:
        # A request and its ring: the wait returns and consumes the ring.
        parent.send(("step", ()))
        os.eventfd_write(bell, 1)
        _wait_for_bell(bell, child)
        assert child.recv() == ("step", ())
        with pytest.raises(BlockingIOError):
            os.eventfd_read(bell)
        # A parent gone while another process still holds its end of the pipe (a sibling worker
        # forked later inherits it): the wait notices that its parent process changed.
        with pytest.raises(EOFError, match="parent"):
            _wait_for_bell(bell, child, os.getppid() + 1)
        # A parent gone without ringing: the wait notices the pipe's end and returns.
        parent.close()
        waiter = threading.Thread(target=_wait_for_bell, args=(bell, child), daemon=True)
        waiter.start()
        waiter.join(10)
        assert not waiter.is_alive()
        with pytest.raises(EOFError):
            child.recv()
    finally:
        child.close()
        os.close(bell)


@pytest.mark.skipif(not hasattr(os, "eventfd"), reason="the check runs in the doorbell's wait (Linux)")
def test_shard_workers_exit_when_their_parent_is_killed() -> None:
    """Three shards, two workers: each worker holds the other's pipe end (fork inherits it), so
    only the parent check can tell them the parent is gone."""
    script = (
        "import os, sys, time\n"
        "from cerebellum_gym.vector.shards import ShardedVectorEnv\n"
        "envs = ShardedVectorEnv(3, num_shards=3, task='SystemWifiTurnOn', pixels=False)\n"
        "envs.reset(seed=0)\n"
        "print(' '.join(str(p.pid) for p in envs._processes), flush=True)\n"
        "time.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(workers) == 2
    finally:
        parent.kill()
        parent.wait(10)

    def alive(pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # leave no orphan behind when the check fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {left} outlived their killed parent"


def test_decoded_batch_actions_are_what_the_env_would_decode() -> None:
    """The native env's cached decoding of the batched structured form gives the env's own
    ``from_structured`` result for every action it decodes, and leaves the rest (typing, scrolls,
    empty slots, bad codes, non-str text, an answering ``F``) as mappings for the env to judge."""
    from cerebellum_gym.core.actions import CODES, Action, from_structured
    from cerebellum_gym.vector.native import decode_actions

    envs = NativeVectorEnv(2, task="ContactsAddContact", pixels=False)
    try:
        envs.reset(seed=1)
        labels = [env.screen.labels for env in envs.envs]  # type: ignore[union-attr]
        assert labels[0] and labels[1]
        decoded_codes: set[str] = set()
        for code in range(-1, len(CODES) + 1):
            for slot in (0, len(labels[0]) - 1, len(labels[0]), 99):
                for text in ("", "hi", " "):
                    codes, slots = np.array([code, code]), np.array([slot, 0])
                    batch = {"code": codes, "label": slots, "text": (text, text)}
                    for i, action in enumerate(decode_actions(batch, envs.envs)):
                        single = {"code": codes[i], "label": slots[i], "text": text}
                        if isinstance(action, Action):
                            assert action == from_structured(single, labels[i])
                            decoded_codes.add(action.code)
                        else:
                            assert_same(action, single)
                            assert type(action["code"]) is np.int64
        assert decoded_codes == set("TPBHWFI")
        # Lists (not arrays) and non-str text are passed through as per-env mappings.
        passed: list[dict[str, Any]] = [
            {"code": [0, 0], "label": [0, 0], "text": ("", "")},
            {"code": np.array([7, 7]), "label": np.zeros(2, int), "text": (1, "")},
        ]
        for other in passed:
            out = decode_actions(other, envs.envs)
            assert isinstance(out[0], dict)
    finally:
        envs.close()


@pytest.mark.parametrize("record", [False, True])
def test_sub_envs_return_elements_of_their_space_and_the_batch_steps_their_parts(record: bool, tmp_path: Any) -> None:
    """The batch writes its rows from ``step_parts`` (the env's and the recorder's); the sub-envs
    are left as they were built, so their own ``step`` still returns an element of their space."""
    from cerebellum_gym.core.observation import ObservationParts
    from cerebellum_gym.vector.native import speaks_parts

    envs = NativeVectorEnv(2, pixels=True, record=tmp_path / "ds" if record else None, **KWARGS)
    try:
        assert envs.native and all(speaks_parts(env) for env in envs._steppers)
        envs.reset(seed=3)
        envs.step(["W", "H"])
        for env in envs.envs:
            assert not hasattr(env, "observation_sink")
            obs, *_ = env.step("W")
            assert env.observation_space.contains(obs)
            parts, *_ = env.step_parts("W")
            assert type(parts) is ObservationParts
    finally:
        envs.close()


def test_step_entries_are_public_results() -> None:
    """What a shard answers with comes from step_entries' return value and the public arrays."""
    envs = NativeVectorEnv(2, pixels=False, **KWARGS)
    try:
        envs.reset(seed=0)
        done = envs.step_entries(["W", "F"])
        assert done.rewards == [float(r) for r in done.rewards] and done.terminations == [False, True]
        assert [i for i, _ in done.entries] == [0, 1]
        assert set(envs.arrays) >= {("action_mask",), ("label_mask",), ("history", "mask")}
    finally:
        envs.close()
