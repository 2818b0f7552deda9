"""The reference adapter's prompt, built once for the agent, the dataset exports and any trainer.

The model card trains and evaluates on a chat prompt: one user turn holding the goal, up to four
history frames (image, action taken, compact subtree of the acted element), the current
screenshot and its compact tree, the action legend and ``Next action:``; then the assistant turn
opened by the model's own chat template with thinking off (Qwen3.5's template adds an empty
think block). Everything here goes through the tokenizer's template, so a different template
(another base model) gives that model's own prompt.

- :func:`build_messages`: the chat messages (text and image items) and the images, in order.
- :func:`observation_from_messages`: the inverse, the observation a prompt was built from.
- :func:`render_prompt`: the messages rendered by the tokenizer's chat template.
- :func:`render_example`: a training example (that prompt, and the answer the template appends).
- :class:`PromptEncoder`: images fitted and processed, image tokens expanded, the card's limits
  applied (history frames dropped oldest first, then the tree cut), token ids ready for the model.

Example:
    >>> obs = {"goal": "Turn wifi on.", "tree": '[AB] TextView "Settings"', "history": {}}
    >>> messages, images = build_messages(obs)
    >>> print(messages[0]["content"][0]["text"])
    Task: Turn wifi on.
    <BLANKLINE>
    Current screen:
    [AB] TextView "Settings"
    <BLANKLINE>
    Actions: T <label>=tap, P <label>=long-press, K {text}=type text, U/D/L/R=scroll, B=back, H=home, W=wait, F=done, I=impossible.
    Next action:
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import numpy as np

from cerebellum_gym.core.actions import CODES
from cerebellum_gym.errors import CerebellumError

ACTION_LEGEND: Final = (
    "Actions: T <label>=tap, P <label>=long-press, K {text}=type text, U/D/L/R=scroll, B=back, H=home, W=wait, F=done, I=impossible."
)
IMAGE_PAD: Final = "<|image_pad|>"
#: Control-token spellings (``<|im_end|>``, ``<|image_pad|>``...) inside screen or goal text.
_CONTROL = re.compile(r"<\|")
_WORD_JOINER: Final = "\u2060"
#: A tree line's set-of-mark label (``[UE] Button "OK"``, indented or not).
_LABEL_LINE = re.compile(r"^\s*\[([^\]\s]+)\] ", re.MULTILINE)
#: A history frame's first line.
_STEP: Final = re.compile(r"^Step (\d+):$")

Message = dict[str, Any]


@dataclass(frozen=True)
class PromptLimits:
    """The card's inference limits (its eval command's flags).

    Attributes:
        history_len: history frames shown at most.
        history_width: history images are resized to this width (``None``: as given).
        current_width: the current screenshot is resized to this width (``None``: as given).
        history_gutter: blank (white) columns added on the right of each history image.
        current_gutter: the same for the current screenshot. The card names the figures (16 and
            32, proportional to the widths) but not their layout; a right-hand margin is our reading.
        max_tree_chars: the compact tree is cut at a line boundary to this many characters.
        max_seq_len: prompt tokens at most (images included).
        max_pix_rows: pixel rows over all images at most.
        max_mm_tokens: image tokens over all images at most.
    """

    history_len: int = 4
    history_width: int | None = 232
    current_width: int | None = 464
    history_gutter: int = 16
    current_gutter: int = 32
    max_tree_chars: int = 4000
    max_seq_len: int = 2600
    max_pix_rows: int = 12000
    max_mm_tokens: int = 2600


#: The limits of the card's held-out eval command.
CARD_LIMITS: Final = PromptLimits()


@dataclass(frozen=True)
class Frame:
    """One history frame as the prompt shows it."""

    step: int
    action: str
    subtree: str
    image: np.ndarray | None


def neutralize(text: str) -> str:
    """Screen and goal text with control-token spellings (``<|...|>``) broken by a word joiner,
    so untrusted text can neither end the user turn nor add image placeholders."""
    return _CONTROL.sub("<" + _WORD_JOINER + "|", text) if "<|" in text else text


def history_frames(observation: Mapping[str, Any], *, step: int | None = None, use_images: bool = True) -> list[Frame]:
    """The filled history frames, oldest first, numbered by absolute step.

    Args:
        observation: an env observation.
        step: the number of the step about to be taken (1 for the first action of an episode);
            ``None`` counts from the oldest frame shown (exact while the window is not full).
        use_images: keep the frames' screenshots.
    """
    history = observation.get("history") or {}
    mask = [bool(m) for m in np.asarray(history.get("mask", ())).tolist()]
    shots = history.get("screenshots") if use_images else None
    filled = [i for i, ok in enumerate(mask) if ok]
    current = step if step is not None else len(filled) + 1
    first = current - len(filled)
    return [
        Frame(
            step=first + n,
            action=str(history["actions"][i]),
            subtree=str(history["subtrees"][i]),
            image=np.asarray(shots[i]) if shots is not None else None,
        )
        for n, i in enumerate(filled)
    ]


def cut_tree(tree: str, max_chars: int) -> str:
    """``tree`` cut at a line boundary to ``max_chars``, with a final ``…`` line when cut (as the env cuts it)."""
    if len(tree) <= max_chars:
        return tree
    kept: list[str] = []
    size = 0
    for line in tree.splitlines():
        if size + len(line) + 1 > max_chars - 2:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join([*kept, "…"])


def visible_labels(tree: str, labels: Sequence[str]) -> tuple[str, ...]:
    """The labels of ``labels`` that ``tree`` (the tree as the prompt shows it, perhaps cut) marks
    on a line of its own, in ``labels``' order: only those may be tapped."""
    shown = set(_LABEL_LINE.findall(tree))
    return tuple(label for label in labels if label in shown)


