"""Damaged and hostile datasets: every reader fails with a DatasetError that names the file and
line (or the image), reads and writes nothing outside the folders involved, never hangs and never
allocates what a record claims. Each test damages a copy of a real recording as a broken disk, a
killed writer or a malicious uploader would."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.lib import format as npformat

from cerebellum_gym.cli import main
from cerebellum_gym.datasets import DatasetError, open_dataset
from cerebellum_gym.datasets import format as dataset_format
from cerebellum_gym.datasets.exports import export_dpo, export_minari, export_parquet, export_sft
from cerebellum_gym.datasets.format import (
    DATASET_FILE,
    PART_EPISODES,
    PART_IMAGES,
    PART_INDEX,
    PART_STEPS,
    PARTS_DIR,
    encode_npy_zst,
    encode_png,
    zstd_available,
)
from cerebellum_gym.datasets.replay import audit

V1 = Path(__file__).parent / "data" / "v1"


def read_everything(folder: Path) -> int:
    """Open ``folder`` and decode every observation of every step (what a training loader does)."""
    data = open_dataset(folder)
    count = 0
    for step in data.steps():
        step.observation()
        _ = step.info, step.action, step.reward
        count += 1
    return count


def first_part(folder: Path) -> Path:
    return sorted((folder / PARTS_DIR).iterdir())[0]


def edit_line(path: Path, number: int, edit: Callable[[bytes], bytes]) -> None:
    """Replace line ``number`` (1-based) of ``path`` by ``edit(line)``."""
    lines = path.read_bytes().splitlines(keepends=True)
    lines[number - 1] = edit(lines[number - 1].rstrip(b"\n")) + b"\n"
    path.write_bytes(b"".join(lines))


def edit_record(path: Path, number: int, edit: Callable[[dict[str, Any]], None]) -> None:
    def apply(line: bytes) -> bytes:
        record = json.loads(line)
        edit(record)
        return json.dumps(record).encode()

    edit_line(path, number, apply)


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail (rather than hang the suite) if the block runs longer than ``seconds``."""

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def peak_allocation(fn: Callable[[], Any]) -> int:
    """The most bytes Python held at once while ``fn`` ran (its exception, if any, swallowed)."""
    tracemalloc.start()
    try:
        fn()
    except Exception:
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


# --- lines of steps.jsonl and episodes.jsonl ------------------------------------------------------


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda record: record.__setitem__(key, value)


STEP_DAMAGE: dict[str, tuple[Callable[[bytes], bytes], str]] = {
    "garbage": (lambda line: b"\x00\xff garbage", "not valid JSON"),
    "not utf-8": (lambda line: line.replace(b'"tree":"', b'"tree":"\xff\xfe'), "not valid JSON"),
    "a list": (lambda line: b"[1, 2, 3]", "expected a JSON object, not list"),
    "null": (lambda line: b"null", "expected a JSON object"),
    "deeply nested": (lambda line: b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
}

ROW_DAMAGE: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "mask is a number": (_set("action_mask", 5), "field 'action_mask' must be str"),
    "mask is not bits": (_set("action_mask", "zz"), "string of 0 and 1"),
    "mask of the wrong length": (_set("action_mask", "1"), "'action_mask' must have 12 entries"),
    "label mask too short": (_set("label_mask", ""), "fewer than the"),
    "labels is a number": (_set("labels", 5), "field 'labels' must be list"),
    "labels hold numbers": (_set("labels", [1, 2]), "list of strings"),
    "history is text": (_set("history", "x"), "field 'history' must be dict"),
    "history mask is a list": (lambda r: r["history"].__setitem__("mask", [1]), "history.mask"),
    "history actions missing a slot": (lambda r: r["history"]["actions"].pop(), "the history's fields differ in length (actions 3,"),
    "history frames missing a slot": (lambda r: r["history"]["screenshots"].pop(), "differ in length"),
    "reward is text": (_set("reward", "abc"), "field 'reward' must be int or float or null"),
    "info is a list": (_set("info", [1]), "field 'info' must be dict or null"),
    "info progress is text": (_set("info", {"progress": "x"}), "info.progress"),
    "screenshot is a number": (_set("screenshot", 123), "field 'screenshot' must be str or null"),
    "action is an object": (_set("action", {"a": 1}), "field 'action' must be str or null"),
    "t is text": (_set("t", "x"), "field 't' must be int"),
    "no action mask": (lambda r: r.pop("action_mask"), "no action_mask"),
    "no episode id": (lambda r: r.pop("episode_id"), "no episode_id"),
}

