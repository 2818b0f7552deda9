"""Markor tasks, judged on the note files under Markor's notebook, where AndroidWorld keeps them.

AndroidWorld's ``MARKOR_DATA`` is ``/storage/emulated/0/Documents/Markor``; the simulator names
the same storage ``/sdcard`` (Android links one to the other). Notes are written as AndroidWorld's
``file_utils.create_file`` writes them (``echo 'text' > file``: a trailing newline; no text means
twenty random letters and digits), and decoys are drawn as its ``generate_noise_files`` draws them.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym import leftovers
from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import Device
from cerebellum_gym.errors import TaskError
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import file_text, find_under, fraction, fuzzy_match
from cerebellum_gym.tasks.files import clear_storage
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, label_for
from cerebellum_gym.tasks.registry import register_task
from cerebellum_gym.tasks.vlc import VLC_PACKAGE, video_file_name

MARKOR_PACKAGE = "net.gsantner.markor"
ROOT = "/sdcard/Documents/Markor"
EDITOR_ID = f"{MARKOR_PACKAGE}:id/document__fragment__edit__highlighting_editor"
SUBFOLDERS = awdata.MARKOR_SUBFOLDERS
NOTE_TITLES = awdata.NOTE_TITLES


def create_file(device: Device, path: str, content: str, rng: np.random.Generator | None = None) -> str:
    """Write ``content`` and a newline, as ``echo`` does; empty content becomes 20 random characters."""
    if not content:
        content = awdata.random_string(rng if rng is not None else np.random.default_rng(0), 20)
    device.write_file(path, (content + "\n").encode())
    return content


def seed_noise(device: Device, rng: np.random.Generator, folder: str, base: str, n: int = 20) -> list[str]:
    """Decoy notes in ``folder``, named as AndroidWorld names them: variants of its note titles and of ``base``."""
    names = awdata.noise_file_names(rng, base, NOTE_TITLES, n)
    for name in names:
        create_file(device, f"{folder}/{name}", "", rng)
    return names


def reset_markor(device: Device) -> None:
    device.remove_path(ROOT)


ROW_ID = f"{MARKOR_PACKAGE}:id/opoc_filesystem_item__root"
NAME_ID = f"{MARKOR_PACKAGE}:id/new_file_dialog__name"
RENAME_ID = f"{MARKOR_PACKAGE}:id/new_name"
TYPE_ID = f"{MARKOR_PACKAGE}:id/new_file_dialog__type"
PICKER_TITLE_ID = f"{MARKOR_PACKAGE}:id/ui__filesystem_dialog__title"
#: The new-file dialog's types and the extension each gives (longest first, for matching a name).
NEW_FILE_TYPES = (("todo.txt", ".todo.txt"), ("Markdown", ".md"), ("Plain Text", ".txt"), ("AsciiDoc", ".adoc"), ("CSV", ".csv"))


def split_name(name: str) -> tuple[str, str]:
    """The new-file dialog's name and Type for a file ``name``: Markor names the file name +
    the type's extension, so a name with none of them is typed whole under the type None."""
    for label, ext in NEW_FILE_TYPES:
        if name.endswith(ext) and len(name) > len(ext):
            return name[: -len(ext)], label
    return name, "None"