def shown_tree(observation: Mapping[str, Any], limits: PromptLimits = CARD_LIMITS, tree_chars: int | None = None) -> str:
    """The tree as :func:`build_messages` puts it in the prompt (cut, before neutralizing)."""
    max_chars = limits.max_tree_chars if tree_chars is None else min(tree_chars, limits.max_tree_chars)
    return cut_tree(str(observation.get("tree", "")), max_chars)


def build_messages(
    observation: Mapping[str, Any],
    *,
    step: int | None = None,
    use_images: bool = True,
    limits: PromptLimits = CARD_LIMITS,
    drop_history: int = 0,
    tree_chars: int | None = None,
) -> tuple[list[Message], list[np.ndarray]]:
    """The chat messages of the card's prompt, and its images in order (history oldest first,
    then the current screen).

    The user turn's content is a list of ``{"type": "text", "text": ...}`` and ``{"type":
    "image"}`` items, as chat templates of vision models expect; the images themselves are
    returned beside it (unfitted: :class:`PromptEncoder` resizes them).

    Args:
        observation: an env observation (``goal``, ``tree``, ``history``, ``screenshot``).
        step: the absolute number of the step about to be taken (see :func:`history_frames`).
        use_images: include image items; without them the model reads text only.
        limits: history length and tree size.
        drop_history: leave out this many of the oldest frames (to fit the limits).
        tree_chars: cut the tree to fewer characters than ``limits.max_tree_chars``.
    """
    frames = history_frames(observation, step=step, use_images=use_images)[-limits.history_len :] if limits.history_len else []
    frames = frames[drop_history:]
    content: list[dict[str, Any]] = []
    images: list[np.ndarray] = []
    text = [f"Task: {neutralize(str(observation.get('goal', '')))}", ""]

    def image(array: np.ndarray) -> None:
        content.append({"type": "text", "text": "\n".join(text) + "\n"})
        content.append({"type": "image"})
        images.append(array)
        text.clear()
        text.append("")  # the newline after the image

    for frame in frames:
        text.append(f"Step {frame.step}:")
        if frame.image is not None:
            image(frame.image)
        text.append(f"Action taken: {neutralize(frame.action)}")
        if frame.subtree:
            text.append(neutralize(frame.subtree))
        text.append("")
    text.append("Current screen:")
    screenshot = observation.get("screenshot") if use_images else None
    if screenshot is not None:
        image(np.asarray(screenshot))
    text += [neutralize(shown_tree(observation, limits, tree_chars)), "", ACTION_LEGEND, "Next action:"]
    content.append({"type": "text", "text": "\n".join(text)})
    # Adjacent text items merge: the template concatenates them anyway.
    merged: list[dict[str, Any]] = []
    for item in content:
        if item["type"] == "text" and merged and merged[-1]["type"] == "text":
            merged[-1] = {"type": "text", "text": merged[-1]["text"] + item["text"]}
        elif item["type"] != "text" or item["text"]:
            merged.append(item)
    return [{"role": "user", "content": merged}], images


def unneutralize(text: str) -> str:
    """The inverse of :func:`neutralize` (text a prompt was built from)."""
    return text.replace("<" + _WORD_JOINER + "|", "<|")