META_DAMAGE: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "started_at is text": (_set("started_at", "x"), "field 'started_at' must be int or float"),
    "progress is text": (_set("progress", "x"), "field 'progress'"),
    "task_params is a list": (_set("task_params", [1]), "field 'task_params' must be dict or null"),
    "success is text": (_set("success", "yes"), "field 'success' must be bool"),
    "episode id is a path": (_set("episode_id", "../../etc/passwd"), "bad episode id '../../etc/passwd'"),
    "episode id has a NUL": (_set("episode_id", "a\x00b"), "bad episode id"),
    "episode id is very long": (_set("episode_id", "e" * 100_000), "bad episode id"),
}


@pytest.mark.parametrize("damage", list(STEP_DAMAGE))
def test_a_bad_steps_line_is_named_by_file_and_line(data_copy: Path, damage: str) -> None:
    edit, message = STEP_DAMAGE[damage]
    edit_line(first_part(data_copy) / PART_STEPS, 3, edit)
    with pytest.raises(DatasetError, match=f"{PART_STEPS}: line 3") as caught:
        read_everything(data_copy)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("file", "damage"), [(PART_STEPS, damage) for damage in ROW_DAMAGE] + [(PART_EPISODES, damage) for damage in META_DAMAGE]
)
def test_a_field_of_the_wrong_type_is_named(data_copy: Path, file: str, damage: str) -> None:
    edit, message = (ROW_DAMAGE if file == PART_STEPS else META_DAMAGE)[damage]
    edit_record(first_part(data_copy) / file, 2, edit)
    with pytest.raises(DatasetError, match=f"{file}: line 2: ") as caught:
        read_everything(data_copy)
    assert message in str(caught.value)


def test_an_episode_line_that_is_not_an_object_is_named(data_copy: Path) -> None:
    edit_line(first_part(data_copy) / PART_EPISODES, 1, lambda line: b'["not", "an", "episode"]')
    with pytest.raises(DatasetError, match=f"{PART_EPISODES}: line 1: expected a JSON object"):
        read_everything(data_copy)


def test_a_line_cut_short_is_still_skipped_not_an_error(data_copy: Path) -> None:
    steps = first_part(data_copy) / PART_STEPS
    whole = read_everything(data_copy)
    steps.write_bytes(steps.read_bytes()[:-20])  # a writer killed mid-line
    assert read_everything(data_copy) == whole - 1


# --- dataset.json ---------------------------------------------------------------------------------


HEADERS: dict[str, tuple[str | None, str]] = {
    "future version": ('{"format": "cerebellum-gym-dataset", "version": 99}', "format version 99"),
    "no version": ('{"format": "cerebellum-gym-dataset"}', "format version None"),
    "version true": ('{"format": "cerebellum-gym-dataset", "version": true}', "format version True"),
    "version 0": ('{"format": "cerebellum-gym-dataset", "version": 0}', "format version 0"),
    "unknown hash": ('{"format": "cerebellum-gym-dataset", "version": 2, "image_hash": "md5"}', "unknown image hash 'md5'"),
    "hash not a name": ('{"format": "cerebellum-gym-dataset", "version": 2, "image_hash": ["x"]}', "unknown image hash"),
    "image format a list": ('{"format": "cerebellum-gym-dataset", "version": 2, "image_format": ["png"]}', "unknown image format"),
    "a list": ("[1]", "not a cerebellum-gym dataset"),
    "not utf-8": ("\udcff{", "not valid JSON"),
    "a folder": (None, "not a regular file"),
}


@pytest.mark.parametrize("case", list(HEADERS))
def test_a_bad_header_is_refused_on_open(data_copy: Path, case: str) -> None:
    text, message = HEADERS[case]
    header = data_copy / DATASET_FILE
    header.unlink()
    if text is None:
        header.mkdir()
    else:
        header.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(DatasetError) as caught:
        open_dataset(data_copy)
    assert message in str(caught.value)


