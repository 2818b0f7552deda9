"""The on-disk format: version-1 datasets still load (and take new episodes), ``npy.zst`` images
are standard Zstandard around a standard ``.npy``, and the fast serialisation paths write exactly
what the general ones would."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import io
import json
import math
import shutil
import uuid
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.datasets import FORMAT_VERSION, DatasetError, DatasetWriter, RecordEpisodes, open_dataset, recorder
from cerebellum_gym.datasets import format as dataset_format
from cerebellum_gym.datasets.format import (
    PNG_MAGIC,
    bits,
    decode_image,
    dumps_line,
    encode_npy_zst,
    encode_png,
    jsonable,
    png_bytes,
    unbits,
    zstd_available,
)

#: A dataset recorded by the version-1 writer (64-px screens, 32-px history frames): an oracle
#: episode solved, one cut at six steps, and one closed after two.
V1_DATA = Path(__file__).parent / "data" / "v1"

needs_zstd = pytest.mark.skipif(not zstd_available(), reason="npy.zst needs pyarrow")


def test_a_version_1_dataset_loads_with_every_image_intact() -> None:
    data = open_dataset(V1_DATA)
    assert data.version == 1 and data.image_format == "png"
    episodes = list(data.episodes())
    assert [e.status for e in episodes] == ["complete", "complete", "closed"]
    assert [e.meta["task"] for e in episodes] == ["SystemWifiTurnOn", "ContactsAddContact", "SystemBrightnessMax"]
    assert episodes[0].meta["success"] and episodes[1].meta["truncated"] and len(episodes[2].rows) == 2
    ids = {i for e in episodes for s in e.steps() for i in s.image_ids}
    assert ids == data.image_ids() and len(ids) > 5
    assert all(data.verify_image(i) is None for i in ids)
    obs = next(episodes[0].steps()).observation()
    assert obs["screenshot"].shape[1] == 64 and obs["history"]["screenshots"].shape[2:] == (32, 3)
    assert data.png_bytes(next(iter(ids))).startswith(PNG_MAGIC)


def test_recording_into_a_version_1_dataset_upgrades_it_and_keeps_the_old_episodes(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(V1_DATA, folder)
    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", screenshot_width=64, history_width=32), folder, agent="oracle")
    env.reset(seed=5, options={"task": "SystemWifiTurnOn"})
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(env.unwrapped.oracle_action())
        done = terminated or truncated
    env.close()
    assert json.loads((folder / "dataset.json").read_text())["version"] == FORMAT_VERSION
    data = open_dataset(folder)
    episodes = list(data.episodes())
    assert [e.status for e in episodes] == ["complete", "complete", "closed", "complete"]
    assert episodes[-1].meta["format_version"] == FORMAT_VERSION and episodes[-1].meta["seed"] == 5
    # The dataset keeps its image format (PNG) for the new images too; all of them check out.
    new = {i for s in episodes[-1].steps() for i in s.image_ids}
    assert all(data.image_bytes(i).startswith(PNG_MAGIC) for i in new)
    assert all(data.verify_image(i) is None for i in data.image_ids())


@needs_zstd
def test_npy_zst_images_are_standard_zstandard_around_a_standard_npy() -> None:
    import pyarrow as pa

    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 4, (103, 46, 3), dtype=np.uint8)  # odd sizes; compressible like a UI
    data = encode_npy_zst(pixels)
    assert np.array_equal(decode_image(data), pixels)
    # libzstd (through pyarrow) reads the file as a whole: two frames, a .npy file back.
    npy = io.BytesIO()
    np.save(npy, pixels)
    whole = pa.Codec("zstd").decompress(data, decompressed_size=len(npy.getvalue()), asbytes=True)
    assert whole == npy.getvalue() and np.array_equal(np.load(io.BytesIO(whole)), pixels)
    assert png_bytes(data).startswith(PNG_MAGIC) and np.array_equal(decode_image(png_bytes(data)), pixels)
    assert png_bytes(encode_png(pixels)) == encode_png(pixels)
    with pytest.raises(DatasetError, match=r"not an npy\.zst image"):
        decode_image(data[:5] + b"\x00" + data[6:])


@needs_zstd
def test_a_new_dataset_stores_npy_zst_images_in_its_part(tmp_path: Path) -> None:
    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", screenshot_width=64, history_width=32, max_steps=3), tmp_path, agent="w")
    env.reset(seed=0, options={"task": "SystemWifiTurnOn"})
    for _ in range(3):
        env.step("W")
    env.close()
    data = open_dataset(tmp_path)
    assert data.version == FORMAT_VERSION and data.image_format == "npy.zst"
    assert not (tmp_path / "images").exists() and not (tmp_path / "episodes").exists()
    ids = data.image_ids()
    assert ids and all(data.image_bytes(i)[:4] == b"\x28\xb5\x2f\xfd" and data.verify_image(i) is None for i in ids)


class _Opaque:
    def __repr__(self) -> str:
        return "<opaque>"


@dataclasses.dataclass
class _Point:
    x: int


class _Phase(enum.Enum):
    A = 1
    B = "b"


class _IntPhase(enum.IntEnum):
    A = 4


def test_enum_members_and_uuids_are_written_as_their_values() -> None:
    assert jsonable({"p": _Phase.B, "q": _IntPhase.A, "u": uuid.UUID(int=7), 1: _Phase.A}) == {
        "p": "b",
        "q": 4,
        "u": "00000000-0000-0000-0000-000000000007",
        "1": 1,
    }


@pytest.mark.parametrize("encoder", ["orjson", "json"])
def test_dumps_line_writes_what_jsonable_would(encoder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if encoder == "json":
        monkeypatch.setattr(dataset_format, "_orjson", None)
    else:
        pytest.importorskip("orjson")
    values: list[Any] = [
        {"date": datetime.date(2026, 1, 2), "point": _Point(3), "big": 2**70, "tuple": ("a", 1e-05)},
        {"a": 1, "b": [1.5, "x", None, True], "c": {"d": (1, 2)}},
        {"n": np.int64(3), "f": np.float32(0.5), "b": np.bool_(True), "arr": np.arange(3), "nested": {"x": np.float64(2.0)}},
        {"nan": math.nan, "inf": [math.inf], "npnan": np.float64("nan")},
        {"obj": _Opaque(), "set": {1}},
        {1: "int key", 2.5: "float key"},
        {"text": 'é ✓ \n"quoted"'},
        # Enum members and UUIDs: orjson writes them natively, so jsonable writes them the same
        # way, also when another value sends the whole line to the fallback (the int key).
        {"phase": _Phase.B, "int_phase": _IntPhase.A, "id": uuid.UUID(int=7)},
        {"phase": _Phase.B, "id": uuid.UUID(int=7), 3: "int key"},
    ]
    for value in values:
        line = dumps_line(value)
        assert line.endswith("\n") and "\n" not in line[:-1]
        assert json.loads(line) == json.loads(json.dumps(jsonable(value)))
        assert dataset_format.dumps_line_bytes(value) == line.encode()


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.bool_, np.int32, np.float32])
def test_bits_fast_path_matches_the_definition(dtype: Any) -> None:
    mask = np.array([0, 1, 1, 0, 2, 0, 1], dtype=dtype)
    assert bits(mask) == "".join("1" if x else "0" for x in mask.tolist())
    assert np.array_equal(unbits(bits(mask)), (mask != 0).astype(np.int8))
    assert bits(np.array([-1], np.int8)) == "1" and bits(()) == ""


class _SharedFrames(gym.ObservationWrapper[Any, Any, Any]):
    """Hands out one read-only array per distinct screen (as an env serving its frame cache would)."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        self.frames: dict[bytes, np.ndarray] = {}

    def observation(self, observation: Any) -> Any:
        shot = observation["screenshot"]
        frame = self.frames.setdefault(shot.tobytes(), shot)
        frame.flags.writeable = False
        return {**observation, "screenshot": frame}


