"""Markor tasks, judged on the note files under ``/sdcard/Markor`` as AndroidWorld does."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import SENTENCES, file_text, fraction, fuzzy_match, random_code, random_file_name, random_file_stem
from cerebellum_gym.tasks.oracle import ScriptedOracle, by_text, find, label_for
from cerebellum_gym.tasks.registry import register_task

MARKOR_PACKAGE = "net.gsantner.markor"
ROOT = "/sdcard/Markor"
EDITOR_ID = f"{MARKOR_PACKAGE}:id/document__fragment__edit__highlighting_editor"
SUBFOLDERS = (
    "BookNotes",
    "CodeSnippets",
    "DailyNotes",
    "FitnessPlans",
    "MeetingNotes",
    "PersonalJournal",
    "RecipeCollections",
    "StudyGuides",
    "TravelItineraries",
    "WorkProjects",
)
NOTE_TITLES = ("grocery_list", "weekly_plan", "ideas", "reading_log", "todo", "journal_entry", "project_notes", "travel_plan")


def seed_notes(device: Device, rng: np.random.Generator, folder: str, count: int, avoid: set[str]) -> list[str]:
    """Write ``count`` decoy notes with distinct names (none in ``avoid``) into ``folder``."""
    names: list[str] = []
    while len(names) < count:
        name = f"{rng.choice(NOTE_TITLES)}_{random_code(rng, 3).lower()}.md"
        if name in avoid or name in names:
            continue
        device.write_file(f"{folder}/{name}", str(rng.choice(SENTENCES)).encode())
        names.append(name)
    return names


def reset_markor(device: Device) -> None:
    device.remove_path(ROOT)


class MarkorOracle(ScriptedOracle):
    """Moves every Markor task needs: open the app past its intro, go to a folder, edit text."""

    def __init__(self) -> None:
        super().__init__()
        self.replacing = False

    def ready(self, screen: LabelledScreen) -> str | None:
        step = self.open_app(screen, MARKOR_PACKAGE, "Markor")
        if step is not None:
            return step
        skip = label_for(screen, text="Skip")
        return self.tap(skip) if skip else None

    @staticmethod
    def title(screen: LabelledScreen) -> str:
        bar = screen.root.find(resource_id=f"{MARKOR_PACKAGE}:id/toolbar")
        texts = [n.text for n in bar.iter() if n.text] if bar is not None else []
        return texts[0] if texts else ""

    @staticmethod
    def dialog(screen: LabelledScreen) -> str | None:
        node = screen.root.find(resource_id="android:id/alertTitle")
        return node.text if node is not None else None

    def goto(self, screen: LabelledScreen, folder: str | None) -> str | None:
        """The next action toward the list of ``folder`` (``None``: the root), or ``None`` there."""
        title = self.title(screen)
        if title.endswith(" selected"):
            return "B"
        if screen.root.find(resource_id=EDITOR_ID) is not None:
            return "B"
        want = folder or "Markor"
        if title == want:
            return None
        if title != "Markor":
            return "B"
        label = label_for(screen, text=want)
        return self.tap(label) if label else self.scroll_search(screen)

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

    def fill_dialog(self, screen: LabelledScreen, value: str, button: str) -> str:
        hit = find(screen, lambda n: n.resource_id.endswith(":id/file"))
        if hit is not None:
            step = self.set_text(screen, hit[1], hit[0], value, "Name")
            if step is not None and hit[1].text != value:
                return step
        label = label_for(screen, text=button)
        return self.tap(label) if label else "B"

    def select(self, screen: LabelledScreen, names: list[str]) -> str | None:
        """Long-press the first of ``names``, then tap the rest; ``None`` once all are selected."""
        for name in names:
            hit = find(screen, by_text(name))
            if hit is None:
                return self.scroll_search(screen)
            if not hit[1].selected:
                return f"{'T' if self.title(screen).endswith(' selected') else 'P'} {hit[0]}"
        return None


class CreateNoteOracle(MarkorOracle):
    def __init__(self, name: str, text: str) -> None:
        super().__init__()
        self.name, self.text = name, text
        self.saved = False

    def act(self, screen: LabelledScreen) -> str:
        step = self.ready(screen)
        if step is not None:
            return step
        editor = find(screen, lambda n: n.resource_id == EDITOR_ID)
        if editor is not None and self.title(screen) == self.name:
            step = self.set_text(screen, editor[1], editor[0], self.text, "Start writing…")
            if step is not None:
                return step
            if self.saved:
                return "F"
            self.saved = True
            return self.tap(label_for(screen, desc="Save") or "")
        if self.dialog(screen) is not None:
            return self.fill_dialog(screen, self.name, "OK")
        step = self.goto(screen, None)
        if step is not None:
            return step
        return self.tap(label_for(screen, desc="Create a new file or folder") or "")


def _note_parts(device: Device, path: str, text: str) -> tuple[bool, bool]:
    content = file_text(device, path)
    return content is not None, content is not None and fuzzy_match(content, text)


@register_task
class MarkorCreateNote(Task):
    name = "MarkorCreateNote"
    mirrors = "MarkorCreateNote"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.6
    template = "Create a new note in Markor named {file_name} with the following text: {text}"
    judge = (
        "The note /sdcard/Markor/<file_name> exists (0.5) and its text fuzzy-matches (ratio >= 0.9) the requested text (0.5); "
        "AndroidWorld scores it 0/1."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"file_name": random_file_name(rng), "text": str(rng.choice(SENTENCES)), "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        seed_notes(device, np.random.default_rng(self.params["noise_seed"]), ROOT, 2, {self.params["file_name"]})

    def progress(self, device: Device, answer: str | None = None) -> float:
        return fraction(_note_parts(device, f"{ROOT}/{self.params['file_name']}", self.params["text"]))

    def oracle(self) -> Oracle:
        return CreateNoteOracle(self.params["file_name"], self.params["text"])


class DeleteOracle(MarkorOracle):
    def __init__(self, names: list[str] | None, folder: str | None = None) -> None:
        super().__init__()
        self.names = names
        self.folder = folder
        self.confirmed = False
        self.all_selected = False

    def act(self, screen: LabelledScreen) -> str:
        step = self.ready(screen)
        if step is not None:
            return step
        if self.confirmed:
            return "F"
        if self.dialog(screen) == "Delete":
            self.confirmed = True
            return self.tap(label_for(screen, text="OK") or "")
        if self.names is None:  # everything: select one, then select all
            if not self.title(screen).endswith(" selected"):
                step = self.goto(screen, self.folder)
                if step is not None:
                    return step
                first = next((n for n in screen.nodes if n.long_clickable and not n.is_editable), None)
                label = screen.label_of(first) if first is not None else None
                return f"P {label}" if label else "F"
            if not self.all_selected:
                self.all_selected = True
                return self.tap(label_for(screen, desc="Select all") or "")
            return self.tap(label_for(screen, desc="Delete") or "")
        if not self.title(screen).endswith(" selected"):
            step = self.goto(screen, self.folder)
            if step is not None:
                return step
        step = self.select(screen, self.names)
        if step is not None:
            return step
        return self.tap(label_for(screen, desc="Delete") or "")


@register_task
class MarkorDeleteNote(Task):
    name = "MarkorDeleteNote"
    mirrors = "MarkorDeleteNote"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.0
    template = "Delete the note in Markor named {file_name}."
    judge = "The note <file_name>.md is gone from /sdcard/Markor and every decoy note is still there (AndroidWorld checks only the first)."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"file_name": random_file_stem(rng), "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        target = f"{self.params['file_name']}.md"
        device.write_file(f"{ROOT}/{target}", str(SENTENCES[0]).encode())
        self._decoys = seed_notes(device, np.random.default_rng(self.params["noise_seed"]), ROOT, 3, {target})

    def progress(self, device: Device, answer: str | None = None) -> float:
        names = set(device.list_dir(ROOT))
        ok = f"{self.params['file_name']}.md" not in names and all(d in names for d in self._decoys)
        return 1.0 if ok else 0.0

    def oracle(self) -> Oracle:
        return DeleteOracle([f"{self.params['file_name']}.md"])


@register_task
class MarkorDeleteAllNotes(Task):
    name = "MarkorDeleteAllNotes"
    mirrors = "MarkorDeleteAllNotes"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.4
    template = "Delete all my notes in Markor."
    judge = (
        "No regular files remain in /sdcard/Markor; partial credit is the share of the seeded notes deleted (AndroidWorld scores it 0/1)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"count": int(rng.integers(3, 7)), "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        self._notes = seed_notes(device, np.random.default_rng(self.params["noise_seed"]), ROOT, self.params["count"], set())

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
    """Open a note, make its text ``text``, optionally rename it, save, done."""

    def __init__(self, name: str, text: str, new_name: str | None = None, folder: str | None = None) -> None:
        super().__init__()
        self.name, self.text, self.new_name, self.folder = name, text, new_name, folder
        self.saved = False

    def act(self, screen: LabelledScreen) -> str:
        step = self.ready(screen)
        if step is not None:
            return step
        if self.saved:
            return "F"
        dialog = self.dialog(screen)
        if dialog is not None and self.new_name is not None:
            return self.fill_dialog(screen, self.new_name, "OK")
        editor = find(screen, lambda n: n.resource_id == EDITOR_ID)
        if editor is not None:
            step = self.set_text(screen, editor[1], editor[0], self.text, "Start writing…")
            if step is not None:
                return step
            if self.new_name is not None:
                if self.title(screen) == self.new_name:
                    return "F"  # renaming from the editor saved the text too
                return self.tap(label_for(screen, desc="Rename") or "")
            self.saved = True
            return self.tap(label_for(screen, desc="Save") or "")
        step = self.goto(screen, self.folder)
        if step is not None:
            return step
        label = label_for(screen, text=self.name)
        return self.tap(label) if label else self.scroll_search(screen)


@register_task
class MarkorEditNote(Task):
    name = "MarkorEditNote"
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
        picks = [str(s) for s in rng.choice(SENTENCES, size=5, replace=False)]
        return {
            "file_name": f"note_{random_code(rng, 5)}{rng.choice(['.md', '.txt'])}",
            "edit_type": str(rng.choice(["header", "footer", "replace"])),
            "original": picks[0],
            "header": picks[1],
            "footer": picks[2],
            "replace_text": "\n".join(picks[2:5]),
            "noise_seed": int(rng.integers(2**31)),
        }

    @property
    def goal(self) -> str:
        p = self.params
        base = f"Edit {p['file_name']} in Markor. "
        return (
            base
            + {
                "header": f"Add to the top of the note {p['header']}",
                "footer": f"Add to the bottom of the note {p['footer']}",
                "replace": f"Replace the text with {p['replace_text']}",
            }[p["edit_type"]]
        )

    @property
    def expected(self) -> str:
        p = self.params
        return {"header": f"{p['header']}\n{p['original']}", "footer": f"{p['original']}\n{p['footer']}", "replace": p["replace_text"]}[
            p["edit_type"]
        ]

    def text_candidates(self) -> list[str]:
        return [self.expected, self.params[{"header": "header", "footer": "footer", "replace": "replace_text"}[self.params["edit_type"]]]]

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        device.write_file(f"{ROOT}/{self.params['file_name']}", self.params["original"].encode())
        seed_notes(device, np.random.default_rng(self.params["noise_seed"]), ROOT, 2, {self.params["file_name"]})

    def progress(self, device: Device, answer: str | None = None) -> float:
        content = file_text(device, f"{ROOT}/{self.params['file_name']}")
        return 1.0 if content is not None and fuzzy_match(content, self.expected) else 0.0

    def oracle(self) -> Oracle:
        return EditOracle(self.params["file_name"], self.expected)


class _RenameEdit(Task):
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.2

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        original_name = random_file_name(rng)
        new_name = random_file_name(rng)
        while new_name == original_name:
            new_name = random_file_name(rng)
        return {
            "original_name": original_name,
            "new_name": new_name,
            "original_content": str(rng.choice(SENTENCES)),
            "header": random_code(rng, 20),
            "updated_content": random_code(rng, 20),
            "noise_seed": int(rng.integers(2**31)),
        }

    @property
    def expected(self) -> str:
        raise NotImplementedError

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        device.write_file(f"{ROOT}/{self.params['original_name']}", self.params["original_content"].encode())
        seed_notes(
            device, np.random.default_rng(self.params["noise_seed"]), ROOT, 2, {self.params["original_name"], self.params["new_name"]}
        )

    def content_ok(self, content: str) -> bool:
        return fuzzy_match(content, self.expected)

    def progress(self, device: Device, answer: str | None = None) -> float:
        old = file_text(device, f"{ROOT}/{self.params['original_name']}")
        new = file_text(device, f"{ROOT}/{self.params['new_name']}")
        # Three parts: the old name is gone, the new name exists, and it holds the right text.
        return fraction([old is None, new is not None, new is not None and self.content_ok(new)])

    def text_candidates(self) -> list[str]:
        return [self.expected, self.params["new_name"]]

    def oracle(self) -> Oracle:
        return EditOracle(self.params["original_name"], self.expected, new_name=self.params["new_name"])


@register_task
class MarkorChangeNoteContent(_RenameEdit):
    name = "MarkorChangeNoteContent"
    mirrors = "MarkorChangeNoteContent"
    template = 'Update the content of {original_name} to "{updated_content}" in Markor and change its name to {new_name}.'
    judge = "Old name gone, new name exists, its text fuzzy-matches the update (a third each; AndroidWorld scores it 0/1)."

    @property
    def expected(self) -> str:
        return str(self.params["updated_content"])


@register_task
class MarkorAddNoteHeader(_RenameEdit):
    name = "MarkorAddNoteHeader"
    mirrors = "MarkorAddNoteHeader"
    template = (
        "Update the Markor note {original_name} by adding the following text, "
        'along with a new blank line before the existing content: "{header}", '
        "and rename it to {new_name}."
    )
    judge = "Old name gone, new name exists, its text is exactly header + blank line + original text (a third each; AndroidWorld 0/1)."

    @property
    def expected(self) -> str:
        return f"{self.params['header']}\n\n{self.params['original_content']}"

    def content_ok(self, content: str) -> bool:
        return content.strip() == self.expected


class CreateFolderOracle(MarkorOracle):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def act(self, screen: LabelledScreen) -> str:
        step = self.ready(screen)
        if step is not None:
            return step
        if self.dialog(screen) is not None:
            return self.fill_dialog(screen, self.name, "Folder")
        if screen.root.find(text=self.name) is not None:
            return "F"
        step = self.goto(screen, None)
        if step is not None:
            return step
        return self.tap(label_for(screen, desc="Create a new file or folder") or "")


@register_task
class MarkorCreateFolder(Task):
    name = "MarkorCreateFolder"
    mirrors = "MarkorCreateFolder"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.0
    template = "Create a new folder in Markor named {folder_name}."
    judge = (
        "A directory (not a file) of that name exists in /sdcard/Markor "
        "(the name comes from the seed, not the host clock as in AndroidWorld)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        day, hour, minute, second = (int(x) for x in (rng.integers(1, 29), rng.integers(0, 24), rng.integers(0, 60), rng.integers(0, 60)))
        return {"folder_name": f"folder_202310{day:02d}_{hour:02d}{minute:02d}{second:02d}", "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        seed_notes(device, np.random.default_rng(self.params["noise_seed"]), ROOT, 2, set())

    def progress(self, device: Device, answer: str | None = None) -> float:
        name = self.params["folder_name"]
        ok = name in device.list_dir(ROOT) and file_text(device, f"{ROOT}/{name}") is None
        return 1.0 if ok else 0.0

    def oracle(self) -> Oracle:
        return CreateFolderOracle(self.params["folder_name"])


class MoveOracle(MarkorOracle):
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
        title = self.title(screen)
        if title.startswith("Move to "):
            if title == f"Move to {self.dest}":
                self.moved = True
                return self.tap(label_for(screen, text="Move here") or "")
            if title != "Move to Markor":
                return self.tap(label_for(screen, desc="Navigate up") or "")
            label = label_for(screen, text=self.dest)
            return self.tap(label) if label else self.scroll_search(screen)
        if not title.endswith(" selected"):
            step = self.goto(screen, self.source)
            if step is not None:
                return step
        step = self.select(screen, [self.name])
        if step is not None:
            return step
        return self.tap(label_for(screen, desc="Move") or "")


@register_task
class MarkorMoveNote(Task):
    name = "MarkorMoveNote"
    mirrors = "MarkorMoveNote"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "markor"
    complexity: ClassVar[float] = 1.4
    template = "In Markor, move the note {file_name} from {source_folder} to {destination_folder}."
    judge = (
        "The note is gone from the source subfolder (0.5) and present, with its text, in the destination subfolder (0.5); AndroidWorld 0/1."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        source, dest = (str(x) for x in rng.choice(SUBFOLDERS, size=2, replace=False))
        return {
            "file_name": random_file_name(rng),
            "source_folder": source,
            "destination_folder": dest,
            "text": str(rng.choice(SENTENCES)),
            "noise_seed": int(rng.integers(2**31)),
        }

    def initialize(self, device: Device) -> None:
        reset_markor(device)
        rng = np.random.default_rng(self.params["noise_seed"])
        for folder in rng.choice(SUBFOLDERS, size=3, replace=False):
            seed_notes(device, rng, f"{ROOT}/{folder}", 1, {self.params["file_name"]})
        seed_notes(device, rng, f"{ROOT}/{self.params['source_folder']}", 2, {self.params["file_name"]})
        seed_notes(device, rng, f"{ROOT}/{self.params['destination_folder']}", 1, {self.params["file_name"]})
        device.write_file(f"{ROOT}/{self.params['source_folder']}/{self.params['file_name']}", self.params["text"].encode())

    def progress(self, device: Device, answer: str | None = None) -> float:
        p = self.params
        gone = file_text(device, f"{ROOT}/{p['source_folder']}/{p['file_name']}") is None
        there = file_text(device, f"{ROOT}/{p['destination_folder']}/{p['file_name']}") == p["text"]
        return fraction([gone, there])

    def oracle(self) -> Oracle:
        return MoveOracle(self.params["file_name"], self.params["source_folder"], self.params["destination_folder"])