def test_a_file_is_not_a_dataset(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(DatasetError, match="not a folder"):
        open_dataset(tmp_path / "file")


# --- the image index and the stored images ----------------------------------------------------------


def _index_line(folder: Path, number: int = 2) -> list[str]:
    return (first_part(folder) / PART_INDEX).read_text().splitlines()[number - 1].split()


@pytest.mark.parametrize(
    "entry",
    ["{id} -5 100", "{id} 0 -1", "{id} 0 99999999999999", "{id} abc def", "{id} 0", "\u00e9\u00e9 0 10", "../../x 0 10", "{id} +1 10"],
)
def test_a_bad_index_line_is_named(data_copy: Path, entry: str) -> None:
    ident = _index_line(data_copy)[0]
    edit_line(first_part(data_copy) / PART_INDEX, 2, lambda line: entry.format(id=ident).encode())
    with pytest.raises(DatasetError, match=f"{PART_INDEX}: line 2 is not"):
        read_everything(data_copy)


def test_an_index_entry_past_the_end_is_refused_without_allocating_it(data_copy: Path) -> None:
    ident = _index_line(data_copy)[0]
    # The largest size an entry may claim, at an offset past the end of images.bin.
    edit_line(first_part(data_copy) / PART_INDEX, 2, lambda line: f"{ident} 1000 {dataset_format.MAX_IMAGE_BYTES}".encode())
    data = open_dataset(data_copy)
    with pytest.raises(DatasetError, match=f"image {ident} is cut short in .*{PART_IMAGES}"):
        data.image(ident)
    assert peak_allocation(lambda: data.image(ident)) < 16 << 20


def _store_image(folder: Path, encoded: bytes, ident: str | None = None) -> str:
    """Point the index entry of image ``ident`` (default: the first part's first) at ``encoded``,
    appended to its part's images.bin; the id."""
    ident = ident or _index_line(folder, 1)[0]
    for part in sorted((folder / PARTS_DIR).iterdir()):
        ids = [line.split()[0] for line in (part / PART_INDEX).read_text().splitlines()]
        if ident in ids:
            offset = (part / PART_IMAGES).stat().st_size
            with open(part / PART_IMAGES, "ab") as f:
                f.write(encoded)
            entry = f"{ident} {offset} {len(encoded)}".encode()
            edit_line(part / PART_INDEX, ids.index(ident) + 1, lambda line, entry=entry: entry)
            return ident
    raise KeyError(ident)


def _npy_zst(shape: tuple[int, ...], payload: bytes, descr: str = "|u1") -> bytes:
    from cerebellum_gym.datasets.format import _need_zstd, _raw_zstd_frame

    header = io.BytesIO()
    npformat.write_array_header_1_0(header, {"descr": descr, "fortran_order": False, "shape": shape})
    return _raw_zstd_frame(header.getvalue()) + bytes(_need_zstd().compress(payload, asbytes=True))


def _png_of_size(width: int, height: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("1", (width, height)).save(out, "PNG")
    return out.getvalue()


IMAGES: dict[str, tuple[Callable[[], bytes], str]] = {
    "two dimensions": (lambda: encode_npy_zst(np.zeros((7, 5), np.uint8)), "must be RGB, of shape (height, width, 3), not (7, 5)"),
    "four channels": (lambda: encode_npy_zst(np.zeros((7, 5, 4), np.uint8)), "not (7, 5, 4)"),
    "float pixels": (lambda: _npy_zst((4, 4, 3), b"\0" * 384, "<f8"), "uint8"),
    "npy.zst bomb": (lambda: _npy_zst((100_000, 100_000, 3), b"\0" * 1000), "over the limit"),
    "zstd garbage": (lambda: b"\x28\xb5\x2f\xfd" + b"garbage" * 10, "not an npy.zst image"),
    "cut short": (lambda: encode_npy_zst(np.zeros((64, 64, 3), np.uint8))[:40], "do not decode"),
    "not an image": (lambda: b"not an image at all", "do not decode"),
    "png bomb": (lambda: _png_of_size(12_000, 12_000), "over the limit"),
    "png far past the limit": (lambda: _png_of_size(20_000, 20_000), "do not decode"),
    "png cut short": (lambda: _png_of_size(8, 8)[:-30], "do not decode"),
}


@pytest.mark.parametrize("case", list(IMAGES))
def test_an_image_that_does_not_decode_to_rgb_is_named(data_copy: Path, case: str) -> None:
    make, message = IMAGES[case]
    if not zstd_available() and "zst" in case:
        pytest.skip("npy.zst needs pyarrow")
    ident = _store_image(data_copy, make())
    data = open_dataset(data_copy)
    with pytest.raises(DatasetError, match=f"image {ident} \\(.*{PART_IMAGES} at byte") as caught:
        data.image(ident)
    assert message in str(caught.value)
    step = next(s for s in data.steps() if ident in s.image_ids)
    with pytest.raises(DatasetError, match=f"episode {step.episode_id} step {step.t}: image {ident}"):
        step.observation()
    assert data.verify_image(ident) is not None
    # Refused from the header: no allocation of the claimed pixels.
    assert peak_allocation(lambda: data.image(ident)) < 64 << 20


# --- ids that are paths, links that lead outside ---------------------------------------------------------


@pytest.mark.parametrize("ident", ["../../../../etc/passwd", "/etc/passwd", "ab\x00cd", "a" * 100_000, "ABCDEF0123456789ABCDEF"])
def test_an_image_id_that_is_not_a_hash_is_refused(data_copy: Path, ident: str) -> None:
    edit_record(first_part(data_copy) / PART_STEPS, 1, _set("screenshot", ident))
    with pytest.raises(DatasetError, match=f"{PART_STEPS}: line 1: bad image id"):
        read_everything(data_copy)
    edit_record(first_part(data_copy) / PART_STEPS, 1, lambda r: r["history"].__setitem__("screenshots", [ident]))
    with pytest.raises(DatasetError, match="bad image id"):
        open_dataset(data_copy).image(ident)


def _v1_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "v1"
    shutil.copytree(V1, folder)
    return folder


def test_a_version1_image_id_cannot_read_a_file_outside_the_dataset(tmp_path: Path) -> None:
    folder = _v1_copy(tmp_path)
    secret = tmp_path / "secret"
    (tmp_path / "secret.png").write_bytes(encode_png(np.zeros((4, 4, 3), np.uint8)))
    # images/<first two characters>/<id>.png, so an id starting with ".." climbs out of images/.
    escape = os.path.relpath(secret, folder / "images" / "..")
    ident = "../" + escape
    episode = sorted((folder / "episodes").iterdir())[0]
    edit_record(episode / "steps.jsonl", 1, _set("screenshot", ident))
    with pytest.raises(DatasetError, match=r"steps\.jsonl: line 1: bad image id"):
        read_everything(folder)
    with pytest.raises(DatasetError, match="bad image id"):
        open_dataset(_v1_copy(tmp_path / "again")).image(ident)


def test_a_version1_episode_id_cannot_name_a_folder_outside(tmp_path: Path) -> None:
    folder = _v1_copy(tmp_path)
    outside = tmp_path / "outside"
    shutil.copytree(sorted((folder / "episodes").iterdir())[0], outside)
    data = open_dataset(folder)
    for bad in ("../../outside", str(outside), "..", "a/b", "a\x00b"):
        with pytest.raises(DatasetError, match="bad episode id"):
            data.episode(bad)


def _link_outside(tmp_path: Path, target: Path, link: Path) -> None:
    if link.is_dir():
        shutil.copytree(link, target, dirs_exist_ok=True)
        shutil.rmtree(link)
    else:
        shutil.copy(link, target)
        link.unlink()
    link.symlink_to(target)


@pytest.mark.parametrize("what", ["part", PART_STEPS, PART_EPISODES, PART_INDEX, PART_IMAGES, DATASET_FILE])
def test_a_link_out_of_the_dataset_is_refused(data_copy: Path, tmp_path: Path, what: str) -> None:
    part = first_part(data_copy)
    if what == DATASET_FILE:
        _link_outside(tmp_path, tmp_path / what, data_copy / what)
    elif what == "part":
        (tmp_path / "elsewhere").mkdir()
        _link_outside(tmp_path, tmp_path / "elsewhere", part)
    else:
        _link_outside(tmp_path, tmp_path / what, part / what)
    with pytest.raises(DatasetError, match="leads outside the dataset"):
        read_everything(data_copy)


def test_links_inside_the_dataset_are_followed(data_copy: Path) -> None:
    whole = read_everything(data_copy)
    part = first_part(data_copy)
    moved = data_copy / "kept" / part.name
    moved.parent.mkdir()
    part.rename(moved)
    part.symlink_to(Path("..") / "kept" / part.name)
    assert read_everything(data_copy) == whole


def test_images_bin_linked_to_a_device_is_refused(data_copy: Path) -> None:
    blob = first_part(data_copy) / PART_IMAGES
    blob.unlink()
    blob.symlink_to("/dev/zero")
    with deadline(20), pytest.raises(DatasetError, match="leads outside the dataset"):
        read_everything(data_copy)


def test_a_version1_episode_folder_linked_outside_is_refused(tmp_path: Path) -> None:
    folder = _v1_copy(tmp_path)
    episode = sorted((folder / "episodes").iterdir())[0]
    _link_outside(tmp_path, tmp_path / "elsewhere", episode)
    with pytest.raises(DatasetError, match="leads outside the dataset"):
        read_everything(folder)


@pytest.mark.parametrize("what", [PART_STEPS, PART_INDEX])
def test_a_fifo_in_place_of_a_file_is_refused_not_waited_on(data_copy: Path, what: str) -> None:
    path = first_part(data_copy) / what
    path.unlink()
    os.mkfifo(path)
    with deadline(20), pytest.raises(DatasetError, match="not a regular file"):
        read_everything(data_copy)


# --- replay: a record does not choose what runs ---------------------------------------------------------


@pytest.mark.parametrize(
    ("env_id", "env_kwargs", "why"),
    [
        ("json:Foo-v0", {}, "is not one of cerebellum-gym's"),
        ("CartPole-v1", {}, "is not one of cerebellum-gym's"),
        ("Cerebellum-Adb-v0", {"device_options": {"serial": "emulator-5554"}}, "backend 'adb' is not the simulator"),
        ("Cerebellum-Sim-v0", {"backend": "androidworld"}, "backend 'androidworld' is not the simulator"),
        ("Cerebellum-Sim-v0", {"screenshot_width": 40_000}, "screenshot_width=40000 is over"),
    ],
)
def test_replay_builds_only_the_simulator(data_copy: Path, env_id: str, env_kwargs: dict[str, Any], why: str) -> None:
    episodes = first_part(data_copy) / PART_EPISODES
    count = len(episodes.read_text().splitlines())
    for number in range(1, count + 1):
        edit_record(episodes, number, lambda m: m.update(env_id=env_id, env_kwargs=env_kwargs, replayable=True))
    data = open_dataset(data_copy)
    target = next(e.episode_id for e in data.episodes() if e.meta["env_id"] == env_id)
    report = audit(data, episode_ids=[target], check_images=False)
    (result,) = report.episodes
    assert result.status == "skipped" and why in result.detail


# --- the command line and the output folders ---------------------------------------------------------------


def test_replay_replaces_an_audit_json_link_and_never_writes_through_it(
    data_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (data_copy / "audit.json").symlink_to(victim)
    episode = open_dataset(data_copy).episode_ids()[0]
    assert main(["replay", str(data_copy), "--episode", episode, "--no-images"]) == 0
    assert victim.read_text() == "precious\n"
    assert not (data_copy / "audit.json").is_symlink() and json.loads((data_copy / "audit.json").read_text())["ok"]
    # --json in a folder that does not exist yet; --json naming a folder.
    assert main(["replay", str(data_copy), "--episode", episode, "--no-images", "--json", str(tmp_path / "new" / "a.json")]) == 0
    assert json.loads((tmp_path / "new" / "a.json").read_text())["ok"]
    capsys.readouterr()
    assert main(["replay", str(data_copy), "--json", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


EXPORTS: dict[str, Callable[[Path, Path], Any]] = {
    "parquet": lambda data, out: export_parquet(data, out, images=False),
    "sft": export_sft,
    "dpo": lambda data, out: export_dpo(data, out, prompts=False),
}


@pytest.mark.parametrize("kind", list(EXPORTS))
def test_an_export_refuses_a_file_or_the_dataset_itself_as_its_output(data_copy: Path, tmp_path: Path, kind: str) -> None:
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(DatasetError, match="exists and is not a folder"):
        EXPORTS[kind](data_copy, tmp_path / "a-file")
    for inside in (data_copy, data_copy / "exports", data_copy / PARTS_DIR):
        before = sorted(str(p) for p in data_copy.rglob("*"))
        with pytest.raises(DatasetError, match="is inside the dataset"):
            EXPORTS[kind](data_copy, inside)
        assert sorted(str(p) for p in data_copy.rglob("*")) == before
    EXPORTS[kind](data_copy, tmp_path / "exists")
    EXPORTS[kind](data_copy, tmp_path / "exists")  # an existing output folder is written again


@pytest.mark.parametrize(("kind", "name"), [("parquet", "data"), ("sft", "images"), ("dpo", "images")])
def test_an_export_beside_a_dataset_does_not_write_into_it(oracle_random_data: Path, tmp_path: Path, kind: str, name: str) -> None:
    # A dataset recorded as ./data (or ./images), exported to "." : the export's own sub-folder is the dataset.
    shutil.copytree(oracle_random_data, tmp_path / name)
    before = sorted(str(p) for p in (tmp_path / name).rglob("*"))
    with pytest.raises(DatasetError, match="is inside the dataset"):
        EXPORTS[kind](tmp_path / name, tmp_path)
    assert sorted(str(p) for p in (tmp_path / name).rglob("*")) == before


def test_minari_refuses_a_root_in_the_dataset_and_a_malformed_id(data_copy: Path, tmp_path: Path) -> None:
    pytest.importorskip("minari")
    with pytest.raises(DatasetError, match="is inside the dataset"):
        export_minari(data_copy, "probe/x-v0", root=data_copy / "minari", pixels=False)
    with pytest.raises(DatasetError, match="Malformed dataset ID"):
        export_minari(data_copy, "../../escape-v0", root=tmp_path / "minari", pixels=False)
    assert not (tmp_path / "escape").exists()


def test_minari_names_the_step_whose_screenshot_shape_differs(data_copy: Path, tmp_path: Path) -> None:
    pytest.importorskip("minari")
    odd = encode_npy_zst(np.zeros((8, 8, 3), np.uint8)) if zstd_available() else encode_png(np.zeros((8, 8, 3), np.uint8))
    first = next(e for e in open_dataset(data_copy).episodes(complete_only=True) if len(e.rows) >= 2)
    ident = first.rows[-1]["screenshot"]
    assert ident != first.rows[0]["screenshot"]
    _store_image(data_copy, odd, ident)
    with pytest.raises(DatasetError, match=r"screenshot has shape \(8, 8, 3\)"):
        export_minari(data_copy, "probe/shapes-v0", root=tmp_path / "minari", jpeg=False)


def test_empty_and_incomplete_datasets(data_copy: Path, tmp_path: Path) -> None:
    for part in (data_copy / PARTS_DIR).iterdir():
        lines = (part / PART_EPISODES).read_text().splitlines()
        (part / PART_EPISODES).write_text("".join(x + "\n" for x in lines if '"complete":true' not in x.replace(" ", "")))
    data = open_dataset(data_copy)
    assert len(data) > 0 and not any(e.complete for e in data.episodes())
    with pytest.raises(DatasetError, match="no complete episode"):
        export_parquet(data_copy, tmp_path / "pq", complete_only=True)
    assert export_sft(data_copy, tmp_path / "sft")["examples"] == 0
    shutil.rmtree(data_copy / PARTS_DIR)
    assert len(open_dataset(data_copy)) == 0
    with pytest.raises(DatasetError, match="no episode"):
        export_parquet(data_copy, tmp_path / "pq2")


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "{data}", "--no-images"],
        ["eval-offline", "--agent", "random", "--data", "{data}", "--n", "0"],
        ["export", "parquet", "{data}", "{out}", "--no-images"],
        ["export", "sft", "{data}", "{out}"],
        ["export", "dpo", "{data}", "{out}", "--no-prompts"],
    ],
)
def test_the_command_line_reports_a_damaged_dataset_in_one_line(
    data_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    edit_record(first_part(data_copy) / PART_STEPS, 4, _set("labels", 5))
    code = main([a.format(data=data_copy, out=tmp_path / "out") for a in args])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "Traceback" not in err
    assert err.endswith(f"{PART_STEPS}: line 4: field 'labels' must be list, not int") and len(err.splitlines()) == 1


def test_the_command_line_reports_an_unreadable_output_in_one_line(
    data_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-file").write_text("x")
    assert main(["export", "sft", str(data_copy), str(tmp_path / "a-file" / "below")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cerebellum-gym export: error:") and len(err.splitlines()) == 1


def test_history_frames_of_different_shapes_are_named(data_copy: Path) -> None:
    step = next(s for s in open_dataset(data_copy).steps() if len(set(s.row["history"]["screenshots"])) > 1)
    small = np.zeros((8, 8, 3), np.uint8)
    _store_image(data_copy, encode_npy_zst(small) if zstd_available() else encode_png(small), step.row["history"]["screenshots"][-1])
    with pytest.raises(DatasetError, match=r"step \d+: history frames of different shapes \(8, 8, 3\)"):
        read_everything(data_copy)


def test_a_null_progress_in_info_exports_as_zero(data_copy: Path, tmp_path: Path) -> None:
    # jsonable writes a non-finite float as null: readers and exports take it.
    edit_record(first_part(data_copy) / PART_STEPS, 1, lambda r: r["info"].__setitem__("progress", None))
    assert export_parquet(data_copy, tmp_path / "pq", images=False)["steps"] == read_everything(data_copy)


def test_a_part_copied_twice_is_named_not_merged(data_copy: Path) -> None:
    # Merging two datasets with cp, a part may land twice under two names: every episode would double.
    part = first_part(data_copy)
    shutil.copytree(part, part.with_name(part.name + "-copy"))
    with pytest.raises(DatasetError, match=r"is in two parts, .*(a part copied twice\?)"):
        read_everything(data_copy)


def test_an_ended_episode_missing_its_last_step_line_is_named(data_copy: Path) -> None:
    episodes = first_part(data_copy) / PART_EPISODES
    final = next(json.loads(line) for line in episodes.read_text().splitlines() if json.loads(line)["complete"])
    steps = first_part(data_copy) / PART_STEPS
    lines = steps.read_bytes().splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if json.loads(line)["episode_id"] == final["episode_id"])
    del lines[last]  # numbering stays 0, 1, ...: only the record's count shows the loss
    steps.write_bytes(b"".join(lines))
    with pytest.raises(DatasetError, match=f"episode {final['episode_id']}: its record counts {final['rows']} step lines"):
        read_everything(data_copy)


@pytest.mark.parametrize("change", ["drop", "repeat"])
def test_steps_lost_or_repeated_in_an_episode_are_named(data_copy: Path, change: str) -> None:
    steps = first_part(data_copy) / PART_STEPS
    lines = steps.read_bytes().splitlines(keepends=True)
    second = json.loads(lines[1])
    assert second["t"] == 1
    lines[1:2] = [] if change == "drop" else [lines[1], lines[1]]
    steps.write_bytes(b"".join(lines))
    with pytest.raises(DatasetError, match=f"episode {second['episode_id']}: its steps are numbered 0, "):
        read_everything(data_copy)


@pytest.mark.parametrize(("file", "key"), [(PART_EPISODES, "seed"), (PART_EPISODES, "progress"), (PART_STEPS, "reward")])
def test_an_integer_past_64_bits_is_named(data_copy: Path, tmp_path: Path, file: str, key: str) -> None:
    # JSON integers have no bound: a Parquet export overflowed on such a seed, float() on such a reward.
    edit_record(first_part(data_copy) / file, 2, _set(key, 2**70))
    with pytest.raises(DatasetError, match=f"{file}: line 2: field '{key}' is out of the 64-bit range"):
        export_parquet(data_copy, tmp_path / "pq", images=False)


@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity"])
def test_nan_and_infinity_are_not_json(data_copy: Path, constant: bytes) -> None:
    # Python's json reads them; a NaN reward would match any replayed reward in an audit.
    edit_line(first_part(data_copy) / PART_STEPS, 1, lambda line: line.replace(b'"reward":0.0', b'"reward":' + constant))
    with pytest.raises(DatasetError, match=f"{PART_STEPS}: line 1 is not valid JSON"):
        read_everything(data_copy)


def test_eval_offline_refuses_an_output_inside_the_dataset(data_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["eval-offline", "--agent", "random", "--data", str(data_copy), "--n", "3", "--out"]
    assert main([*args, str(data_copy / "offline")]) == 2
    assert "is inside the dataset" in capsys.readouterr().err and not (data_copy / "offline").exists()
    assert main([*args, str(tmp_path / "offline")]) == 0
    assert json.loads((tmp_path / "offline" / "offline.json").read_text())["n"] == 3


@pytest.mark.parametrize("export", ["parquet", "sft"])
def test_a_png_bomb_is_not_handed_on_by_exports(tmp_path: Path, export: str) -> None:
    # Exports pass stored PNG bytes (or a hard link to a version-1 PNG file) on undecoded.
    folder = _v1_copy(tmp_path)
    data = open_dataset(folder)
    episode = next(e for e in data.episodes(complete_only=True) if e.meta.get("success"))
    ident = episode.rows[0]["screenshot"]
    path = folder / "images" / ident[:2] / f"{ident}.png"
    path.unlink()
    path.write_bytes(_png_of_size(12_000, 12_000))
    with pytest.raises(DatasetError, match=f"image {ident}.*over the limit"):
        if export == "parquet":
            export_parquet(folder, tmp_path / "out")
        else:
            export_sft(folder, tmp_path / "out")


def test_a_folder_that_is_no_tokenizer_is_one_line(data_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("transformers")
    (tmp_path / "not-a-tokenizer").mkdir()
    assert main(["export", "sft", str(data_copy), str(tmp_path / "sft"), "--tokenizer", str(tmp_path / "not-a-tokenizer")]) == 2
    err = capsys.readouterr().err.strip()
    assert "cannot load a tokenizer from" in err and len(err.splitlines()) == 1


def test_a_loop_of_links_is_named(data_copy: Path) -> None:
    steps = first_part(data_copy) / PART_STEPS
    steps.unlink()
    steps.symlink_to(PART_STEPS)  # itself
    with deadline(20), pytest.raises(DatasetError, match="loop of symbolic links"):
        read_everything(data_copy)


@pytest.mark.parametrize(
    "args",
    [
        ["eval-offline", "--agent", "random", "--data", "{data}", "--seed", "-1"],
        ["eval-offline", "--agent", "random", "--data", "{data}", "--n", "-3"],
        ["eval-offline", "--agent", "random", "--data", "{data}", "--n", "many"],
        ["export", "dpo", "{data}", "{out}", "--max-pairs-per-group", "-1"],
    ],
)
def test_a_negative_count_is_a_usage_error(data_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([a.format(data=data_copy, out=tmp_path / "out") for a in args])
    assert caught.value.code == 2 and "Traceback" not in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_eval_offline_names_the_agent_filter_that_left_nothing(data_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval-offline", "--agent", "random", "--data", str(data_copy), "--recorded-by", "nobody"]) == 2
    assert "no scorable step in" in (err := capsys.readouterr().err) and "recorded by 'nobody'" in err


# --- text that is not valid Unicode (a lone surrogate an agent typed) ---------------------------------------


def test_an_action_with_a_lone_surrogate_is_recorded_exactly_and_replays(tmp_path: Path) -> None:
    import gymnasium as gym

    from cerebellum_gym.datasets import RecordEpisodes

    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", pixels=False), tmp_path / "data", agent="agent\ud800")
    env.reset(seed=0, options={"task": "ContactsAddContact"})
    typed = "K \ud83dhalf an emoji"  # the first half of a surrogate pair, alone
    env.step(typed)
    env.step("F")
    env.close()
    (episode,) = open_dataset(tmp_path / "data").episodes()
    assert episode.actions == [typed, "F"] and episode.meta["agent"] == "agent\ud800"
    assert audit(tmp_path / "data").ok  # the replay sends exactly what was typed


def test_exports_take_text_with_a_lone_surrogate(data_copy: Path, tmp_path: Path) -> None:
    for number in range(1, 4):
        edit_record(first_part(data_copy) / PART_STEPS, number, lambda r: r.update(tree=r["tree"] + "\ud800"))
    edit_record(first_part(data_copy) / PART_EPISODES, 2, _set("agent", "a\udfff"))
    sft = export_sft(data_copy, tmp_path / "sft", only_success=False)
    lines = (tmp_path / "sft" / "sft.jsonl").read_bytes().splitlines()
    assert sft["examples"] == len(lines) > 0 and any(b"\\ud800" in line for line in lines)  # kept exact, as an escape
    export_dpo(data_copy, tmp_path / "dpo", prompts=False)
    export_parquet(data_copy, tmp_path / "pq", images=False)
    import pyarrow.parquet as pq

    trees = pq.read_table(tmp_path / "pq" / "data" / "steps-00000.parquet").column("tree").to_pylist()
    assert any(t.endswith("\ufffd") for t in trees)  # Arrow holds UTF-8 only
    assert main(["eval-offline", "--agent", "random", "--data", str(data_copy), "--n", "5", "--out", str(tmp_path / "off")]) == 0


@pytest.mark.parametrize(("file", "key"), [(PART_STEPS, "info"), (PART_EPISODES, "task_params")])
def test_a_field_nested_too_deep_is_named(data_copy: Path, tmp_path: Path, file: str, key: str) -> None:
    # Deep enough for json to read, too deep for an export's recursive walk (RecursionError before).
    deep: Any = 0
    for _ in range(900):
        deep = [deep]
    edit_record(first_part(data_copy) / file, 2, _set(key, {"deep": deep}))
    with pytest.raises(DatasetError, match=f"{file}: line 2: field '{key}' nests deeper than 64 levels"):
        export_parquet(data_copy, tmp_path / "pq", images=False)


def test_replay_of_a_dataset_it_cannot_write_to_still_shows_the_audit(
    data_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A read-only download (root ignores permissions here, so the write itself is made to fail as it would).
    from cerebellum_gym.datasets import format as fmt

    def refuse(path: Path, data: bytes, *, make_parent: bool = True) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(fmt, "atomic_write", refuse)
    episode = open_dataset(data_copy).episode_ids()[0]
    assert main(["replay", str(data_copy), "--episode", episode, "--no-images"]) == 2
    captured = capsys.readouterr()
    assert "replay audit PASS" in captured.out
    assert "Permission denied (a read-only dataset? pass --json PATH)" in captured.err and len(captured.err.strip().splitlines()) == 2
