"""Files tasks (judged on shared storage) and browser tasks (judged on Chrome's screen), as in
AndroidWorld, where the browser tasks start in the Files app."""

from __future__ import annotations

import math
from typing import Any, ClassVar, Final

import numpy as np

from cerebellum_gym.appdata.browser_pages import androidworld_maze_walls, androidworld_multiply_numbers, maze_path, page_html
from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import find_under, fraction, is_file, screen_shows
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, label_for
from cerebellum_gym.tasks.registry import register_task

FILES_PACKAGE = "com.google.android.documentsui"
CHROME_PACKAGE = "com.android.chrome"
ROOT = "/sdcard"
STORAGE_NAME = "sdk_gphone64_x86_64"
#: AndroidWorld's shared-storage folders and the file names typical of each.
FOLDERS = awdata.EMULATOR_DIRECTORIES


class FilesOracle(ScriptedOracle):
    """Open Files (it shows Downloads), go to the folder through Show roots and the storage,
    long-press the file, then Delete (OK) or More options, Move to…, and in the picker the
    destination (through its own Show roots and the storage), MOVE."""

    def __init__(self, folder: str, name: str, dest: str | None = None) -> None:
        super().__init__()
        self.folder, self.name, self.dest = folder, name, dest
        self.done = False

    @staticmethod
    def title(screen: LabelledScreen) -> str:
        bar = screen.root.find(resource_id=f"{FILES_PACKAGE}:id/toolbar")
        texts = [n.text for n in bar.iter() if n.text] if bar is not None else []
        return texts[0] if texts else ""

    def _to(self, screen: LabelledScreen, folder: str) -> str:
        """The next step toward listing top-level ``folder`` (from anywhere in the app)."""
        if screen.root.find(resource_id=f"{FILES_PACKAGE}:id/roots_list") is not None:
            return self.tap(label_for(screen, text=STORAGE_NAME) or "")
        if self.title(screen) == STORAGE_NAME:
            label = label_for(screen, text=folder)
            return self.tap(label) if label is not None else self.scroll_search(screen)
        return self.tap(label_for(screen, desc="Show roots") or "")

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, FILES_PACKAGE, "Files")
        if step is not None:
            return step
        if self.done:
            return "F"
        if screen.root.find(text="OK") is not None and screen.root.find(resource_id="android:id/alertTitle") is not None:
            self.done = True
            return self.tap(label_for(screen, text="OK") or "")
        title = self.title(screen)
        if screen.root.find(text="MOVE") is not None:  # the Move to… picker
            if title == self.dest:
                self.done = True
                return self.tap(label_for(screen, text="MOVE") or "")
            return self._to(screen, self.dest or "")
        menu = label_for(screen, text="Move to…")
        if menu is not None:
            return self.tap(menu)
        if title.endswith(" selected"):
            if self.dest is None:
                return self.tap(label_for(screen, desc="Delete") or "")
            return self.tap(label_for(screen, desc="More options") or "")
        if title == self.folder:
            hit = find(screen, lambda n: n.text == self.name)
            return f"P {hit[0]}" if hit else self.scroll_search(screen)
        return self._to(screen, self.folder)


def seed_folder(device: Device, rng: np.random.Generator, folder: str, base: str) -> list[str]:
    """Decoys in ``folder`` as AndroidWorld's ``generate_noise_files`` names them (variants of the
    folder's typical names and of ``base``), each with 20 random characters as its content."""
    names = awdata.noise_file_names(rng, base, FOLDERS[folder])
    for name in names:
        device.write_file(f"{ROOT}/{folder}/{name}", (awdata.random_string(rng, 20) + "\n").encode())
    return names


def clear_storage(device: Device) -> None:
    """Empty the standard folders (AndroidWorld deletes every file in shared storage)."""
    for folder in FOLDERS:
        device.remove_path(f"{ROOT}/{folder}")