class MarkorOracle(ScriptedOracle):
    """Moves every Markor task needs: open the app, go to a folder, select notes, edit text."""

    def __init__(self) -> None:
        super().__init__()
        self.replacing = False

    def ready(self, screen: LabelledScreen) -> str | None:
        return self.open_app(screen, MARKOR_PACKAGE, "Markor")

    @staticmethod
    def title(screen: LabelledScreen) -> str:
        bar = screen.root.find(resource_id=f"{MARKOR_PACKAGE}:id/toolbar")
        texts = [n.text for n in bar.iter() if n.text] if bar is not None else []
        return texts[0] if texts else ""

    @staticmethod
    def selecting(screen: LabelledScreen) -> bool:
        """Whether the file list has a selection (its toolbar shows Delete)."""
        return screen.root.find(resource_id=f"{MARKOR_PACKAGE}:id/action_delete_selected_items") is not None

    @staticmethod
    def dialog(screen: LabelledScreen) -> str | None:
        node = screen.root.find(resource_id="android:id/alertTitle")
        return node.text if node is not None else None

    @staticmethod
    def row(screen: LabelledScreen, name: str, kinds: tuple[str, ...] = ("File", "Folder", "Selected")) -> tuple[str, UINode] | None:
        """The list row of ``name`` (its content-desc is "<kind> <name> <description>")."""
        return find(screen, lambda n: n.resource_id == ROW_ID and n.content_desc.startswith(tuple(f"{k} {name} " for k in kinds)))

    def goto(self, screen: LabelledScreen, folder: str | None) -> str | None:
        """The next action toward the list of ``folder`` (``None``: the root), or ``None`` there."""
        if self.selecting(screen):  # a tap on a selected row unselects it (Back would not)
            hit = find(screen, lambda n: n.resource_id == ROW_ID and n.content_desc.startswith("Selected "))
            return self.tap(hit[0]) if hit else self.scroll_search(screen)
        if screen.root.find(resource_id=EDITOR_ID) is not None:
            return "B"
        if screen.root.find(resource_id=PICKER_TITLE_ID) is not None:
            return "B"
        title = self.title(screen)
        want = f"> {folder}" if folder else "Markor"
        if title == want:
            return None
        if title != "Markor":
            return "B"
        hit = self.row(screen, want[2:], ("Folder",))
        return self.tap(hit[0]) if hit else self.scroll_search(screen)

    def set_text(self, screen: LabelledScreen, node: UINode, label: str, want: str, hint: str) -> str | None:
        """The next action to make field ``node`` read ``want`` (``None`` when it does)."""
        if node.text == want:
            self.replacing = False
            return None
        if self.replacing:
            self.replacing = False
            return f"K {want}"
        if node.text in ("", hint):
            return self.type_into(screen, node, label, want)
        self.replacing = True
        return f"P {label}"

    def fill_dialog(self, screen: LabelledScreen, value: str, button: str, hint: str = "my_note") -> str:
        hit = find(screen, lambda n: n.resource_id in (NAME_ID, RENAME_ID))
        if hit is not None:
            step = self.set_text(screen, hit[1], hit[0], value, hint)
            if step is not None and hit[1].text != value:
                return step
        label = label_for(screen, text=button)
        return self.tap(label) if label else "B"

    def select(self, screen: LabelledScreen, names: list[str]) -> str | None:
        """Long-press the first of ``names``, then tap the rest; ``None`` once all are selected."""
        for name in names:
            hit = self.row(screen, name)
            if hit is None:
                return self.scroll_search(screen)
            if not hit[1].content_desc.startswith("Selected "):
                return f"{'T' if self.selecting(screen) else 'P'} {hit[0]}"
        return None


class CreateNoteOracle(MarkorOracle):
    """The + button, the name (and the Type giving its extension), OK, then the text and Save."""

    def __init__(self, name: str, text: str) -> None:
        super().__init__()
        self.name, self.text = name, text
        self.typed_name, self.type = split_name(name)
        self.saved = False

    def act(self, screen: LabelledScreen) -> str:
        step = self.ready(screen)
        if step is not None:
            return step
        editor = find(screen, lambda n: n.resource_id == EDITOR_ID)
        if editor is not None and self.title(screen) == self.name:
            step = self.set_text(screen, editor[1], editor[0], self.text, "")
            if step is not None:
                return step
            if self.saved:
                return "F"
            self.saved = True
            return self.tap(label_for(screen, desc="Save") or "")
        spinner = screen.root.find(resource_id=TYPE_ID)
        if spinner is not None:
            if not any(n.text == self.type for n in spinner.iter()):
                return self.tap(label_for(screen, rid=TYPE_ID) or "")
            return self.fill_dialog(screen, self.typed_name, "OK")
        if self.dialog(screen) == "" and label_for(screen, text=self.type) is not None:  # the Type list
            return self.tap(label_for(screen, text=self.type) or "")
        step = self.goto(screen, None)
        if step is not None:
            return step
        return self.tap(label_for(screen, desc="Create a new file or folder") or "")


@register_task
class MarkorCreateNote(Task):
    mirrors = "MarkorCreateNote"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.6
    template = "Create a new note in Markor named {file_name} with the following text: {text}"
    judge = (
        "A note <file_name> exists in Markor's notebook (0.5) and the text of <notebook>/<file_name>, trimmed, fuzzy-matches "
        "(ratio >= 0.9) the requested text (0.5); AndroidWorld scores it 0/1."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"file_name": awdata.random_note_name(rng), "text": awdata.pick(rng, awdata.SENTENCES)}

    def initialize(self, device: Device) -> None:
        reset_markor(device)

    def progress(self, device: Device, answer: str | None = None) -> float:
        content = file_text(device, f"{ROOT}/{self.params['file_name']}")
        exists = find_under(device, ROOT, self.params["file_name"])
        return fraction([exists, exists and content is not None and fuzzy_match(content.strip(), self.params["text"])])

    def oracle(self) -> Oracle:
        return CreateNoteOracle(self.params["file_name"], self.params["text"])