def observation_from_messages(messages: Sequence[Mapping[str, Any]], images: Sequence[np.ndarray | None]) -> dict[str, Any]:
    """The observation an SFT export's user turn was built from (the inverse of
    :func:`build_messages`, beside it so that the two change together), with ``action_mask`` all ones
    (an export keeps none) and the labels its tree shows.

    Raises:
        CerebellumError: the messages are not the reference prompt.
    """
    user = next((m for m in messages if m.get("role") == "user"), None)
    if user is None:
        raise CerebellumError("the example has no user turn")
    content = user["content"]
    items = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
    # Text with one marker per image, in order.
    text = "".join("\x00" if item.get("type") == "image" else str(item.get("text", "")) for item in items)
    head, sep, rest = text.partition("\n\n")
    if not head.startswith("Task: ") or not sep:
        raise CerebellumError("the example's prompt does not start with 'Task: '")
    goal = head[len("Task: ") :]
    body, marker, tail = rest.rpartition("Current screen:\n")
    if not marker:
        raise CerebellumError("the example's prompt has no 'Current screen:'")
    image_index = 0
    shots: list[np.ndarray | None] = []
    screenshot = None
    if tail.startswith("\x00"):
        tail = tail[2:] if tail.startswith("\x00\n") else tail[1:]
    tree, _, _legend = tail.rpartition("\n\nActions: ")
    actions: list[str] = []
    subtrees: list[str] = []
    numbers: list[int] = []
    frames = [f for f in re.split(r"\n\n(?=Step \d+:\n)", "\n\n" + body.rstrip("\n")) if f.strip()]
    for frame in frames:
        lines = frame.split("\n")
        match = _STEP.match(lines[0])
        if not match:
            raise CerebellumError(f"unexpected history frame {lines[0]!r}")
        numbers.append(int(match.group(1)))
        lines = lines[1:]
        if lines and lines[0] == "\x00":
            shots.append(images[image_index] if image_index < len(images) else None)
            image_index += 1
            lines = lines[1:]
        if not lines or not lines[0].startswith("Action taken: "):
            raise CerebellumError("a history frame has no 'Action taken:'")
        actions.append(unneutralize(lines[0][len("Action taken: ") :]))
        subtrees.append(unneutralize("\n".join(lines[1:])))
    if "\x00" in text.rpartition("Current screen:\n")[2][:1]:
        screenshot = images[image_index] if image_index < len(images) else None
    tree = unneutralize(tree.rstrip("\n").removesuffix("\n…").removesuffix("…"))
    labels = tuple(_LABEL_LINE.findall(tree))
    obs: dict[str, Any] = {
        "goal": unneutralize(goal),
        "tree": tree,
        "labels": labels,
        "action_mask": np.ones(len(CODES), np.int8),
        "history": {"actions": tuple(actions), "subtrees": tuple(subtrees), "mask": np.ones(len(actions), np.int8)},
    }
    if shots and all(s is not None for s in shots):
        obs["history"]["screenshots"] = np.stack([np.asarray(s) for s in shots])
    if screenshot is not None:
        obs["screenshot"] = np.asarray(screenshot)
    obs["step"] = numbers[-1] if numbers else 0
    return obs


def render_prompt(tokenizer: Any, messages: Sequence[Message]) -> str:
    """``messages`` rendered by the tokenizer's own chat template, the assistant turn opened and
    thinking off (the card's prompt)."""
    return str(tokenizer.apply_chat_template(list(messages), tokenize=False, add_generation_prompt=True, enable_thinking=False))


def render_example(tokenizer: Any, messages: Sequence[Message], answer: str) -> tuple[str, str]:
    """A training example: the prompt exactly as inference renders it, and the target (the
    answer and the end of the turn, as the template writes them after that prompt).

    Raises:
        ValueError: the template does not render the answer after the inference prompt (training
            and inference would see different prompts).
    """
    prompt = render_prompt(tokenizer, messages)
    full = str(tokenizer.apply_chat_template([*messages, {"role": "assistant", "content": answer}], tokenize=False, enable_thinking=False))
    if not full.startswith(prompt):
        raise ValueError("the chat template renders an answered turn that does not start with the inference prompt")
    return prompt, full[len(prompt) :]


def fit_image(image: np.ndarray, width: int | None, gutter: int) -> np.ndarray:
    """``image`` resized to ``width`` (aspect kept) with ``gutter`` white columns on its right."""
    from PIL import Image

    out = np.asarray(image, dtype=np.uint8)
    if width is not None and out.shape[1] != width:
        height = max(1, round(out.shape[0] * width / out.shape[1]))
        out = np.asarray(Image.fromarray(out).resize((width, height), Image.Resampling.BILINEAR))
    if gutter > 0:
        out = np.concatenate([out, np.full((out.shape[0], gutter, 3), 255, np.uint8)], axis=1)
    return out


