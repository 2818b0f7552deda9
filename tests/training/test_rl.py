"""The GRPO trainer on the real simulator's native vector env, with the small torch policy.

Everything here is real: the native batched ``Cerebellum-Sim-v0``, the project's observation
encoder and flat action layout, torch's optimiser. The Qwen test uses a tiny Qwen3.5 with random
weights built locally (downloaded weights are the boundary tests cannot reach).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401
from cerebellum_gym.errors import CerebellumError, ConfigError
from cerebellum_gym.training.rl import (
    Episode,
    RLConfig,
    RLTrainer,
    adjusted_scores,
    group_advantages,
    read_log,
)
from cerebellum_gym.training.rl_policy import TinySlotPolicy, legal_action
from cerebellum_gym.wrappers.actions import FlatActionLayout

torch = pytest.importorskip("torch")

#: Timings differ run to run; everything else in a log line must not.
TIMINGS = {"rollout_s", "env_s", "policy_s", "update_s"}


def _config(out: Path, **overrides: Any) -> RLConfig:
    settings: dict[str, Any] = {
        "output": str(out),
        "updates": 2,
        "groups": 2,
        "group_size": 4,
        "max_steps": 6,
        "gate_every": 0,
        "progress": "off",
        "max_labels": 16,
    }
    settings.update(overrides)
    return RLConfig(**settings)


def _weights(folder: Path) -> dict[str, Any]:
    from safetensors.torch import load_file

    return load_file(str(folder / "policy.safetensors"))


def _oracle_actions(task: str, seed: int) -> list[str]:
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=False)
    env.reset(seed=seed)
    actions = []
    while True:
        action = env.unwrapped.oracle_action()  # type: ignore[attr-defined]
        actions.append(action)
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            assert info["success"]
            env.close()
            return actions


def test_group_advantages_and_scores() -> None:
    assert group_advantages([0.0, 0.0, 0.0]) == [0.0, 0.0, 0.0]
    assert group_advantages([1.0, 0.0, 0.0, 1.0], std_normalize=False) == [0.5, -0.5, -0.5, 0.5]
    normed = group_advantages([3.0, 1.0, 2.0, 2.0], std_normalize=True)
    assert abs(sum(normed)) < 1e-9 and abs(sum(a * a for a in normed) / 4 - 1.0) < 1e-9
    short = Episode("t", 0, 0, actions=["T AB", "F"], env_return=1.0, success=True)
    long = Episode("t", 0, 0, actions=["B", "B", "T AB", "F"], env_return=1.0, success=True)
    near = Episode("t", 0, 0, actions=["T AB", "B"], env_return=0.0, final_progress=1.0, wrong_taps=1)
    quit_early = Episode("t", 0, 0, actions=["F"], early_done=True)
    scores = adjusted_scores(
        [short, long, near, quit_early], shortest_path=0.4, wrong_tap_penalty=0.1, progress_credit=0.3, early_done_penalty=0.2
    )
    assert scores == pytest.approx([1.0, 1.0 - 0.4 * 2 / 4, 0.3 - 0.1, -0.2])
    assert adjusted_scores([short, long], shortest_path=0.0, wrong_tap_penalty=0.0) == [1.0, 1.0]  # off: no length bonus


def test_the_first_update_is_bit_for_bit_the_same_from_the_same_seed(tmp_path: Path) -> None:
    runs = []
    for name, seed in (("a", 0), ("b", 0), ("c", 1)):
        trainer = RLTrainer(_config(tmp_path / name, updates=1, seed=seed))
        trainer.run()
        line = {k: v for k, v in read_log(tmp_path / name / "log.jsonl")[0].items() if k not in TIMINGS}
        runs.append((line, _weights(tmp_path / name / "last")))
    (line_a, w_a), (line_b, w_b), (line_c, w_c) = runs
    assert line_a == line_b
    assert w_a.keys() == w_b.keys() and all(torch.equal(w_a[k], w_b[k]) for k in w_a)
    assert line_a["trained_steps"] > 0  # the update did move the weights
    assert not all(torch.equal(w_a[k], _weights(tmp_path / "a" / "reference")[k]) for k in w_a)
    assert line_c["tasks"] != line_a["tasks"] or line_c["seeds"] != line_a["seeds"]  # another seed, another update


def test_every_action_sent_is_one_the_constraint_allows(tmp_path: Path) -> None:
    trainer = RLTrainer(_config(tmp_path / "run"))
    sent: list[tuple[str, dict[str, Any]]] = []
    inner = trainer.policy.sample

    def watch(observations: Any, **kwargs: Any) -> Any:
        out = inner(observations, **kwargs)
        sent.extend((s.action, dict(o)) for s, o in zip(out, observations, strict=True))
        return out

    trainer.policy.sample = watch  # type: ignore[method-assign]
    episodes, _ = trainer.rollout(trainer.curriculum.draw(1, 2), 1)
    trainer.close()
    assert sent and all(legal_action(a, o) for a, o in sent)
    assert sum(e.length for e in episodes) == len(sent)

    class Rogue(TinySlotPolicy):
        def sample(self, observations: Any, **kwargs: Any) -> Any:
            out = super().sample(observations, **kwargs)
            out[0].action = "T ZZ"  # no such label on any screen
            return out

    rogue = RLTrainer(_config(tmp_path / "rogue"), policy=Rogue(trainer.policy.layout, seed=0))  # type: ignore[attr-defined]
    with pytest.raises(CerebellumError, match="'T ZZ', which its constraint does not allow"):
        rogue.rollout(rogue.curriculum.draw(1, 2), 1)
    rogue.close()


@pytest.mark.parametrize("minibatches", [1, 3])
def test_the_update_moves_probability_towards_positive_advantages(tmp_path: Path, minibatches: int) -> None:
    trainer = RLTrainer(_config(tmp_path / "run", kl=0.0, epochs=3, lr=1e-2, minibatches=minibatches))
    episodes, _ = trainer.rollout(trainer.curriculum.draw(1, 2), 1)
    trainer.close()
    for k, e in enumerate(episodes):
        e.advantage = 1.0 if k % 2 == 0 else -1.0
    steps = [(s, e.advantage) for e in episodes for s in e.steps]
    before, _ = trainer.policy.token_logprobs([s for s, _ in steps], temperature=1.0)
    stats = trainer.optimise(episodes, 1)
    after, _ = trainer.policy.token_logprobs([s for s, _ in steps], temperature=1.0)
    delta = (after - before).squeeze(1).detach()
    pos = [float(d) for d, (_, a) in zip(delta, steps, strict=True) if a > 0]
    neg = [float(d) for d, (_, a) in zip(delta, steps, strict=True) if a < 0]
    assert sum(pos) / len(pos) > 0 > sum(neg) / len(neg)
    assert stats["scorer_gap"] < 1e-5  # the first pass scores what was sampled (before any optimizer step)
    assert stats["trained_steps"] == len(steps)
    assert stats["optimizer_steps"] == 3 * minibatches


def test_minibatched_updates_are_deterministic_and_take_more_steps(tmp_path: Path) -> None:
    lines, weights = [], []
    for name in ("a", "b"):
        RLTrainer(_config(tmp_path / name, updates=1, minibatches=4)).run()
        lines.append({k: v for k, v in read_log(tmp_path / name / "log.jsonl")[0].items() if k not in TIMINGS})
        weights.append(_weights(tmp_path / name / "last"))
    assert lines[0] == lines[1] and all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
    assert lines[0]["optimizer_steps"] == 2 * 4  # epochs x minibatches
    RLTrainer(_config(tmp_path / "one", updates=1)).run()
    one = _weights(tmp_path / "one" / "last")
    assert not all(torch.equal(one[k], weights[0][k]) for k in one)  # another schedule, other weights
    with pytest.raises(ConfigError, match="minibatches must be at least 1"):
        RLTrainer(_config(tmp_path / "bad", minibatches=0))


def test_the_log_reports_what_the_update_learns_from(tmp_path: Path) -> None:
    """Advantage statistics and the sampling policy's entropy are in every log line: the first
    policy is uniform over the legal actions, so its entropy is the mean log of their count."""
    trainer = RLTrainer(_config(tmp_path / "run", updates=1))
    trainer.run()
    line = read_log(tmp_path / "run" / "log.jsonl")[0]
    assert 0.0 <= line["flat_groups"] <= 1.0 and line["advantage_abs"] >= 0.0
    size = trainer.policy.layout.n  # type: ignore[attr-defined]
    assert 0.5 < line["entropy"] <= math.log(size)


def test_the_small_policy_tells_apart_the_labels_of_the_app_drawer() -> None:
    """The encoder's default 32 buckets give "Camera" and "Settings" the same features (the same
    probability: greedy decoding picked Camera for every Settings task); the small policy's own
    do not."""
    from cerebellum_gym.wrappers.encoding import EncoderConfig, ObservationEncoder, slot_texts

    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)
    env.reset(seed=910001)
    obs, *_ = env.step("D")  # the app drawer
    env.close()
    owned = slot_texts(obs["tree"], obs["labels"])
    names = {label: text for label, (text, _) in owned.items()}
    assert any("Camera" in t for t in names.values()) and any("Settings" in t for t in names.values())

    def rows(encoder: Any) -> list[bytes]:
        width = encoder.slot_width
        slots = encoder.encode(obs)["slots"].reshape(-1, width)[: len(obs["labels"])]
        return [r.tobytes() for r in slots]

    narrow = rows(ObservationEncoder(EncoderConfig(max_labels=24, token_dim=32)))
    assert len(set(narrow)) < len(narrow)  # the collision this guards against
    policy = TinySlotPolicy(FlatActionLayout(max_labels=24, max_texts=0, codes="TBF"), seed=0)
    own = rows(policy.encoder)
    assert len(set(own)) == len(own)


def test_positive_replay_fills_a_failing_group_with_a_stored_success(tmp_path: Path) -> None:
    task = "OpenAppTaskEval"
    stored = _oracle_actions(task, 7)
    trainer = RLTrainer(_config(tmp_path / "on", groups=1))
    trainer.replay.add(task, 7, stored)
    trainer.curriculum.record(0, task, 0.0)  # recent success 0: below replay_below
    episodes, _ = trainer.rollout([(task, 1234)], 1)
    trainer.close()
    replayed = [e for e in episodes if e.replayed]
    assert len(replayed) == 1 and replayed[0].success and replayed[0].actions == stored and replayed[0].seed == 7
    assert all(e.seed == 1234 for e in episodes if not e.replayed)
    trainer.assign_advantages(episodes)
    assert replayed[0].advantage > 0
    off = RLTrainer(_config(tmp_path / "off", groups=1, positive_replay=False))
    off.replay.add(task, 7, stored)
    off.curriculum.record(0, task, 0.0)
    episodes, _ = off.rollout([(task, 1234)], 1)
    off.close()
    assert not any(e.replayed for e in episodes)


def test_resume_after_a_kill_continues_exactly(tmp_path: Path) -> None:
    whole = RLTrainer(_config(tmp_path / "whole", updates=4))
    whole.run()
    first = RLTrainer(_config(tmp_path / "cut", updates=2))
    first.run()
    # A kill after update 3's log line, before its checkpoint: the line is there, the checkpoint is not.
    log = tmp_path / "cut" / "log.jsonl"
    log.write_text(log.read_text() + json.dumps({**read_log(log)[-1], "update": 3}) + "\n" + '{"update": 4, "tor')
    resumed = RLTrainer(_config(tmp_path / "cut", updates=4), resume=True)
    assert resumed.completed == 2
    resumed.run()
    assert [r["update"] for r in read_log(log)] == [1, 2, 3, 4]
    a, b = _weights(tmp_path / "whole" / "last"), _weights(tmp_path / "cut" / "last")
    assert all(torch.equal(a[k], b[k]) for k in a)
    strip = [{k: v for k, v in r.items() if k not in TIMINGS} for r in read_log(tmp_path / "whole" / "log.jsonl")]
    assert strip == [{k: v for k, v in r.items() if k not in TIMINGS} for r in read_log(log)]
    assert (tmp_path / "cut" / "curves.png").stat().st_size > 0


def test_resume_and_start_refuse_what_does_not_fit(tmp_path: Path) -> None:
    RLTrainer(_config(tmp_path / "run", updates=1)).run()
    with pytest.raises(CerebellumError, match="already holds an RL run"):
        RLTrainer(_config(tmp_path / "run"))
    with pytest.raises(CerebellumError, match=r"other settings \(lr\)"):
        RLTrainer(_config(tmp_path / "run", lr=0.5), resume=True)
    with pytest.raises(CerebellumError, match="holds no RL run"):
        RLTrainer(_config(tmp_path / "empty"), resume=True)
    # A run saved before a setting existed resumes under its default; the failure filter compares as resolved.
    saved = tmp_path / "run" / "config.json"
    data = json.loads(saved.read_text())
    del data["config"]["minibatches"]
    saved.write_text(json.dumps(data))
    assert RLTrainer(_config(tmp_path / "run", updates=2, failure_filter=False), resume=True).completed == 1
    with pytest.raises(CerebellumError, match=r"other settings \(failure_filter\)"):
        RLTrainer(_config(tmp_path / "run", updates=2, failure_filter=True), resume=True)
    with pytest.raises(ConfigError, match="group_size must be at least 2"):
        RLTrainer(_config(tmp_path / "g", group_size=1))


def test_gates_keep_the_best_checkpoint_per_metric(tmp_path: Path) -> None:
    trainer = RLTrainer(_config(tmp_path / "run", updates=2, gate_every=1, gate_suite="tasks:OpenAppTaskEval:2", gate_num_envs=2))
    summary = trainer.run()
    lines = read_log(tmp_path / "run" / "log.jsonl")
    assert [("online" in r.get("gate", {})) for r in lines] == [True, True]
    best = summary["best"]["online"]
    assert best["value"] == max(r["gate"]["online"] for r in lines)
    # A tie goes to the later checkpoint: a from-scratch policy solves no Wi-Fi case at either gate.
    tied = RLTrainer(_config(tmp_path / "tied", updates=2, gate_every=1, gate_suite="tasks:SystemWifiTurnOn:2", gate_num_envs=2))
    assert tied.run()["best"]["online"] == {"value": 0.0, "update": 2}
    loaded = TinySlotPolicy.from_folder(tmp_path / "run" / "best" / "online")
    assert loaded.layout == trainer.policy.layout  # type: ignore[attr-defined]
    assert (tmp_path / "run" / "gates" / "update-00002" / "results.jsonl").is_file()
    sampled = RLTrainer(_config(tmp_path / "sampled", updates=1, gate_every=1, gate_suite="tasks:OpenAppTaskEval:2", gate_temperature=1.0))
    sampled.run()
    meta = json.loads((tmp_path / "sampled" / "gates" / "update-00001" / "run.json").read_text())
    assert meta["agent"] == "tiny-slot@t1"  # the gate sampled


def test_the_command_line_trains_resumes_and_names_a_bad_curriculum(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cerebellum_gym.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"stages": [{"name": "short", "tasks": ["SystemWifiTurnOn"], "threshold": 1.2}]}))
    assert main(["train", "rl", "--out", str(tmp_path / "x"), "--curriculum", str(bad)]) == 2
    assert "stage 'short': threshold must be within [0, 1], got 1.2" in capsys.readouterr().err
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"stages": [{"name": "none", "families": ["nosuch"]}]}))
    assert main(["train", "rl", "--out", str(tmp_path / "y"), "--curriculum", str(empty)]) == 2
    assert "family 'nosuch' has no tasks" in capsys.readouterr().err
    flags = ["train", "rl", "--out", str(tmp_path / "run"), "--groups", "1", "--group-size", "2", "--max-steps", "3"]
    flags += ["--gate-every", "0", "--progress", "off"]
    assert main([*flags, "--updates", "1"]) == 0
    assert main([*flags, "--updates", "2", "--resume"]) == 0
    assert [r["update"] for r in read_log(tmp_path / "run" / "log.jsonl")] == [1, 2]
    assert '"completed": 2' in capsys.readouterr().out


def test_the_offline_gate_scores_a_held_out_dataset(tmp_path: Path) -> None:
    from cerebellum_gym.agents import load_agent
    from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
    from cerebellum_gym.evaluation.suites import load_suite

    data = tmp_path / "heldout"
    suite = load_suite("tasks:OpenAppTaskEval,SystemWifiTurnOn:2")
    run_suite(load_agent("oracle"), suite, tmp_path / "rec", EvalConfig(record_dir=str(data), progress="off", pixels=False))
    trainer = RLTrainer(_config(tmp_path / "run", updates=1, gate_every=1, gate_suite=None, gate_dataset=str(data), gate_offline_n=0))
    trainer.run()
    gate = read_log(tmp_path / "run" / "log.jsonl")[0]["gate"]
    assert set(gate) == {"offline_exact"} and 0.0 <= gate["offline_exact"] <= 1.0
    assert (tmp_path / "run" / "best" / "offline_exact" / "policy.safetensors").is_file()


def test_a_real_kill_loses_nothing_and_counts_nothing_twice(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    flags = ["train", "rl", "--out", str(out), "--groups", "1", "--group-size", "2", "--max-steps", "3", "--gate-every", "0"]
    flags += ["--progress", "off"]
    child = subprocess.Popen([sys.executable, "-m", "cerebellum_gym", *flags, "--updates", "100000"], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len(read_log(out / "log.jsonl")) < 3 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
    finally:
        os.kill(child.pid, signal.SIGKILL)  # at whatever point of an update it is
        child.wait()
    done = len(read_log(out / "log.jsonl"))
    assert done >= 3
    from cerebellum_gym.cli import main

    assert main([*flags, "--updates", str(done + 2), "--resume"]) == 0
    numbers = [r["update"] for r in read_log(out / "log.jsonl")]
    assert numbers == list(range(1, done + 3))
    TinySlotPolicy.from_folder(out / "last")  # loadable


def test_failure_filtering_defaults_on_from_a_checkpoint_and_off_from_scratch(tmp_path: Path) -> None:
    scratch = RLTrainer(_config(tmp_path / "scratch", updates=1))
    assert not scratch.failure_filtering() and scratch.curriculum_config.fail_window == 0
    scratch.run()
    start = f"tiny:{tmp_path / 'scratch' / 'last'}"
    resumed = RLTrainer(_config(tmp_path / "from-checkpoint", policy=start))
    assert resumed.failure_filtering() and resumed.curriculum_config.fail_window == 16
    forced = RLTrainer(_config(tmp_path / "forced", failure_filter=True))
    assert forced.curriculum_config.fail_window == 16
    off = RLTrainer(_config(tmp_path / "off", policy=start, failure_filter=False))
    assert off.curriculum_config.fail_window == 0


def test_a_failed_group_hands_its_task_a_branch_point() -> None:
    """Where the furthest episode of an all-failed group last made progress (its prefix
    included) is kept once per task; a group with a success clears it."""
    from cerebellum_gym.training.rl import BranchStore

    store = BranchStore()
    near = Episode("T", 5, 0, actions=["A", "B", "C", "D"], prefix=["P"], progress_at=2, best_progress=0.5)
    far = Episode("T", 5, 0, actions=["A", "X"], progress_at=1, best_progress=0.25)
    none = Episode("U", 6, 1, actions=["B", "B"])
    store.record([far, near])
    store.record([none])  # never made progress: nothing to branch from
    assert store.items == {"T": (5, ["P", "A", "B"])}
    assert BranchStore(items={}).take("T") is None
    store.record([Episode("T", 5, 0, success=True)])
    assert store.items == {}


def test_a_group_starts_from_the_branch_point_and_shares_its_prefix(tmp_path: Path) -> None:
    """``branch_failures``: the task's next group starts from the episode state after the branch's
    actions; every episode of the group sees that same first screen, at that step."""
    task = "ExpenseDeleteMultiple"
    prefix = _oracle_actions(task, 11)[:4]
    trainer = RLTrainer(_config(tmp_path / "run", groups=1, branch_failures=True, max_steps=12))
    trainer.branches.items[task] = (11, prefix)
    seen: list[list[dict[str, Any]]] = []
    sample = trainer.policy.sample

    def recording(observations: list[dict[str, Any]], **kwargs: Any) -> Any:
        seen.append(observations)
        return sample(observations, **kwargs)

    trainer.policy.sample = recording  # type: ignore[method-assign]
    episodes, _ = trainer.rollout([(task, 999)], 1)
    assert all(e.prefix == prefix and e.seed == 11 for e in episodes) and len(episodes) == 4
    first = seen[0]
    assert len({o["tree"] for o in first}) == 1 and all(o["step"] == len(prefix) for o in first)
    reference = gym.make(
        "Cerebellum-Sim-v0", task=[task], pixels=False, invalid_action="penalize", invalid_action_penalty=-0.1, max_steps=12
    )
    reference.reset(seed=11, options={"task": task})
    for action in prefix:
        obs = reference.step(action)[0]
    assert obs["tree"] == first[0]["tree"]
    assert task not in trainer.branches.items  # used once
    trainer.close()
    reference.close()
