"""AndroidWorld's own Tasks.org, OpenTracks and Joplin questions on the served simulator, end to end: its
``initialize_task`` seeds the apps' databases over adb, the simulator's oracle reads the answer
off the app and says ``F {answer}``, which reaches AndroidWorld's judge (``interaction_cache``);
AndroidWorld scores 1.0, a wrong answer and a withheld one below 1.0, and the project's judge
agrees each time.

Real: AndroidWorld (``initialize_task``, ``is_successful``, ``tear_down``), android_env's adb
controller, a private adb server and the simulator's adbd (``benchmarks/androidworld/
conformance.py``'s world); nothing is replaced.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("android_world", reason="AndroidWorld is not installed (scripts/dev.sh test installs it)")
pytest.importorskip("adbutils")

from cerebellum_gym.loader import make_env
from cerebellum_gym.tasks import task_names
from cerebellum_gym.tasks.androidworld import task_class
from cerebellum_gym.tasks.catalog import BUILTIN

QUESTIONS = [n for n in task_names() if n.startswith(("Tasks", "SportsTracker", "Notes"))]


@pytest.fixture(scope="module")
def conformance() -> ModuleType:
    from test_androidworld_conformance_doc import load  # the benchmark script, loaded as a module

    return load()


@pytest.fixture(scope="module")
def world(conformance: ModuleType) -> Iterator[Any]:
    with conformance.served_world() as served:
        yield served


def answered(world: Any, name: str, seed: int, wrong: bool) -> tuple[float, float]:
    """AndroidWorld's and the project's verdicts on the right (or a wrong) answer, said at once."""
    world.restore()
    env = make_env(task_class(name), backend="androidworld", device=world.device(), pixels=False)
    try:
        env.reset(seed=seed)
        assert env.task is not None
        cls = BUILTIN.get(name)
        own = cls(cls.from_androidworld(dict(env.task.params)))
        own.baseline(world.server.phone)
        reading = own._reading  # type: ignore[attr-defined]
        answer = reading.answer
        if wrong:
            items = answer.split(", ")
            if reading.expected.kind == "number":
                answer = str(round(float(answer) + (reading.expected.tolerance or 0) + 1))
            else:
                answer = ", ".join(items[:-1]) if len(items) > 1 else "Something else entirely"
        own_score = own.progress(world.server.phone, answer)
        _, _, terminated, _, info = env.step(f"F {answer}")
        assert terminated
        return float(info["progress"]), own_score
    finally:
        env.close()


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", QUESTIONS)
def test_the_oracle_passes_androidworlds_judge_and_a_withheld_answer_does_not(
    conformance: ModuleType, world: Any, name: str, seed: int
) -> None:
    """The conformance matrix's row of the task at three seeds (AndroidWorld draws other days,
    categories, titles and noise at each)."""
    row = conformance.run_task(world, name, seed)
    assert row.initialize == "ok" and row.reason == "", row
    assert (row.aw_oracle, row.own_oracle, row.aw_near, row.own_near) == (1.0, 1.0, 0.0, 0.0)
    assert row.near_miss == "the answer withheld"


@pytest.mark.parametrize("name", QUESTIONS)
def test_a_wrong_answer_fails_both_judges_and_the_right_one_passes_both(world: Any, name: str) -> None:
    assert answered(world, name, 3, wrong=False) == (1.0, 1.0)
    aw, own = answered(world, name, 3, wrong=True)
    assert aw < 1.0 and own < 1.0