@dataclass
class EncodedPrompt:
    """A prompt ready for the model.

    Attributes:
        text: the rendered prompt with image placeholders expanded.
        input_ids: its token ids.
        images: the fitted images, in order.
        pixel_values: the image processor's patches for ``images`` (``None`` without images).
        image_grid_thw: each image's patch grid.
        image_tokens: each image's token count.
        history_shown: history frames in the prompt.
        tree_chars: the tree's character budget used.
        labels: the observation's labels that the prompt's (perhaps cut) tree shows.
    """

    text: str
    input_ids: list[int]
    images: list[np.ndarray]
    pixel_values: Any
    image_grid_thw: Any
    image_tokens: list[int]
    history_shown: int
    tree_chars: int
    labels: tuple[str, ...] = ()


class PromptEncoder:
    """Observations to model inputs, under the card's limits.

    Args:
        tokenizer: the model's tokenizer (its chat template renders the prompt).
        image_processor: the model's image processor; ``None`` for text only.
        limits: the card's limits, or others.
    """

    def __init__(self, tokenizer: Any, image_processor: Any = None, limits: PromptLimits = CARD_LIMITS) -> None:
        self.tokenizer = tokenizer
        self.image_processor = image_processor
        self.limits = limits
        self.merge = int(getattr(image_processor, "merge_size", 2) or 2) ** 2

    def with_limits(self, **changes: Any) -> PromptEncoder:
        """A copy with some limits changed."""
        return PromptEncoder(self.tokenizer, self.image_processor, replace(self.limits, **changes))

    def encode(self, observation: Mapping[str, Any], *, step: int | None = None) -> EncodedPrompt:
        """The prompt of ``observation``: history frames dropped oldest first, then the tree cut,
        until the sequence, pixel-row and image-token limits hold."""
        limits = self.limits
        use_images = self.image_processor is not None
        messages, raw = build_messages(observation, step=step, use_images=use_images, limits=limits)
        has_current = use_images and observation.get("screenshot") is not None
        n_history = len(raw) - int(has_current)
        fitted = [
            fit_image(img, limits.history_width, limits.history_gutter)
            if i < n_history
            else fit_image(img, limits.current_width, limits.current_gutter)
            for i, img in enumerate(raw)
        ]
        pixel_values: Any = None
        grid: Any = None
        tokens: list[int] = []
        patches: list[int] = []
        if fitted:
            vision = self.image_processor(images=fitted, return_tensors="pt")
            pixel_values, grid = vision["pixel_values"], vision["image_grid_thw"]
            patches = [int(np.prod(thw)) for thw in grid.tolist()]
            tokens = [p // self.merge for p in patches]
        frames_total = len(history_frames(observation, use_images=False)[-limits.history_len :]) if limits.history_len else 0
        tree_chars = limits.max_tree_chars
        drop = 0
        while True:
            messages, _ = build_messages(
                observation, step=step, use_images=use_images, limits=limits, drop_history=drop, tree_chars=tree_chars
            )
            # Images of dropped frames go too (frames without an image have none to drop).
            first_image = drop if n_history else 0
            kept_tokens = tokens[first_image:]
            text = expand_image_pads(render_prompt(self.tokenizer, messages), kept_tokens)
            ids = list(self.tokenizer(text, add_special_tokens=False)["input_ids"])
            rows = sum(img.shape[0] for img in fitted[first_image:])
            fits = len(ids) <= limits.max_seq_len and sum(kept_tokens) <= limits.max_mm_tokens and rows <= limits.max_pix_rows
            if fits:
                break
            if drop < frames_total:
                drop += 1
                continue
            if tree_chars <= 0:
                break  # nothing left to cut: send what there is
            # Cut a fifth of what is left each round: a few tokenizer calls, most of the tree kept.
            shown = min(tree_chars, len(str(observation.get("tree", ""))))
            tree_chars = int(shown * 0.8) if shown > 64 else 0
        if pixel_values is not None and first_image:
            pixel_values = pixel_values[sum(patches[:first_image]) :]
            grid = grid[first_image:]
        if grid is not None and len(grid) == 0:
            pixel_values = grid = None
        return EncodedPrompt(
            text=text,
            input_ids=ids,
            images=fitted[first_image:],
            pixel_values=pixel_values,
            image_grid_thw=grid,
            image_tokens=kept_tokens,
            history_shown=frames_total - drop,
            tree_chars=tree_chars,
            labels=visible_labels(shown_tree(observation, limits, tree_chars), [str(x) for x in observation.get("labels", ())]),
        )


def expand_image_pads(text: str, counts: Sequence[int]) -> str:
    """Each image placeholder of the rendered template (one ``<|image_pad|>``) repeated to its
    image's token count, in order."""
    pieces = text.split(IMAGE_PAD)
    if len(pieces) - 1 != len(counts):
        raise ValueError(f"the prompt has {len(pieces) - 1} image placeholders for {len(counts)} images")
    return pieces[0] + "".join(IMAGE_PAD * n + rest for n, rest in zip(counts, pieces[1:], strict=True))