class DeleteOracle(MarkorOracle):
    """Select the notes (a long press, then taps; every row for ``names=None``), Delete, OK."""

    def __init__(self, names: list[str] | None, folder: str | None = None) -> None:
        super().__init__()
        self.names = names
        self.folder = folder
        self.confirmed = False

    def act(self, screen: LabelledScreen) -> str:
        step = self.ready(screen)
        if step is not None:
            return step
        if self.confirmed:
            return "F"
        if self.dialog(screen) == "Confirm Delete":
            self.confirmed = True
            return self.tap(label_for(screen, text="OK") or "")
        if not self.selecting(screen):
            step = self.goto(screen, self.folder)
            if step is not None:
                return step
        if self.names is None:  # everything: each row but "..", then Delete
            hit = find(
                screen,
                lambda n: (
                    n.resource_id == ROW_ID
                    and n.content_desc.startswith(("File ", "Folder "))
                    and not n.content_desc.startswith("Folder .. ")
                ),
            )
            if hit is not None:
                return f"{'T' if self.selecting(screen) else 'P'} {hit[0]}"
            if not self.selecting(screen):
                return "F"  # nothing to delete
            signature = self._signature(screen)
            if screen.scrollable is not None and signature != self._last_signature:
                self._last_signature = signature
                return "D"
            return self.tap(label_for(screen, desc="Delete") or "")
        step = self.select(screen, self.names)
        if step is not None:
            return step
        return self.tap(label_for(screen, desc="Delete") or "")


