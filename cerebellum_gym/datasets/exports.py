"""Exports of a recorded dataset to the formats training and offline-RL tools read.

- :func:`export_parquet`: Parquet files that Hugging Face ``datasets`` loads directly
  (``datasets.load_dataset(OUT, "steps")``), images as encoded PNG bytes typed as ``Image``;
- :func:`export_minari`: a Minari dataset (Farama's offline-RL standard), loaded back with
  ``minari.load_dataset``;
- :func:`export_sft`: supervised examples, each prompt built by the reference agent's own prompt
  builder (``agents/qwen_prompt.py``: chat messages, and with a tokenizer the text its chat
  template renders), with the recorded action as the target;
- :func:`export_dpo`: trajectory-level preference pairs of the same task and parameters,
  deduplicated by a content hash of the action sequences.

Parquet and Minari need the ``datasets`` extra (pyarrow, Hugging Face ``datasets``, minari).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import numpy as np

from cerebellum_gym.datasets.format import (
    FORMAT_VERSION,
    IMAGES_DIR,
    DatasetError,
    atomic_write,
    canonical_json,
    image_path,
    jsonable,
    unbits,
    unicode_safe,
)
from cerebellum_gym.datasets.offline import canonical
from cerebellum_gym.datasets.reader import Dataset, Episode, Step, open_dataset

STEPS_PER_SHARD: Final = 2000
#: The text entries of a Minari export's observations.
_TEXT_OBSERVATIONS: Final = ("goal", "tree", "labels", "history_actions")
IMAGE_COLUMNS: Final = ("screenshot",)
IMAGE_LIST_COLUMNS: Final = ("history_screenshots",)


def _open(dataset: Dataset | str | os.PathLike[str]) -> Dataset:
    return dataset if isinstance(dataset, Dataset) else open_dataset(dataset)


def output_folder(data: Dataset, out: str | os.PathLike[str], *, writes_into: tuple[str, ...] = ()) -> Path:
    """``out``, made if missing, for an export of ``data`` that also writes into its sub-folders
    ``writes_into``.

    Raises:
        DatasetError: ``out`` is a file, or it or a folder written into is the dataset or inside
            it (an export must not add to, or overwrite, what it reads: ``export parquet data .``
            would write ``data/steps-*.parquet`` into a dataset called ``data``), or cannot be made.
    """
    root = Path(out)
    source = data.root.resolve()
    for target in (root, *(root / sub for sub in writes_into)):
        if target.resolve().is_relative_to(source):
            raise DatasetError(f"the output folder {target} is inside the dataset {data.root}; choose a folder outside it")
    if root.exists() and not root.is_dir():
        raise DatasetError(f"the output folder {root} exists and is not a folder")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatasetError(f"cannot make the output folder {root}: {exc.strerror or exc}") from None
    return root


def _json_line(record: Any) -> str:
    """One JSONL line; text that is not valid Unicode (a lone surrogate an agent typed) is kept
    exact as ``\\u`` escapes, which the UTF-8 file could not hold raw."""
    text = json.dumps(record, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record)
    return text + "\n"


def _need(module: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise DatasetError(f"this export needs the 'datasets' extra (pip install 'cerebellum-gym[datasets]'): {exc}") from exc


# --- Parquet / Hugging Face datasets ------------------------------------------------------------


def _step_record(data: Dataset, step: Step, images: bool) -> dict[str, Any]:
    obs = step.observation(images=False)
    info = step.info
    meta = step.episode.meta

    def image(ident: str | None) -> dict[str, Any] | None:
        if ident is None:
            return None
        return {"bytes": data.png_bytes(ident) if images else None, "path": f"{ident}.png"}

    history = obs["history"]
    return {
        "episode_id": step.episode_id,
        "t": step.t,
        "task": str(meta.get("task", "")),
        "agent": str(meta.get("agent", "")),
        "goal": obs["goal"],
        "tree": obs["tree"],
        "labels": list(obs["labels"]),
        "action_mask": obs["action_mask"].tolist(),
        "label_mask": obs["label_mask"].tolist(),
        "screenshot": image(obs.get("screenshot")),
        "history_actions": list(history["actions"]),
        "history_subtrees": list(history["subtrees"]),
        "history_mask": history["mask"].tolist(),
        "history_screenshots": [image(i) for i in history["screenshots"]] if "screenshots" in history else None,
        "action": step.action,
        "reward": step.reward,
        "terminated": step.terminated,
        "truncated": step.truncated,
        "progress": None if info is None else float(info.get("progress") or 0.0),  # null: a non-finite value
        "success": None if info is None else bool(info.get("success", False)),
        "invalid_action": None if info is None else bool(info.get("invalid_action", False)),
        "error": None if info is None else str(info.get("error", "")),
        "info": None if info is None else json.dumps(jsonable(info), ensure_ascii=False, sort_keys=True),
    }


def _episode_record(episode: Episode) -> dict[str, Any]:
    meta = episode.meta
    return {
        "episode_id": episode.episode_id,
        "status": episode.status,
        "complete": episode.complete,
        "task": str(meta.get("task", "")),
        "task_params": canonical_json(meta.get("task_params") or {}),
        "goal": str(meta.get("goal", "")),
        "seed": meta.get("seed"),
        "agent": str(meta.get("agent", "")),
        "env_id": meta.get("env_id"),
        "env_kwargs": canonical_json(meta.get("env_kwargs") or {}),
        "backend": str(meta.get("backend", "")),
        "success": bool(meta.get("success", False)),
        "progress": float(meta.get("progress", 0.0) or 0.0),
        "return": float(meta.get("return", 0.0) or 0.0),
        "steps": len(episode.actions),
        "meta": json.dumps(jsonable(meta), ensure_ascii=False, sort_keys=True),
    }


def _hf_schema_metadata(schema: Any) -> bytes | None:
    """The ``huggingface`` schema metadata that types the image columns as ``Image`` (``None``
    when the ``datasets`` package is not installed: the files are plain Parquet then)."""
    try:
        import datasets
    except ImportError:
        return None
    features = datasets.Features.from_arrow_schema(schema)
    for name in IMAGE_COLUMNS:
        if name in features:
            features[name] = datasets.Image()
    list_type = getattr(datasets, "List", None) or datasets.Sequence
    for name in IMAGE_LIST_COLUMNS:
        if name in features:
            features[name] = list_type(datasets.Image())
    return json.dumps({"info": {"features": features.to_dict()}}).encode()


def _arrow_table(pa: Any, rows: list[dict[str, Any]]) -> Any:
    """``rows`` as an Arrow table; Arrow holds only valid UTF-8, so lone surrogates (text an agent
    typed) become U+FFFD, only in tables that have any."""
    try:
        return pa.Table.from_pylist(rows)
    except UnicodeEncodeError:
        return pa.Table.from_pylist(unicode_safe(rows))


def _readme(episodes: int, steps: int) -> str:
    return (
        "---\n"
        "configs:\n"
        "- config_name: steps\n"
        "  data_files: data/steps-*.parquet\n"
        "  default: true\n"
        "- config_name: episodes\n"
        "  data_files: episodes.parquet\n"
        "---\n\n"
        f"# cerebellum-gym dataset (format version {FORMAT_VERSION})\n\n"
        f"{episodes} episodes, {steps} steps. Load with `datasets.load_dataset(<this folder>, 'steps')` "
        "(or 'episodes'). Fields: see cerebellum-gym's docs/datasets.md.\n"
    )


def export_parquet(
    dataset: Dataset | str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    images: bool = True,
    complete_only: bool = False,
    steps_per_shard: int = STEPS_PER_SHARD,
) -> dict[str, Any]:
    """Write ``out/data/steps-NNNNN.parquet`` (one row per step), ``out/episodes.parquet`` and a
    ``README.md`` whose header lets Hugging Face ``datasets`` load the folder by name.

    Args:
        images: embed the PNG bytes (``False``: keep only the image ids in ``path``).
        complete_only: leave out interrupted episodes.

    Returns:
        Counts: ``episodes``, ``steps``, ``shards``, ``bytes``.
    """
    pa = _need("pyarrow")
    pq = _need("pyarrow.parquet")
    data = _open(dataset)
    root = output_folder(data, out, writes_into=("data",))
    (root / "data").mkdir(exist_ok=True)
    for old in (root / "data").glob("steps-*.parquet"):
        old.unlink()
    episodes: list[dict[str, Any]] = []
    shard: list[dict[str, Any]] = []
    shards = steps = 0

    def flush() -> None:
        nonlocal shards, shard
        if not shard:
            return
        table = _arrow_table(pa, shard)
        hf = _hf_schema_metadata(table.schema)
        if hf is not None:
            table = table.replace_schema_metadata({**(table.schema.metadata or {}), b"huggingface": hf})
        pq.write_table(table, root / "data" / f"steps-{shards:05d}.parquet")
        shards += 1
        shard = []

    for episode in data.episodes(complete_only=complete_only):
        episodes.append(_episode_record(episode))
        for step in episode.steps():
            shard.append(_step_record(data, step, images))
            steps += 1
            if len(shard) >= steps_per_shard:
                flush()
    flush()
    if not episodes:  # a folder Hugging Face cannot load; say so now rather than there
        raise DatasetError(f"no {'complete ' if complete_only else ''}episode in {data.root} to export")
    pq.write_table(_arrow_table(pa, episodes), root / "episodes.parquet")
    (root / "README.md").write_text(_readme(len(episodes), steps))
    size = sum(p.stat().st_size for p in root.rglob("*.parquet"))
    return {"episodes": len(episodes), "steps": steps, "shards": shards, "bytes": size}


# --- Minari -----------------------------------------------------------------------------------


def minari_spaces(episode: Episode, *, pixels: bool) -> tuple[Any, Any]:
    """The flat observation space and the text action space of a Minari export."""
    from gymnasium import spaces

    from cerebellum_gym.core.spaces import UnicodeText

    first = episode.rows[0]
    entries: dict[str, Any] = {
        "goal": UnicodeText(10_000),
        "tree": UnicodeText(100_000),
        "labels": UnicodeText(10_000),
        "history_actions": UnicodeText(100_000),
        "action_mask": spaces.MultiBinary(len(first.get("action_mask", ""))),
        "label_mask": spaces.MultiBinary(len(first.get("label_mask", ""))),
    }
    if pixels and first.get("screenshot"):
        shape = episode.dataset.image(first["screenshot"]).shape
        entries["screenshot"] = spaces.Box(0, 255, shape, np.uint8)
    return spaces.Dict(entries), UnicodeText(5_000)


def export_minari(
    dataset: Dataset | str | os.PathLike[str],
    dataset_id: str,
    *,
    root: str | os.PathLike[str] | None = None,
    pixels: bool = True,
    jpeg: bool = True,
    description: str | None = None,
) -> Any:
    """Write the complete episodes as a Minari dataset and return it (a ``MinariDataset``).

    Observations are flattened to what Minari's storage holds: the screenshot (an image space:
    JPEG on disk when ``jpeg``, as Minari does by default, else raw arrays), the goal, the tree,
    the labels (space-separated), the history actions (one per line) and the two masks. Actions
    are the action strings. ``infos`` carry ``progress``, ``success``, ``invalid_action`` and
    ``error``. Episode ids follow recording order; each episode's seed is kept.

    Args:
        dataset_id: the Minari id, e.g. ``"cerebellum/sim-oracle-v0"``.
        root: the Minari datasets folder (default: ``MINARI_DATASETS_PATH`` or ``~/.minari/datasets``).
        pixels: include the screenshot.
        jpeg: JPEG-encode screenshots (Minari's default; lossy and small).
    """
    minari = _need("minari")
    from minari.data_collector.episode_buffer import EpisodeBuffer

    data = _open(dataset)
    if root is not None:
        output_folder(data, root)
    episodes = [e for e in data.episodes(complete_only=True) if len(e.rows) >= 2]
    if not episodes:
        raise DatasetError(f"no complete episode in {data.root} to export")
    obs_space, act_space = minari_spaces(episodes[0], pixels=pixels)
    buffers = []
    for index, episode in enumerate(episodes):
        observations: dict[str, list[Any]] = {key: [] for key in obs_space.spaces}
        infos: dict[str, list[Any]] = {"progress": [], "success": [], "invalid_action": [], "error": []}
        reset_info = episode.meta.get("reset_info") or {}
        for step in episode.steps():
            row = step.row
            observations["goal"].append(row.get("goal", episode.meta.get("observation_goal", "")))
            observations["tree"].append(row.get("tree", ""))
            observations["labels"].append(" ".join(row.get("labels", ())))
            observations["history_actions"].append("\n".join(row.get("history", {}).get("actions", ())))
            observations["action_mask"].append(unbits(row.get("action_mask", "")))
            observations["label_mask"].append(unbits(row.get("label_mask", "")))
            if "screenshot" in observations:
                if not row.get("screenshot"):
                    raise DatasetError(f"episode {episode.episode_id} step {step.t} has no screenshot, unlike the first step exported")
                observations["screenshot"].append(np.asarray(data.image(row["screenshot"])))
            # Minari stores fixed-shape spaces: say which step breaks that, before Minari fails on it.
            for key in ("action_mask", "label_mask", "screenshot"):
                if key in observations and observations[key][-1].shape != obs_space[key].shape:
                    raise DatasetError(
                        f"episode {episode.episode_id} step {step.t}: {key} has shape {observations[key][-1].shape}, "
                        f"not {obs_space[key].shape} as the first step exported; Minari needs one shape"
                    )
        step_infos = [reset_info] + [r.get("info") or {} for r in episode.rows[:-1]]
        for info in step_infos:
            infos["progress"].append(float(info.get("progress") or 0.0))
            infos["success"].append(bool(info.get("success", False)))
            infos["invalid_action"].append(bool(info.get("invalid_action", False)))
            infos["error"].append(str(info.get("error", "")))
        rows = episode.rows[:-1]
        seed = episode.meta.get("seed")
        # Minari stores Arrow, which holds only valid UTF-8 (see _arrow_table).
        observations = {k: unicode_safe(v) if k in _TEXT_OBSERVATIONS else v for k, v in observations.items()}
        infos["error"] = unicode_safe(infos["error"])
        buffers.append(
            EpisodeBuffer(
                id=index,
                seed=seed if isinstance(seed, int) and 0 <= seed < 2**63 else None,  # Minari stores an int64
                options=unicode_safe(episode.meta.get("options")) or None,
                observations={k: v for k, v in observations.items()},
                actions=unicode_safe([str(r.get("action")) for r in rows]),
                rewards=[float(r.get("reward") or 0.0) for r in rows],
                terminations=[bool(r.get("terminated")) for r in rows],
                truncations=[bool(r.get("truncated")) for r in rows],
                # Plain lists: minari 0.5 cannot read back 1-D array infos (an empty shape tag).
                infos=infos,
            )
        )
    agents = sorted({unicode_safe(str(e.meta.get("agent", ""))) for e in episodes})
    env_ids = sorted({unicode_safe(str(e.meta.get("env_id", ""))) for e in episodes})
    text = description or (
        f"cerebellum-gym episodes ({', '.join(env_ids)}) recorded from {', '.join(agents)}; "
        f"exported from {data.root.name} (format version {FORMAT_VERSION})."
    )
    with _minari_root(root), warnings.catch_warnings(), _minari_errors(dataset_id):
        # Minari warns about every optional metadata field left out (author, e-mail, env spec).
        warnings.simplefilter("ignore", UserWarning)
        return minari.create_dataset_from_buffers(
            dataset_id,
            buffers,
            env=None,
            algorithm_name=", ".join(agents) or None,
            action_space=act_space,
            observation_space=obs_space,
            description=unicode_safe(text),
            data_format="arrow",
            jpeg_encoding=jpeg,
        )


@contextlib.contextmanager
def _minari_errors(dataset_id: str) -> Iterator[None]:
    # Minari says what is wrong with an id (malformed, already taken) as a plain ValueError.
    try:
        yield
    except ValueError as exc:
        raise DatasetError(f"minari dataset {dataset_id!r}: {exc}") from exc


@contextlib.contextmanager
def _minari_root(root: str | os.PathLike[str] | None) -> Iterator[None]:
    if root is None:
        yield
        return
    old = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(Path(root).resolve())
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("MINARI_DATASETS_PATH", None)
        else:
            os.environ["MINARI_DATASETS_PATH"] = old


# --- prompts (SFT and DPO) --------------------------------------------------------------------


def prompt_messages(observation: Mapping[str, Any], step: int) -> tuple[list[dict[str, Any]], list[np.ndarray]]:
    """The reference agent's chat messages for ``observation`` and their images, in order, from
    its own prompt builder (:func:`cerebellum_gym.agents.qwen_prompt.build_messages`), so
    training data and inference share one format. ``step`` is the number of the step about to be
    taken (1 for an episode's first action). Needs no model stack."""
    from cerebellum_gym.agents.qwen_prompt import build_messages

    return build_messages(observation, step=step)


class _ImageCopier:
    """Puts the images examples refer to into ``out/images`` as PNG files (hard links to a
    version-1 dataset's PNG files, written out otherwise)."""

    def __init__(self, data: Dataset, out: Path) -> None:
        self.data = data
        self.out = out
        self.done: set[str] = set()

    def __call__(self, ident: str) -> str:
        rel = image_path(Path("."), ident).as_posix().removeprefix("./")
        if ident not in self.done:
            target = self.out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                source = self.data.image_file(ident)  # a version-1 PNG file inside the dataset, if that is how it is stored
                try:
                    if source is None:
                        raise FileNotFoundError(ident)
                    os.link(source, target)
                except OSError:
                    atomic_write(target, self.data.png_bytes(ident))
            self.done.add(ident)
        return rel


def _prompt_example(
    data: Dataset, step: Step, copy: Callable[[str], str], digest: Callable[[np.ndarray], str], tokenizer: Any = None
) -> dict[str, Any]:
    obs = step.observation()
    # Map each image the builder returns back to its stored id: by identity first (the builder
    # hands back the arrays it was given), by content otherwise.
    by_id = {id(obs["screenshot"]): step.row["screenshot"]} if obs.get("screenshot") is not None else {}
    history = obs["history"]
    if "screenshots" in history:
        frames = list(history["screenshots"])
        history["screenshots"] = frames
        for frame, ident in zip(frames, step.row["history"]["screenshots"], strict=True):
            by_id[id(frame)] = ident
    messages, images = prompt_messages(obs, step.t + 1)
    paths = [copy(by_id.get(id(image)) or digest(image)) for image in images]
    assert step.action is not None
    target = canonical(step.action)
    example: dict[str, Any] = {"messages": [*messages, {"role": "assistant", "content": target}], "images": paths, "target": target}
    if tokenizer is not None:
        from cerebellum_gym.agents.qwen_prompt import render_example

        example["prompt"], example["completion"] = render_example(tokenizer, messages, target)
    return example


def load_tokenizer(tokenizer: Any) -> Any:
    """A tokenizer object, or one loaded from a folder or model id (no remote code)."""
    if tokenizer is None or not isinstance(tokenizer, str | os.PathLike):
        return tokenizer
    transformers = _need("transformers")
    try:
        return transformers.AutoTokenizer.from_pretrained(str(tokenizer), trust_remote_code=False)
    except (OSError, ValueError, KeyError) as exc:  # transformers' errors for a folder that is no tokenizer
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise DatasetError(f"cannot load a tokenizer from {str(tokenizer)!r}: {first}") from exc


def _digest_for(data: Dataset) -> Callable[[np.ndarray], str]:
    from cerebellum_gym.datasets.format import hash_function, image_id

    fn = hash_function(data.hash_name)
    return lambda pixels: image_id(pixels, fn)


def _trainable(step: Step) -> bool:
    info = step.info or {}
    return step.action is not None and not info.get("invalid_action") and not info.get("infra_error")


def export_sft(
    dataset: Dataset | str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    only_success: bool = True,
    agents: Iterable[str] | None = None,
    tokenizer: Any = None,
) -> dict[str, Any]:
    """Write ``out/sft.jsonl``: one example per valid recorded step, ``{"messages", "images",
    "target", ...}``: the reference agent's chat messages for the recorded observation (its own
    builder; images as paths under ``out/images``, in order) with the recorded action, in
    canonical form, as the assistant turn.

    Args:
        only_success: only steps of successful episodes (behaviour cloning from what worked).
        agents: only episodes recorded from these agents.
        tokenizer: a tokenizer (or its folder): each example also gets ``prompt`` and
            ``completion``, rendered by its chat template exactly as inference renders them.

    Returns:
        Counts: ``examples``, ``episodes``, ``images``.
    """
    data = _open(dataset)
    root = output_folder(data, out, writes_into=(IMAGES_DIR,))
    copy = _ImageCopier(data, root)
    digest = _digest_for(data)
    wanted = set(agents) if agents is not None else None
    tok = load_tokenizer(tokenizer)
    examples = episodes = 0
    with open(root / "sft.jsonl", "w", encoding="utf-8") as f:
        for episode in data.episodes(complete_only=True):
            if only_success and not episode.meta.get("success"):
                continue
            if wanted is not None and episode.meta.get("agent") not in wanted:
                continue
            episodes += 1
            for step in episode.steps():
                if not _trainable(step):
                    continue
                record = {
                    "id": f"{episode.episode_id}:{step.t}",
                    "episode_id": episode.episode_id,
                    "t": step.t,
                    "task": episode.meta.get("task"),
                    "agent": episode.meta.get("agent"),
                    "success": bool(episode.meta.get("success")),
                    **_prompt_example(data, step, copy, digest, tok),
                }
                f.write(_json_line(record))
                examples += 1
    return {"examples": examples, "episodes": episodes, "images": len(copy.done)}


# --- trajectory-level DPO ---------------------------------------------------------------------


def _rank(episode: Episode) -> tuple[int, float]:
    return (1 if episode.meta.get("success") else 0, round(float(episode.meta.get("progress", 0.0) or 0.0), 9))


def pair_hash(task: str, params_key: str, chosen: list[str], rejected: list[str]) -> str:
    """The content hash of a pair: its task, parameters and both action sequences."""
    payload = canonical_json({"task": task, "params": params_key, "chosen": chosen, "rejected": rejected})
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()  # exact even for a lone surrogate typed


def dpo_pairs(episodes: Iterable[Episode], *, max_pairs_per_group: int | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Preference pairs (without prompts) and the counts: ``pairs`` formed, ``duplicates_removed``,
    ``kept``, ``groups``, ``rejected_by_agent``.

    Episodes are grouped by task and parameters (never mixed); in a group every episode ranked
    higher (success first, then final progress) is paired with every one ranked lower. A pair
    whose content hash (task, parameters, both action sequences) was seen is an exact duplicate:
    it is dropped and counted.
    """
    groups: dict[tuple[str, str], list[Episode]] = {}
    for episode in episodes:
        if not episode.complete or not episode.actions:
            continue
        key = (str(episode.meta.get("task", "")), canonical_json(episode.meta.get("task_params") or {}))
        groups.setdefault(key, []).append(episode)
    pairs: list[dict[str, Any]] = []
    seen: set[str] = set()
    formed = duplicates = 0
    rejected_by: Counter[str] = Counter()
    for (task, params_key), members in sorted(groups.items()):
        ordered = sorted(members, key=lambda e: (_rank(e), e.episode_id), reverse=True)
        made = 0
        for i, chosen in enumerate(ordered):
            for rejected in ordered[i + 1 :]:
                if _rank(chosen) <= _rank(rejected):
                    continue
                if max_pairs_per_group is not None and made >= max_pairs_per_group:
                    break
                formed += 1
                digest = pair_hash(task, params_key, chosen.actions, rejected.actions)
                if digest in seen:
                    duplicates += 1
                    continue
                seen.add(digest)
                made += 1
                rejected_by[str(rejected.meta.get("agent", ""))] += 1
                pairs.append({"hash": digest, "task": task, "params": json.loads(params_key), "chosen": chosen, "rejected": rejected})
    stats = {
        "groups": len(groups),
        "pairs": formed,
        "duplicates_removed": duplicates,
        "kept": len(pairs),
        "rejected_by_agent": dict(rejected_by),
    }
    return pairs, stats


def _side(
    data: Dataset, episode: Episode, copy: Callable[[str], str], digest: Callable[[np.ndarray], str], prompts: bool, tokenizer: Any = None
) -> dict[str, Any]:
    meta = episode.meta
    side: dict[str, Any] = {
        "episode_id": episode.episode_id,
        "agent": meta.get("agent"),
        "seed": meta.get("seed"),
        "success": bool(meta.get("success")),
        "progress": float(meta.get("progress", 0.0) or 0.0),
        "return": float(meta.get("return", 0.0) or 0.0),
        "actions": [canonical(a) for a in episode.actions],
    }
    if prompts:
        side["steps"] = [_prompt_example(data, s, copy, digest, tokenizer) for s in episode.steps() if s.action is not None]
    return side


def export_dpo(
    dataset: Dataset | str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    prompts: bool = True,
    max_pairs_per_group: int | None = None,
    tokenizer: Any = None,
) -> dict[str, Any]:
    """Write ``out/dpo.jsonl`` (one trajectory pair per line: task, parameters, goal, ``chosen`` and
    ``rejected`` with their agent, seed, outcome, actions and, with ``prompts``, every step's
    chat messages, as :func:`export_sft` writes them; with ``tokenizer`` also rendered) and
    ``out/dpo_stats.json`` (see :func:`dpo_pairs`).

    Returns:
        The counts, with ``duplicates_removed``.
    """
    data = _open(dataset)
    root = output_folder(data, out, writes_into=(IMAGES_DIR,))
    pairs, stats = dpo_pairs(data.episodes(complete_only=True), max_pairs_per_group=max_pairs_per_group)
    copy = _ImageCopier(data, root)
    digest = _digest_for(data)
    tok = load_tokenizer(tokenizer)
    on_policy = 0
    with open(root / "dpo.jsonl", "w", encoding="utf-8") as f:
        for pair in pairs:
            chosen, rejected = pair["chosen"], pair["rejected"]
            same_agent = chosen.meta.get("agent") == rejected.meta.get("agent")
            on_policy += same_agent
            record = {
                "hash": pair["hash"],
                "task": pair["task"],
                "params": pair["params"],
                "goal": chosen.meta.get("goal"),
                "same_agent": same_agent,
                "chosen": _side(data, chosen, copy, digest, prompts, tok),
                "rejected": _side(data, rejected, copy, digest, prompts, tok),
            }
            f.write(_json_line(record))
    stats["same_agent_pairs"] = on_policy
    (root / "dpo_stats.json").write_text(json.dumps(stats, indent=1, sort_keys=True) + "\n")
    return stats


__all__ = ["dpo_pairs", "export_dpo", "export_minari", "export_parquet", "export_sft", "load_tokenizer", "pair_hash", "prompt_messages"]
