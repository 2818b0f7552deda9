"""Device correctness of the scorer and the sampler, checked on a CPU-only machine.

There is no GPU here, so the model's device is stood in for by ``meta``: the tiny Qwen3.5's
forward pass cannot run there (transformers reads values while building positions), so the
scorer's model is wrapped so that its forward returns logits of the right shape on ``meta``
(the one fake, at the boundary a GPU would be). Every tensor the scorer builds around those
logits must then be on ``meta`` too: mixing a CPU tensor into a ``meta`` computation raises, as
it would on CUDA. Sampling draws on the generator's device; the test checks that a seeded CPU
generator draws the same token from CPU probabilities as the decoder reports.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import gymnasium as gym
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

import cerebellum_gym  # noqa: E402,F401
from cerebellum_gym.agents.qwen_agent import QwenActionAgent, draw, resolve_device, slow_path_warning  # noqa: E402
from cerebellum_gym.agents.qwen_scorer import ActionScorer  # noqa: E402
from cerebellum_gym.training.rl import column  # noqa: E402


class MetaModel(torch.nn.Module):
    """Stands in for a model on an accelerator: parameters and logits live on ``meta``."""

    def __init__(self, vocab: int) -> None:
        super().__init__()
        self.weight = torch.nn.Parameter(torch.zeros(2, device="meta"))
        self.vocab = vocab
        self.seen: list[torch.device] = []

    def forward(self, input_ids: Any, logits_to_keep: int = 0, **kwargs: Any) -> Any:
        self.seen += [input_ids.device, *(v.device for v in kwargs.values() if isinstance(v, torch.Tensor))]
        rows = input_ids.shape[0]
        return SimpleNamespace(logits=torch.zeros(rows, logits_to_keep, self.vocab, device="meta") * self.weight[0])


@pytest.fixture(scope="module")
def agent(tiny_model: Path) -> QwenActionAgent:
    torch.set_num_threads(1)
    return QwenActionAgent.from_pretrained(tiny_model, device="cpu", dtype="float32", use_images=False)


def test_scorer_builds_every_tensor_on_the_model_device(agent: QwenActionAgent) -> None:
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False)
    obs, _ = env.reset(seed=0)
    scorer = ActionScorer(agent)
    label = next(iter(obs["labels"]))
    items = scorer.items([obs, obs], ["B", f"T {label}"], steps=[1, 1])
    real = agent.model
    vocab = int(real.get_output_embeddings().weight.shape[0])
    meta = MetaModel(vocab)
    agent.model = meta
    try:
        out = scorer.score(items)
        # RL's advantages are built on the log-probabilities' device.
        advantages = column([1.0, -1.0], out.token_logprobs)
        loss = -(advantages * out.token_logprobs).mean()
    finally:
        agent.model = real
    outputs = [out.logprob, out.token_logprobs, out.token_mask, out.code_margin, out.logits, loss]
    assert {t.device.type for t in outputs} == {"meta"}
    assert meta.seen and {d.type for d in meta.seen} == {"meta"}  # the inputs went to the model's device


def test_a_cpu_generator_draws_the_same_token_whatever_the_probabilities_device() -> None:
    probs = torch.softmax(torch.randn(50, generator=torch.Generator().manual_seed(3)), dim=-1)
    first = draw(probs, torch.Generator().manual_seed(7))
    # float64 stands for another device's copy: draw moves nothing when devices agree, and the
    # same seed gives the same index.
    again = draw(probs.double().float(), torch.Generator().manual_seed(7))
    assert first == again
    assert first == int(torch.multinomial(probs, 1, generator=torch.Generator().manual_seed(7)).item())


def test_auto_device_and_the_slow_path_warning(agent: QwenActionAgent) -> None:
    assert resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    assert resolve_device("cuda:1") == "cuda:1"
    assert slow_path_warning(agent.model, "cpu") is None
    message = slow_path_warning(agent.model, "cuda")
    import importlib.util

    if importlib.util.find_spec("fla") is None:
        assert message is not None and "cerebellum-gym[gpu]" in message and "Gated DeltaNet" in message