@register_task
class MarkorDeleteNote(Task):
    mirrors = "MarkorDeleteNote"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.0
    template = "Delete the note in Markor named {file_name}."
    judge = (
        "No file or folder <file_name> is left in Markor's notebook, and every decoy note is still there "
        "(AndroidWorld checks only the first)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        # AndroidWorld's name here has no extension (generate_random_file_name).
        return {"file_name": awdata.random_file_name(rng), "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        rng = np.random.default_rng(self.params["noise_seed"])
        create_file(device, f"{ROOT}/{self.params['file_name']}", "", rng)
        seed_noise(device, rng, ROOT, self.params["file_name"])
        self.baseline(device)

    def baseline(self, device: Device) -> None:
        # Every other note at the start is a decoy that must survive.
        self._decoys = [n for n in device.list_dir(ROOT) if n != self.params["file_name"]]

    def progress(self, device: Device, answer: str | None = None) -> float:
        names = set(device.list_dir(ROOT))
        ok = not find_under(device, ROOT, self.params["file_name"]) and all(d in names for d in self._decoys)
        return 1.0 if ok else 0.0

    def oracle(self) -> Oracle:
        return DeleteOracle([self.params["file_name"]])


@register_task
class MarkorDeleteAllNotes(Task):
    mirrors = "MarkorDeleteAllNotes"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.4
    template = "Delete all my notes in Markor."
    judge = (
        "No regular files remain at the top of Markor's notebook; partial credit is the share of the seeded notes deleted "
        "(AndroidWorld scores it 0/1)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        # AndroidWorld: 1 to n decoy notes, n drawn from 2-6, named after a random 5-character stem.
        return {"stem": awdata.random_string(rng, 5), "max_notes": int(rng.integers(2, 7)), "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        rng = np.random.default_rng(self.params["noise_seed"])
        seed_noise(device, rng, ROOT, self.params["stem"], self.params["max_notes"])
        self.baseline(device)

    def baseline(self, device: Device) -> None:
        self._notes = [n for n in device.list_dir(ROOT) if file_text(device, f"{ROOT}/{n}") is not None]

    def progress(self, device: Device, answer: str | None = None) -> float:
        names = set(device.list_dir(ROOT))
        remaining = [n for n in names if file_text(device, f"{ROOT}/{n}") is not None]
        if not remaining:
            return 1.0
        # Never full credit while a note remains, even if it was not one of the seeded ones.
        return min(0.99, fraction(n not in names for n in self._notes))

    def oracle(self) -> Oracle:
        return DeleteOracle(None)


class EditOracle(MarkorOracle):
    """Open the note, make its text ``text`` and Save (or, to rename it too, leave the editor,
    which saves, then select the note in the list and Rename it); done."""

    def __init__(self, name: str, text: str, new_name: str | None = None, folder: str | None = None) -> None:
        super().__init__()
        self.name, self.text, self.new_name, self.folder = name, text, new_name, folder
        self.edited = False
        self.done = False

    def act(self, screen: LabelledScreen) -> str:
        step = self.ready(screen)
        if step is not None:
            return step
        if self.done:
            return "F"
        editor = find(screen, lambda n: n.resource_id == EDITOR_ID)
        if not self.edited:
            if editor is not None:
                step = self.set_text(screen, editor[1], editor[0], self.text, "")
                if step is not None:
                    return step
                self.edited = True
                if self.new_name is None:
                    self.done = True
                    return self.tap(label_for(screen, desc="Save") or "")
                return self.tap(label_for(screen, desc="Navigate up") or "")  # leaving saves
            step = self.goto(screen, self.folder)
            if step is not None:
                return step
            hit = self.row(screen, self.name, ("File",))
            return self.tap(hit[0]) if hit else self.scroll_search(screen)
        assert self.new_name is not None
        if self.dialog(screen) == "Rename":
            hit = find(screen, lambda n: n.resource_id == RENAME_ID)
            if hit is not None and hit[1].text == self.new_name:
                self.done = True
            return self.fill_dialog(screen, self.new_name, "OK", "Enter the name of your folder")
        if self.selecting(screen) and self.row(screen, self.name, ("Selected",)) is not None:
            return self.tap(label_for(screen, desc="Rename") or "")
        if editor is not None:
            return "B"
        step = self.goto(screen, self.folder)
        if step is not None:
            return step
        step = self.select(screen, [self.name])
        return step if step is not None else "W"


@register_task
class MarkorEditNote(Task):
    mirrors = "MarkorEditNote"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.2
    template = (
        "Edit {file_name} in Markor. Add to the top of the note {header}"
        " | Edit {file_name} in Markor. Add to the bottom of the note {footer}"
        " | Edit {file_name} in Markor. Replace the text with {replace_text}"
    )
    judge = "The note's text fuzzy-matches header + newline + original, original + newline + footer, or the replacement text, by edit type."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        sentence = lambda: awdata.pick(rng, awdata.SENTENCES)  # noqa: E731
        params: dict[str, Any] = {
            "file_name": f"note_{awdata.random_string(rng, 5)}{awdata.pick(rng, ('.md', '.txt'))}",
            "edit_type": awdata.pick(rng, ("header", "footer", "replace")),
        }
        # Only the chosen edit's text, as AndroidWorld draws it; the note's text is drawn at set-up there.
        field = {"header": "header", "footer": "footer", "replace": "replace_text"}[params["edit_type"]]
        params[field] = "\n".join(sentence() for _ in range(3)) if field == "replace_text" else sentence()
        return {**params, "original": sentence(), "noise_seed": int(rng.integers(2**31))}

    @property
    def goal(self) -> str:
        # AndroidWorld's template property: one template per edit type, in this order.
        variant = self.template.split(" | ")[("header", "footer", "replace").index(self.params["edit_type"])]
        return variant.format(**self.params)

    @property
    def expected(self) -> str:
        p = self.params
        if p["edit_type"] == "header":
            return f"{p['header']}\n{p['original']}"
        if p["edit_type"] == "footer":
            return f"{p['original']}\n{p['footer']}"
        return str(p["replace_text"])

    def text_candidates(self) -> list[str]:
        return [self.expected, self.params[{"header": "header", "footer": "footer", "replace": "replace_text"}[self.params["edit_type"]]]]

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        seed_noise(device, np.random.default_rng(self.params["noise_seed"]), ROOT, self.params["file_name"])
        create_file(device, f"{ROOT}/{self.params['file_name']}", self.params["original"])

    def baseline(self, device: Device) -> None:
        # Set up elsewhere (AndroidWorld writes its own random sentence): the note holds the original.
        if "original" not in self.params:
            self.params["original"] = (file_text(device, f"{ROOT}/{self.params['file_name']}") or "").replace("\r", "").strip()

    def progress(self, device: Device, answer: str | None = None) -> float:
        content = file_text(device, f"{ROOT}/{self.params['file_name']}")
        return 1.0 if content is not None and fuzzy_match(content.replace("\r", "").strip(), self.expected) else 0.0

    def oracle(self) -> Oracle:
        return EditOracle(self.params["file_name"], self.expected)


class _RenameEdit(Task):
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.2

    @classmethod
    def note_names(cls, rng: np.random.Generator) -> tuple[str, str]:
        original_name = awdata.random_note_name(rng)
        new_name = awdata.random_note_name(rng)
        while new_name == original_name:  # AndroidWorld may draw the same name twice; the task is then void
            new_name = awdata.random_note_name(rng)
        return original_name, new_name

    @property
    def expected(self) -> str:
        raise NotImplementedError

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        rng = np.random.default_rng(self.params["noise_seed"])
        create_file(device, f"{ROOT}/{self.params['original_name']}", self.params["original_content"])
        seed_noise(device, rng, ROOT, self.params["original_name"])
        # A decoy may not take the new name (AndroidWorld's finds it anywhere below the notebook).
        device.remove_path(f"{ROOT}/{self.params['new_name']}")

    def content_ok(self, content: str) -> bool:
        return fuzzy_match(content.replace("\r", "").strip(), self.expected)

    def progress(self, device: Device, answer: str | None = None) -> float:
        p = self.params
        new = file_text(device, f"{ROOT}/{p['new_name']}")
        # Three parts: the old name is gone, the new name exists, and it holds the right text.
        old_gone = not find_under(device, ROOT, p["original_name"])
        return fraction([old_gone, find_under(device, ROOT, p["new_name"]), new is not None and self.content_ok(new)])

    def text_candidates(self) -> list[str]:
        return [self.expected, self.params["new_name"]]

    def oracle(self) -> Oracle:
        return EditOracle(self.params["original_name"], self.expected, new_name=self.params["new_name"])


@register_task
class MarkorChangeNoteContent(_RenameEdit):
    mirrors = "MarkorChangeNoteContent"
    template = 'Update the content of {original_name} to "{updated_content}" in Markor and change its name to {new_name}.'
    judge = "Old name gone, new name exists, its trimmed text fuzzy-matches the update (a third each; AndroidWorld scores it 0/1)."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        original_name, new_name = cls.note_names(rng)
        return {
            "original_name": original_name,
            "new_name": new_name,
            "updated_content": awdata.random_string(rng, 20),
            "original_content": awdata.random_string(rng, 20),
            "noise_seed": int(rng.integers(2**31)),
        }

    @property
    def expected(self) -> str:
        return str(self.params["updated_content"])


@register_task
class MarkorAddNoteHeader(_RenameEdit):
    mirrors = "MarkorAddNoteHeader"
    template = (
        "Update the Markor note {original_name} by adding the following text, "
        'along with a new blank line before the existing content: "{header}", '
        "and rename it to {new_name}."
    )
    judge = (
        "Old name gone, new name exists, its text is exactly header, blank line, the original text, with or without the note's "
        "final newline (a third each; AndroidWorld 0/1 and the newline required)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        original_name, new_name = cls.note_names(rng)
        return {
            "original_name": original_name,
            "original_content": awdata.pick(rng, awdata.SENTENCES),
            "new_name": new_name,
            "header": awdata.random_string(rng, 20),
            "noise_seed": int(rng.integers(2**31)),
        }

    @property
    def expected(self) -> str:
        # The note was written with echo, so it ends in a newline, which AndroidWorld's exact match keeps.
        return f"{self.params['header']}\n\n{self.params['original_content']}\n"

    def content_ok(self, content: str) -> bool:
        # Exact, except that the final newline may be missing: the simulator's editor has no cursor, so
        # a header goes in by retyping the note, and that newline is invisible (docs/tasks.md).
        return content in (self.expected, self.expected[:-1])


class CreateFolderOracle(MarkorOracle):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def act(self, screen: LabelledScreen) -> str:
        step = self.ready(screen)
        if step is not None:
            return step
        if screen.root.find(resource_id=NAME_ID) is not None:
            return self.fill_dialog(screen, self.name, "Folder")
        if self.row(screen, self.name, ("Folder",)) is not None:
            return "F"
        step = self.goto(screen, None)
        if step is not None:
            return step
        return self.tap(label_for(screen, desc="Create a new file or folder") or "")


@register_task
class MarkorCreateFolder(Task):
    mirrors = "MarkorCreateFolder"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.0
    template = "Create a new folder in Markor named {folder_name}."
    judge = (
        "A directory (not a file) of that name exists at the top of Markor's notebook "
        "(the name comes from the seed, not the host clock as in AndroidWorld)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        day, hour, minute, second = (int(x) for x in (rng.integers(1, 29), rng.integers(0, 24), rng.integers(0, 60), rng.integers(0, 60)))
        return {"folder_name": f"folder_202310{day:02d}_{hour:02d}{minute:02d}{second:02d}", "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        seed_noise(device, np.random.default_rng(self.params["noise_seed"]), ROOT, "file")

    def progress(self, device: Device, answer: str | None = None) -> float:
        name = self.params["folder_name"]
        ok = name in device.list_dir(ROOT) and file_text(device, f"{ROOT}/{name}") is None
        return 1.0 if ok else 0.0

    def oracle(self) -> Oracle:
        return CreateFolderOracle(self.params["folder_name"])


class MoveOracle(MarkorOracle):
    """Select the note, More options, Move; in the folder picker go up to the notebook, into the
    destination, and Select this folder."""

    def __init__(self, name: str, source: str, dest: str) -> None:
        super().__init__()
        self.name, self.source, self.dest = name, source, dest
        self.moved = False

    def act(self, screen: LabelledScreen) -> str:
        step = self.ready(screen)
        if step is not None:
            return step
        if self.moved:
            return "F"
        picker = screen.root.find(resource_id=PICKER_TITLE_ID)
        if picker is not None:
            if picker.text == f"Move → {self.dest}":
                self.moved = True
                return self.tap(label_for(screen, text="Select this folder") or "")
            if picker.text != "Move → Markor":
                up = self.row(screen, "..", ("Folder",))
                return self.tap(up[0]) if up else "B"
            hit = self.row(screen, self.dest, ("Folder",))
            return self.tap(hit[0]) if hit else self.scroll_search(screen)
        move = find(screen, lambda n: n.resource_id == "android:id/title" and n.text == "Move")
        if move is not None:
            return self.tap(move[0])
        if not self.selecting(screen):
            step = self.goto(screen, self.source)
            if step is not None:
                return step
        step = self.select(screen, [self.name])
        if step is not None:
            return step
        return self.tap(label_for(screen, desc="More options") or "")


@register_task
class MarkorMoveNote(Task):
    mirrors = "MarkorMoveNote"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.4
    template = "In Markor, move the note {file_name} from {source_folder} to {destination_folder}."
    judge = "The note is nowhere in the source folder (0.5) and somewhere in the destination folder (0.5); AndroidWorld 0/1."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        source = awdata.pick(rng, SUBFOLDERS)
        dest = awdata.pick(rng, [f for f in SUBFOLDERS if f != source])
        return {
            "file_name": awdata.random_note_name(rng),
            "source_folder": source,
            "destination_folder": dest,
            "noise_seed": int(rng.integers(2**31)),
        }

    def initialize(self, device: Device) -> None:
        p = self.params
        reset_markor(device)
        rng = np.random.default_rng(p["noise_seed"])
        source = f"{ROOT}/{p['source_folder']}"
        seed_noise(device, rng, source, p["file_name"])
        create_file(device, f"{source}/{p['file_name']}", "", rng)
        device.make_dir(f"{ROOT}/{p['destination_folder']}")

    def progress(self, device: Device, answer: str | None = None) -> float:
        p = self.params
        gone = not find_under(device, f"{ROOT}/{p['source_folder']}", p["file_name"])
        there = find_under(device, f"{ROOT}/{p['destination_folder']}", p["file_name"])
        return fraction([gone, there])

    def oracle(self) -> Oracle:
        return MoveOracle(self.params["file_name"], self.params["source_folder"], self.params["destination_folder"])


class MergeOracle(CreateNoteOracle):
    """Create the merged note with no extension (the new-file dialog's Type None), then type
    the three notes' contents with a blank line between each."""


@register_task
class MarkorMergeNotes(Task):
    mirrors = "MarkorMergeNotes"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 7.8
    template = (
        "Merge the contents of Markor notes {file1_name}, {file2_name} and {file3_name} (in the same order) into a new Markor "
        "note named {new_file_name} and save it. Add a new line between the content of each note."
    )
    judge = (
        "A note named exactly <new_file_name> (no extension) exists (a third), its text fuzzy-matches the three notes' texts "
        "joined by blank lines (a third), and, trimmed, it is five lines with the second and fourth empty (a third); "
        "AndroidWorld scores it 0/1."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        names = {f"file{i}_name": awdata.random_note_name(rng) for i in (1, 2, 3)}
        return {
            **names,
            "new_file_name": awdata.random_string(rng, 8),
            **{f"file{i}_content": awdata.random_string(rng, 20) for i in (1, 2, 3)},
        }

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        for i in (1, 2, 3):
            create_file(device, f"{ROOT}/{self.params[f'file{i}_name']}", self.params[f"file{i}_content"])

    @property
    def merged(self) -> str:
        return "\n\n".join(self.params[f"file{i}_content"] for i in (1, 2, 3))

    def progress(self, device: Device, answer: str | None = None) -> float:
        text = file_text(device, f"{ROOT}/{self.params['new_file_name']}")
        if text is None:
            return 0.0
        lines = text.replace("\r", "").strip().split("\n")
        shaped = len(lines) == 5 and not lines[1] and not lines[3]
        return fraction([True, fuzzy_match(text.replace("\r", "").strip(), self.merged + "\n"), shaped])

    def text_candidates(self) -> list[str]:
        return [self.params["new_file_name"], self.merged]

    def oracle(self) -> Oracle:
        return MergeOracle(self.params["new_file_name"], self.merged)


@register_task
class MarkorDeleteNewestNote(Task):
    mirrors = "MarkorDeleteNewestNote"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.0
    template = "Delete the newest note in Markor."
    judge = (
        "Exactly one note fewer, and the others keep their names and change times in the order of their change times: only "
        "the note changed last is gone (AndroidWorld's check). The notes are written at AndroidWorld's times, 500 minutes "
        "either way apart, in the order of those times."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        count = int(rng.integers(2, 7))
        names: list[str] = []
        while len(names) < count:
            name = awdata.random_note_name(rng)
            if name not in names:
                names.append(name)
        return {
            "names": names,
            "texts": [awdata.pick(rng, awdata.SENTENCES) for _ in names],
            # AndroidWorld moves the clock by these many minutes after each note (back or forth).
            "shifts": [int(rng.integers(-500, 501)) for _ in names],
        }

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        return {"names": [], "texts": [], "shifts": []}

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        p = self.params
        # Note i is written at minute sum(shifts[:i]) of AndroidWorld's clock; this device's clock
        # only runs forward, so the notes are written in the order of those minutes.
        at = [sum(p["shifts"][:i]) for i in range(len(p["names"]))]
        now = min(at)
        for i in sorted(range(len(at)), key=lambda i: at[i]):
            device.wait(60.0 * (at[i] - now))
            now = at[i]
            create_file(device, f"{ROOT}/{p['names'][i]}", p["texts"][i])
        self.baseline(device)

    def _by_time(self, device: Device) -> list[tuple[str, float]]:
        """The notebook's files by change time (name order among equal times, as ``ls`` lists them)."""
        names = [n for n in device.list_dir(ROOT) if file_text(device, f"{ROOT}/{n}") is not None]
        return sorted(((n, device.file_mtime(f"{ROOT}/{n}")) for n in names), key=lambda item: item[1])

    def baseline(self, device: Device) -> None:
        self._before = self._by_time(device)

    def progress(self, device: Device, answer: str | None = None) -> float:
        after = self._by_time(device)
        return 1.0 if len(after) == len(self._before) - 1 and after == self._before[: len(after)] else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return DeleteOracle([self._before[-1][0]] if self._before else [])


# --- a video to transcribe -------------------------------------------------------------------------

DOWNLOAD = "/sdcard/Download"
#: AndroidWorld's video: 320 x 240, each message on screen 8 s over noise. AndroidWorld encodes
#: 30 frames a second; the simulator's copy has 2, which shows the same words for the same time
#: (a player's screen and duration are what anyone sees) and encodes in a fifteenth of the time:
#: a reset of MarkorTranscribeVideo took 1.2 s at a new seed (``benchmarks/perf/reset.py``).
VIDEO_SIZE = (320, 240)
VIDEO_FPS = 2
MESSAGE_SECONDS = 8
#: Encoded videos by what they show (encoding costs about 2 ms a frame): the same episode twice
#: encodes once; at most this many bytes are kept.
_VIDEOS: dict[tuple[Any, ...], bytes] = {}
_VIDEO_CACHE_BYTES = 64 * 2**20
#: The most seconds one frame of a plain (noise-free) video is held (see :func:`message_video`).
STILL_HOLD = 10


def message_video(
    messages: list[str], fps: int, display_time: int, seed: int, *, noisy: bool = True, size: tuple[int, int] = VIDEO_SIZE
) -> bytes:
    """AndroidWorld's ``_create_mpeg_with_messages``: an MP4 (``mp4v``) where each message is shown
    for ``display_time`` seconds, in yellow (OpenCV's Hershey simplex, scale 1, thickness 2) at
    (50, middle) over a background of random noise drawn anew for every frame (``noisy``; a plain
    dark one otherwise), drawn from ``seed``: the same arguments give the same bytes. A plain
    video's frames of one message are all alike, so it holds each for up to :data:`STILL_HOLD`
    seconds (``fps`` is then ignored): as long, the same picture, a tenth of the frames to encode.

    Raises:
        TaskError: OpenCV (which AndroidWorld's video tasks need too) is not installed.
    """
    key = (tuple(messages), fps, display_time, noisy, size, seed)
    if key in _VIDEOS:
        return _VIDEOS[key]
    rng = np.random.default_rng(seed)
    try:
        cv2: Any = importlib.import_module("cv2")
    except ImportError as exc:
        raise TaskError(f"this task writes a video, which needs OpenCV: pip install 'cerebellum-gym[video]' ({exc})") from exc
    width, height = size
    path = leftovers.owned_file("task-video", ".mp4")
    try:
        # A whole number of seconds a frame, dividing the message's time: the duration is exact.
        hold = 0 if noisy else max(h for h in range(1, STILL_HOLD + 1) if display_time % h == 0)
        writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), 1 / hold if hold else fps, (width, height))
        plain = np.full((height, width, 3), 40, np.uint8)
        for message in messages:
            for _ in range(display_time // hold if hold else display_time * fps):
                frame = rng.integers(0, 256, (height, width, 3), dtype=np.uint8) if noisy else plain.copy()
                cv2.putText(frame, message, (50, height // 2), cv2.FONT_HERSHEY_SIMPLEX, 1, (0, 255, 255), 2, cv2.LINE_AA)
                writer.write(frame)
        writer.release()
        with open(path, "rb") as written:
            data = written.read()
    finally:
        leftovers.remove(path)
    if not data:
        raise TaskError("OpenCV wrote no video (its FFmpeg backend is missing)")
    _VIDEOS[key] = data
    while sum(len(v) for v in _VIDEOS.values()) > _VIDEO_CACHE_BYTES and len(_VIDEOS) > 1:
        _VIDEOS.pop(next(iter(_VIDEOS)))  # the oldest first
    return data


class TranscribeOracle(CreateNoteOracle):
    """Play the video in VLC (its frames show the words), then write them in Markor: the names are
    read from the episode's parameters, since a video's words are in pixels only."""

    def __init__(self, video_name: str, name: str, text: str) -> None:
        super().__init__(name, text)
        self.title_shown = video_name.rsplit(".", 1)[0]
        self.watched = False

    def act(self, screen: LabelledScreen) -> str:
        if self.watched:
            return super().act(screen)
        step = self.open_app(screen, VLC_PACKAGE, "VLC")
        if step is not None:
            return step
        if screen.root.find(resource_id=f"{VLC_PACKAGE}:id/player_surface") is not None:
            self.watched = True
            return "W"
        video = label_for(screen, text=self.title_shown)
        return self.tap(video) if video else self.scroll_search(screen)


@register_task
class MarkorTranscribeVideo(Task):
    mirrors = "MarkorTranscribeVideo"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 2.0
    template = (
        "Transcribe the contents of video {video_name} by watching it in VLC player (located in Download) and writing the"
        " sequence of strings shown on each frame to the text file {file_name} in Markor as a comma separated list. For"
        ' example, if the first frame shows the text "edna" and the second frame shows the text "pineapple", then the'
        ' text file should contain only the following text: "edna, pineapple".'
    )
    judge = (
        "Markor's notebook holds <file_name> and its text, trimmed, fuzzy-matches (ratio >= 0.9) the names the video shows,"
        " comma-joined (AndroidWorld's CreateFile)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        names = list(awdata.GIVEN_NAMES)
        messages = [str(m) for m in rng.choice(names, size=int(rng.integers(2, 5)), replace=False)]
        video_name = video_file_name(rng)
        return {
            "file_name": f"{video_name.split('.')[0]}_transcription.txt",
            "text": ",".join(messages),
            "messages": messages,
            "video_name": video_name,
            "noise_files": [video_file_name(rng) for _ in range(int(rng.integers(5, 21)))],
            "video_seed": int(rng.integers(2**31)),
        }

    def initialize(self, device: Device) -> None:
        clear_storage(device)  # AndroidWorld's CreateFile: clear_device_storage
        rng = np.random.default_rng(self.params.get("video_seed", 0))
        video = message_video(list(self.params["messages"]), VIDEO_FPS, MESSAGE_SECONDS, int(rng.integers(2**31)))
        device.write_file(f"{DOWNLOAD}/{self.params['video_name']}", video)
        for name in self.params["noise_files"]:
            # A random string for 20 to 180 s at 1 frame a second, as AndroidWorld's noise; on a
            # plain background here, which encodes in a tenth of the time.
            seconds, text = int(rng.integers(20, 181)), awdata.random_string(rng, 10)
            noise = message_video([text], 1, seconds, int(rng.integers(2**31)), noisy=False)
            device.write_file(f"{DOWNLOAD}/{name}", noise)

    def progress(self, device: Device, answer: str | None = None) -> float:
        content = file_text(device, f"{ROOT}/{self.params['file_name']}")
        return 1.0 if content is not None and fuzzy_match(content.replace("\r", "").strip(), self.params["text"]) else 0.0

    def text_candidates(self) -> list[str]:
        return [self.params["text"], *self.params["messages"]]

    def oracle(self) -> Oracle:
        return TranscribeOracle(self.params["video_name"], self.params["file_name"], self.params["text"])