@register_task
class FilesDeleteFile(Task):
    mirrors = "FilesDeleteFile"
    app: ClassVar[str] = "Files"
    family: ClassVar[str] = "files"
    complexity: ClassVar[float] = 2.2
    template = (
        "Delete the file {file_name} from the Android filesystem located in the {subfolder} folder "
        "within the sdk_gphone_x86_64 storage area."
    )
    judge = "The file is gone from the folder and every decoy file is still there (AndroidWorld checks only the first)."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        # AndroidWorld: a random file name with the extension of the folder's first typical file.
        folder = awdata.pick(rng, list(FOLDERS))
        extension = FOLDERS[folder][0][FOLDERS[folder][0].rfind(".") :]
        return {"subfolder": folder, "file_name": awdata.random_file_name(rng) + extension, "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        p = self.params
        clear_storage(device)
        rng = np.random.default_rng(p["noise_seed"])
        device.write_file(f"{ROOT}/{p['subfolder']}/{p['file_name']}", (awdata.random_string(rng, 20) + "\n").encode())
        seed_folder(device, rng, p["subfolder"], p["file_name"])
        self.baseline(device)

    def baseline(self, device: Device) -> None:
        # Every other file in the folder at the start is a decoy that must survive.
        folder = f"{ROOT}/{self.params['subfolder']}"
        self._decoys = [n for n in device.list_dir(folder) if n != self.params["file_name"] and is_file(device, f"{folder}/{n}")]

    def progress(self, device: Device, answer: str | None = None) -> float:
        p = self.params
        folder = f"{ROOT}/{p['subfolder']}"
        ok = not find_under(device, folder, p["file_name"]) and all(is_file(device, f"{folder}/{d}") for d in self._decoys)
        return 1.0 if ok else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return FilesOracle(self.params["subfolder"], self.params["file_name"])


@register_task
class FilesMoveFile(Task):
    mirrors = "FilesMoveFile"
    app: ClassVar[str] = "Files"
    family: ClassVar[str] = "files"
    complexity: ClassVar[float] = 2.0
    template = (
        "Move the file {file_name} from {source_folder} within the sdk_gphone_x86_64 storage area to the {destination_folder} "
        "within the same sdk_gphone_x86_64 storage area in the Android filesystem."
    )
    judge = "The file is nowhere in the source folder (0.5) and somewhere in the destination folder (0.5); AndroidWorld 0/1."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        # AndroidWorld names the file after one typical of the destination folder.
        source = awdata.pick(rng, list(FOLDERS))
        dest = awdata.pick(rng, [f for f in FOLDERS if f != source])
        return {
            "file_name": awdata.pick(rng, FOLDERS[dest]),
            "source_folder": source,
            "destination_folder": dest,
            "noise_seed": int(rng.integers(2**31)),
        }

    def initialize(self, device: Device) -> None:
        p = self.params
        clear_storage(device)
        rng = np.random.default_rng(p["noise_seed"])
        seed_folder(device, rng, p["source_folder"], p["file_name"])
        device.write_file(f"{ROOT}/{p['source_folder']}/{p['file_name']}", (awdata.random_string(rng, 20) + "\n").encode())
        device.make_dir(f"{ROOT}/{p['destination_folder']}")

    def progress(self, device: Device, answer: str | None = None) -> float:
        p = self.params
        gone = not find_under(device, f"{ROOT}/{p['source_folder']}", p["file_name"])
        there = find_under(device, f"{ROOT}/{p['destination_folder']}", p["file_name"])
        return fraction([gone, there])

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return FilesOracle(self.params["source_folder"], self.params["file_name"], dest=self.params["destination_folder"])


# --- browser -----------------------------------------------------------------------------------


class BrowserOracle(ScriptedOracle):
    """Files -> Download -> task.html -> Open with Chrome -> through Chrome's first run -> the page."""

    def __init__(self, kind: str, seed: int) -> None:
        super().__init__()
        self.kind, self.seed = kind, seed

    def act(self, screen: LabelledScreen) -> str:
        if screen_has(screen, "Success!"):
            return "F"
        for text in ("Accept & continue", "No thanks"):
            label = label_for(screen, text=text)
            if label is not None:
                return self.tap(label)
        if screen.root.find(text="Open with") is not None:  # the chooser: Chrome, then Just once
            once = find(screen, lambda n: n.resource_id == "android:id/button_once" and n.enabled)
            return self.tap(once[0]) if once is not None else self.tap(label_for(screen, text="Chrome") or "")
        url = screen.root.find(resource_id=f"{CHROME_PACKAGE}:id/url_bar")
        if url is not None:
            return self.on_page(screen)
        step = self.open_app(screen, FILES_PACKAGE, "Files")
        if step is not None:
            return step
        for text in ("task.html", "Download"):
            label = label_for(screen, text=text)
            if label is not None:
                return self.tap(label)
        return self.scroll_search(screen)

    def on_page(self, screen: LabelledScreen) -> str:
        if self.kind == "multiply":
            # AndroidWorld's page: "Click Me" five times, then its <input id="answer">; the
            # numbers come from the page's own generator.
            click = label_for(screen, text="Click Me")
            if click is not None:
                return self.tap(click)
            product = math.prod(androidworld_multiply_numbers(self.seed))
            hit = find(screen, lambda n: n.resource_id == "answer")
            if hit is not None and hit[1].text != str(product):
                return self.type_into(screen, hit[1], hit[0], str(product))
            return self.tap(label_for(screen, text="Submit") or "")
        # The maze's walls come from the page's own generator (they show only as black cells);
        # the X is the grid's one text: its cell is where it sits in div#maze.
        maze = screen.root.find(resource_id="maze")
        mark = next((n for n in maze.iter() if n.text == "X"), None) if maze is not None else None
        if maze is None or mark is None:
            return "F"
        size = max(1, mark.bounds[2] - mark.bounds[0])
        here = ((mark.bounds[1] - maze.bounds[1]) // size, (mark.bounds[0] - maze.bounds[0]) // size)
        moves = maze_path(androidworld_maze_walls(self.seed), here)
        return self.tap(label_for(screen, text=moves[0]) or "") if moves else "F"


def screen_has(screen: LabelledScreen, text: str) -> bool:
    return screen.root.find(text=text) is not None


#: The titles of AndroidWorld's pages (task_evals/single/browser.py), which the simulator's
#: pages of the same kinds show.
PAGE_TITLES: Final = {"maze": "Maze Puzzle", "multiply": "Memory Task", "draw": "Color Challenge"}


class _BrowserTask(Task):
    app: ClassVar[str] = "Chrome"
    family: ClassVar[str] = "browser"
    kind: ClassVar[str] = ""
    judge = 'Chrome is in the foreground and the page shows "Success!" (which it prints only when solved).'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"browser_task_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        device.remove_path(f"{ROOT}/Download")
        title = PAGE_TITLES[self.kind]
        device.write_file(f"{ROOT}/Download/task.html", page_html(self.kind, self.params["browser_task_seed"], title).encode())
        device.write_file(f"{ROOT}/Download/notes.txt", b"not the task")

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if device.foreground_package() == CHROME_PACKAGE and screen_shows(device, "Success!") else 0.0

    def text_candidates(self) -> list[str]:
        if self.kind != "multiply":
            return []
        product = 1
        for n in androidworld_multiply_numbers(self.params["browser_task_seed"]):
            product *= n
        return [str(product)]

    def oracle(self) -> Oracle:
        return BrowserOracle(self.kind, self.params["browser_task_seed"])


@register_task
class BrowserMultiply(_BrowserTask):
    mirrors = "BrowserMultiply"
    complexity: ClassVar[float] = 2.2
    kind = "multiply"
    template = (
        "Open the file task.html in Downloads in the file manager; when prompted open it with Chrome. "
        "Then click the button 5 times, remember the numbers displayed, and enter their product in the form."
    )


@register_task
class BrowserMaze(_BrowserTask):
    mirrors = "BrowserMaze"
    complexity: ClassVar[float] = 2.0
    kind = "maze"
    template = (
        "Open the file task.html in Downloads in the file manager; when prompted open it with Chrome. "
        "Then navigate the X to the bottom-right cell, by using the direction buttons."
    )
