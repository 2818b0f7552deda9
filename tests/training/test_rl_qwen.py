"""The RL trainer with the reference agent: constrained sampling, the scorer, the LoRA update.

Downloaded weights are the boundary tests cannot reach: the model is a tiny real
``Qwen3_5ForConditionalGeneration`` with random weights built locally (``qwen_tiny``, the ``tiny_base`` fixture), saved as
safetensors and loaded through the same path users take; the env is the real simulator.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cerebellum_gym.training.rl import RLConfig, RLTrainer, read_log

torch = pytest.importorskip("torch")
pytest.importorskip("peft")


def _trainer(base: Path, out: Path, *, resume: bool = False, **overrides: Any) -> RLTrainer:
    settings: dict[str, Any] = {
        "output": str(out),
        "policy": f"qwen:{base}?images=0",
        "updates": 1,
        "groups": 1,
        "group_size": 3,
        "max_steps": 3,
        "gate_every": 0,
        "progress": "off",
        "micro_batch": 4,
        "lr": 1e-2,
        "epochs": 2,
    }
    settings.update(overrides)
    return RLTrainer(RLConfig(**settings), resume=resume)


def test_sampled_actions_are_the_constraints_and_the_update_trains_only_the_lora(tiny_base: Path, tmp_path: Path) -> None:
    trainer = _trainer(tiny_base, tmp_path / "run")
    policy: Any = trainer.policy
    model = policy.agent.model
    frozen = {n: p.detach().clone() for n, p in model.named_parameters() if not p.requires_grad}
    episodes, _ = trainer.rollout(trainer.curriculum.draw(1, 1), 1)
    trainer.close()
    steps = [s for e in episodes for s in e.steps]
    assert steps and all(policy.allows(s) for s in steps)
    for k, e in enumerate(episodes):
        e.advantage = 1.0 if k == 0 else -0.5
    trainable = [s for s in steps if s.trainable]
    reference_before, _ = policy.token_logprobs(trainable, temperature=1.0, reference=True)
    stats = trainer.optimise(episodes, 1)
    assert stats["trained_steps"] == len(trainable) > 0
    assert stats["scorer_gap"] < 1e-4  # the scorer gives back the sampler's log-probabilities
    assert stats["kl"] > 0  # the second pass moved away from the starting adapter
    assert all(torch.equal(p, frozen[n]) for n, p in model.named_parameters() if not p.requires_grad)
    reference_after, _ = policy.token_logprobs(trainable, temperature=1.0, reference=True)
    assert torch.equal(reference_before, reference_after)  # the reference stays the starting adapter
    current, _ = policy.token_logprobs(trainable, temperature=1.0)
    assert not torch.equal(current.detach(), reference_after)


def test_a_run_saves_an_adapter_the_agent_loads(tiny_base: Path, tmp_path: Path) -> None:
    from cerebellum_gym.agents.qwen_agent import QwenActionAgent

    trainer = _trainer(tiny_base, tmp_path / "run", group_size=2, wrong_tap_penalty=0.5)
    trainer.run()
    assert [r["update"] for r in read_log(tmp_path / "run" / "log.jsonl")] == [1]
    last = tmp_path / "run" / "last"
    assert (last / "adapter_model.safetensors").is_file() and not list(last.glob("*.bin"))
    loaded = QwenActionAgent.from_pretrained(tiny_base, last, use_images=False)
    trained = dict(trainer.policy.agent.model.named_parameters())  # type: ignore[attr-defined]
    for name, param in loaded.model.named_parameters():
        if "lora_" in name:
            assert torch.equal(param, trained[name].detach())
    # The run continues from its own files, never from (or into) the folder it started from.
    resumed = _trainer(tiny_base, tmp_path / "run", resume=True, updates=2, group_size=2, wrong_tap_penalty=0.5)
    assert resumed.completed == 1
    resumed_agent: Any = resumed.policy
    for name, param in resumed_agent.agent.model.named_parameters():
        if "lora_" in name:
            assert torch.equal(param.detach(), trained[name].detach())
