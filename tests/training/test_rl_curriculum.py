"""The RL curriculum: checked files, promotion on recent success, failure filtering, resumable
state, and the generalization split suites that stay out of training."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cerebellum_gym.evaluation.suites import load_suite
from cerebellum_gym.tasks import get_task_class
from cerebellum_gym.training.curriculum import (
    HELDOUT_SEED_BASE,
    TRAIN_SEED_LIMIT,
    Curriculum,
    CurriculumError,
    load_curriculum,
)


def _one(**stage: object) -> dict[str, object]:
    return {"stages": [{"name": "s", **stage}]}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_one(tasks=["SystemWifiTurnOnn"]), "no task named 'SystemWifiTurnOnn'; did you mean SystemWifiTurnOn"),
        (_one(families=["nosuchfamily"]), "family 'nosuchfamily' has no tasks"),
        (_one(tasks=["SystemWifiTurnOn"], threshold=1.5), "threshold must be within [0, 1], got 1.5"),
        (_one(tasks=["SystemWifiTurnOn"], threshold=-0.1), "threshold must be within [0, 1], got -0.1"),
        (_one(tasks=["SystemWifiTurnOn"], exclude=["SystemWifiTurnOn"]), "stage 's' has no tasks"),
        (_one(), "stage 's' has no tasks"),
        (_one(tasks=["SystemWifiTurnOn"], window=0), "window must be an integer of at least 1"),
        (_one(tasks=["SystemWifiTurnOn"], seeds=[1]), "unknown key(s) seeds"),
        ({"stages": []}, "'stages' must be a non-empty list"),
        ({"stages": [{"name": "a", "tasks": ["SystemWifiTurnOn"]}], "review": 2}, "review must be within [0, 1]"),
        ({"stages": [{"name": "a", "tasks": ["SystemWifiTurnOn"]}], "promotion": "any"}, "promotion must be one of every_task, pooled"),
    ],
)
def test_a_bad_curriculum_is_refused_by_name(data: dict[str, object], message: str) -> None:
    with pytest.raises(CurriculumError) as caught:
        load_curriculum(data)
    assert message in str(caught.value)


def test_a_curriculum_file_expands_families_less_exclusions(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"stages": [{"name": "clock", "families": ["clock"], "exclude": ["ClockTimerEntry"], "threshold": 0.5}]}))
    config = load_curriculum(path)
    assert set(config.stages[0].tasks) == {"ClockAddAlarm", "ClockStopWatchPausedVerify", "ClockStopWatchRunning"}
    assert config.stages[0].threshold == 0.5
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(CurriculumError, match="not valid JSON"):
        load_curriculum(tmp_path / "bad.json")


def test_promotion_needs_a_full_window_at_the_threshold() -> None:
    config = load_curriculum(
        {
            "stages": [
                {"name": "a", "tasks": ["SystemWifiTurnOn"], "threshold": 0.75, "window": 4},
                {"name": "b", "tasks": ["ClockAddAlarm"]},
            ]
        }
    )
    c = Curriculum(config)
    for rate in (1.0, 1.0, 1.0):
        assert c.record(1, "SystemWifiTurnOn", rate) == []  # three groups: the window is not full
    assert c.record(2, "SystemWifiTurnOn", 0.0) == ["promoted to stage 'b'"]  # (1 + 1 + 1 + 0) / 4 reaches 0.75
    assert c.promotions == [{"update": 2, "from": "a", "success": 0.75}]
    c2 = Curriculum(config)
    for rate in (1.0, 0.5, 0.5, 0.5):
        c2.record(1, "SystemWifiTurnOn", rate)
    assert c2.stage.name == "a"  # 0.625 < 0.75
    events = c2.record(2, "SystemWifiTurnOn", 1.0)  # window (0.5, 0.5, 0.5, 1.0) -> 0.625: still no
    assert c2.stage.name == "a" and not events
    events = c2.record(3, "SystemWifiTurnOn", 1.0)  # (0.5, 0.5, 1.0, 1.0) -> 0.75
    assert c2.stage.name == "b" and events == ["promoted to stage 'b'"]
    # After promotion the new stage is drawn from, with a review share of the earlier one.
    drawn = [t for u in range(4, 40) for t, _ in c2.draw(u, 4)]
    assert drawn.count("ClockAddAlarm") > drawn.count("SystemWifiTurnOn") > 0


def test_every_task_of_a_stage_must_be_mastered_before_promotion() -> None:
    """The default rule: an easy task at 100% does not carry a stage whose other task was never
    solved (the pooled rule, kept as an option, promotes on the two together)."""
    stages = [
        {"name": "a", "tasks": ["OpenAppTaskEval", "SystemWifiTurnOn"], "threshold": 0.5, "window": 4},
        {"name": "b", "tasks": ["ClockAddAlarm"]},
    ]
    each = Curriculum(load_curriculum({"stages": stages, "fail_window": 0}))
    assert each.config.promotion == "every_task"
    pooled = Curriculum(load_curriculum({"stages": stages, "fail_window": 0, "promotion": "pooled"}))
    for c in (each, pooled):
        for _ in range(6):
            c.record(1, "OpenAppTaskEval", 1.0)
        for _ in range(2):
            c.record(1, "SystemWifiTurnOn", 0.0)
    assert pooled.stage.name == "b"  # the last 4 groups of the stage: (1, 1, 0, 0) -> 0.5
    assert each.stage.name == "a"  # SystemWifiTurnOn: 2 groups, none solved
    each.record(2, "SystemWifiTurnOn", 1.0)
    assert each.stage.name == "a"  # 3 of its groups: the window is not full
    assert each.record(3, "SystemWifiTurnOn", 1.0) == ["promoted to stage 'b'"]  # (0, 0, 1, 1) -> 0.5
    # A task set aside by failure filtering starts over with no recent groups: it holds the stage.
    filtered = Curriculum(load_curriculum({"stages": stages, "fail_window": 4, "retry_after": 2}))
    for _ in range(4):
        filtered.record(1, "OpenAppTaskEval", 1.0)
        filtered.record(1, "SystemWifiTurnOn", 0.0)
    assert filtered.stage.name == "a" and filtered.set_aside == {"SystemWifiTurnOn": 3}
    for _ in range(4):
        filtered.record(4, "OpenAppTaskEval", 1.0)
    assert filtered.stage.name == "a"


def test_failure_filtering_sets_never_solved_tasks_aside_and_retries_them() -> None:
    config = load_curriculum(
        {"stages": [{"name": "a", "tasks": ["SystemWifiTurnOn", "OpenAppTaskEval"]}], "fail_window": 3, "retry_after": 5}
    )
    c = Curriculum(config)
    c.record(1, "SystemWifiTurnOn", 0.0)
    c.record(1, "SystemWifiTurnOn", 0.0)
    assert c.record(1, "SystemWifiTurnOn", 0.0) == ["set aside SystemWifiTurnOn until update 6"]
    assert {t for u in range(2, 6) for t, _ in c.draw(u, 8)} == {"OpenAppTaskEval"}
    assert "SystemWifiTurnOn" in {t for t, _ in c.draw(6, 16)}  # retried
    # A task solved once in its recent groups is kept.
    c.record(7, "OpenAppTaskEval", 0.0)
    c.record(7, "OpenAppTaskEval", 0.125)
    assert c.record(7, "OpenAppTaskEval", 0.0) == []
    # Off (fail_window 0): never set aside.
    off = Curriculum(load_curriculum({"stages": [{"name": "a", "tasks": ["SystemWifiTurnOn"]}], "fail_window": 0}))
    assert all(off.record(1, "SystemWifiTurnOn", 0.0) == [] for _ in range(40))


def test_draws_are_a_function_of_seed_update_and_state() -> None:
    config = load_curriculum("default")
    a, b = Curriculum(config, seed=3), Curriculum(config, seed=3)
    assert a.draw(7, 5) == b.draw(7, 5)
    assert a.draw(7, 5) != Curriculum(config, seed=4).draw(7, 5)
    assert all(0 <= seed < TRAIN_SEED_LIMIT for _, seed in a.draw(1, 50))
    for task in config.stages[0].tasks:  # every task of the first stage mastered
        for rate in (1.0,) * 8:
            a.record(1, task, rate)
    restored = Curriculum(config, seed=3)
    restored.load_state_dict(json.loads(json.dumps(a.state_dict())))
    assert restored.stage.name == a.stage.name == "contacts-clock"
    assert restored.draw(9, 6) == a.draw(9, 6)


def test_the_split_suites_stay_out_of_training() -> None:
    config = load_curriculum("default")
    trained = set(config.tasks)
    apps = {get_task_class(t).app for t in trained}
    instances = load_suite("rl-unseen-instances")
    assert {c.task for c in instances.cases} == trained
    assert all(c.seed >= HELDOUT_SEED_BASE for c in instances.cases)
    templates = load_suite("rl-unseen-templates")
    assert not {c.task for c in templates.cases} & trained
    assert {c.app for c in templates.cases} <= apps
    unseen_apps = load_suite("rl-unseen-apps")
    assert not {c.app for c in unseen_apps.cases} & apps
    gate = load_suite("rl-short-heldout")
    assert {c.task for c in gate.cases} == set(config.stages[0].tasks)
    assert all(c.seed >= HELDOUT_SEED_BASE for c in gate.cases)