def test_read_only_arrays_are_hashed_once_and_recorded_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hashed: list[tuple[int, ...]] = []
    real = recorder.image_id
    monkeypatch.setattr(recorder, "image_id", lambda pixels, digest: hashed.append(pixels.shape) or real(pixels, digest))
    env = RecordEpisodes(_SharedFrames(gym.make("Cerebellum-Sim-v0", screenshot_width=64, history_width=32, max_steps=12)), tmp_path)
    obs, _ = env.reset(seed=1, options={"task": "ContactsAddContact"})
    shots = [obs["screenshot"]]
    for _ in range(12):
        obs, *_ = env.step("W")  # waiting: the screen mostly stays as it is
        shots.append(obs["screenshot"])
    env.close()
    distinct = len({id(s) for s in shots})
    assert distinct < len(shots)
    # One hash per distinct shared screen; history frames (fresh arrays) every time.
    assert sum(1 for shape in hashed if shape == shots[0].shape) == distinct
    (episode,) = open_dataset(tmp_path).episodes()
    assert all(np.array_equal(step.observation()["screenshot"], shot) for step, shot in zip(episode.steps(), shots, strict=True))


def test_a_writer_refuses_npy_zst_without_zstd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "dataset.json").write_text(
        json.dumps({"format": "cerebellum-gym-dataset", "version": 2, "image_hash": "blake2b_128", "image_format": "npy.zst"})
    )
    monkeypatch.setattr(recorder, "zstd_available", lambda: False)
    with pytest.raises(DatasetError, match="needs pyarrow"):
        DatasetWriter(tmp_path, threaded=False)


def test_without_zstd_a_new_dataset_stores_png(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cerebellum_gym.datasets import format as dataset_format

    monkeypatch.setattr(dataset_format, "zstd_available", lambda: False)
    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", screenshot_width=64, history_width=32, max_steps=2), tmp_path)
    env.reset(seed=0, options={"task": "SystemWifiTurnOn"})
    env.step("W")
    env.close()
    data = open_dataset(tmp_path)
    assert data.image_format == "png" and data.image_ids()
    assert all(data.image_bytes(i).startswith(PNG_MAGIC) and data.verify_image(i) is None for i in data.image_ids())
