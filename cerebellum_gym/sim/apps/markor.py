"""Markor (net.gsantner.markor) 2.10.9 (versionCode 146, the APK AndroidWorld installs).

Notes are plain files under ``/sdcard/Documents/Markor``, Markor's default notebook
(``/storage/emulated/0/Documents/Markor``, AndroidWorld's ``MARKOR_DATA``; ``/sdcard`` is the same
storage, and the served shell folds the aliases). Facts below come from gsantner/markor at tag
``v2.10.9`` (``app/build.gradle``: versionCode 146).

- ``MainActivity`` (``main__activity.xml``): the ``toolbar`` on the primary colour #1E2135 titled
  "Markor" in the notebook and "> folder" elsewhere; the file browser (``opoc_filesystem_fragment``:
  a ``ui__filesystem_dialog__list`` RecyclerView of ``opoc_filesystem_item__root`` rows whose
  content-desc is "Folder|File|Selected <name> <description>", a ".." row first, the
  description the change time); the ``fab_add_new_item`` FAB ("Create a new file or folder") and
  the ``bottom_navigation_bar`` (Files, To-Do, QuickNote, More). The toolbar's menu
  (``filesystem__menu.xml``) shows Go to, Sort by and Search; with items selected (a long press)
  the title empties and Favourite, Rename, Details, Delete show, Move, Copy, Create shortcut and
  Share in the overflow (``GsFileBrowserFragment.updateMenuItems``). There is no "select all".
- The new-file dialog (``NewFileDialog``, ``new_file_dialog.xml``): Name with the name and the
  extension fields (``.md`` by default; the file is name + extension, as typed), the Type and
  Template spinners, the two notes; Folder, Cancel, OK.
- Delete asks "Confirm Delete" ("Do you really want to delete this Document?" and the paths,
  ``WrConfirmDialog``); Rename is ``WrRenameDialog`` ("Rename", ``new_name`` holding the name);
  Move opens the folder picker (``GsFileBrowserDialog``, ``opoc_filesystem_dialog.xml``: the title
  "Move → folder", Home and Search buttons, the folders, Cancel and "Select this folder").
- ``DocumentActivity`` (``document__activity.xml``): the toolbar with Navigate up, the file name
  (``note__activity__text_note_title``), Undo, Redo, View mode, Save, Search and More options
  (File settings, Share, Tools, Info, Reload); the ``document__fragment__edit__highlighting_editor``
  (no hint). View mode swaps the editor for the rendered page and shows Edit mode. Markor saves
  when the document is left.

AndroidWorld's set-up (``MarkorApp.setup``) passes the intro and grants storage access, so the
app opens on the notebook.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable, Hashable, Iterator, Sequence
from datetime import datetime, timezone
from typing import ClassVar, Final

from PIL import ImageDraw, ImageFont

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.folders import FolderApp
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import Theme, dp
from cerebellum_gym.sim.material.components import (
    ActionMenuItem,
    BottomNavigation,
    Fab,
    MaterialIconButton,
    NavItem,
    OverflowButton,
    TopAppBar,
)
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.telephony import SMS_PACKAGE
from cerebellum_gym.sim.widgets import BODY_SIZE, Button, Dialog, ListItem, Row, Text, TextArea, TextField, Widget, wrap_lines

PKG: Final = "net.gsantner.markor"
ROOT: Final = "/sdcard/Documents/Markor"
#: The path Markor shows for the simulator's ``/sdcard``.
STORAGE: Final = "/storage/emulated/0"
PRIMARY: Final = (30, 33, 53)  # @color/primary #1E2135
ACCENT: Final = (240, 75, 75)  # @color/accent #F04B4B
BACKGROUND: Final = (238, 238, 238)  # @color/light__background #eeeeee
SECONDARY_TEXT: Final = (117, 117, 117)  # light__secondary_text #757575
#: The toolbar and the bottom navigation: white on the primary colour.
BAR_THEME: Final = Theme(primary=ACCENT, surface=PRIMARY, on_surface=(255, 255, 255), on_surface_variant=(255, 255, 255))
#: The new-file dialog's Type spinner (``new_file_types``) and the extension each sets
#: (``new_file_types__file_extension``).
NEW_FILE_TYPES: Final = (
    ("Markdown", ".md"),
    ("Plain Text", ".txt"),
    ("todo.txt", ".todo.txt"),
    ("Wikitext", ".txt"),
    ("AsciiDoc", ".adoc"),
    ("CSV", ".csv"),
    ("None", ""),
)
#: The Sort by submenu (``filesystem__menu.xml``); Name and Date order the list.
SORT_MENU: Final = ("Name", "Date", "Size", "MIME type", "Folder first", "Reverse order", ".dotfiles")
SORTS = ("Name", "Date")
#: The editor's overflow menu and its Share submenu (``document__edit__menu.xml``).
EDITOR_MENU: Final = ("File settings", "Share", "Tools", "Info", "Reload")
SHARE_MENU: Final = ("Plain Text", "Print / PDF", "File", "HTML", "HTML (as plain text)", "Image", "Screenshot", "Calendar")
#: The selection's overflow (one or more files).
SELECTION_MENU: Final = ("Move", "Copy", "Create shortcut", "Share")
#: The More tab's page (``prefactions__more_information.xml``; "#" marks a category title).
MORE_PAGE: Final = (
    "Markor",
    "Rate this app",
    "Settings",
    "Help",
    "#Contribute",
    "Report bugs",
    "Translate",
    "#Project Team",
    "#Community",
    "Join the Community",
    "Contributors",
    "#Licenses",
    "Project License",
)
#: How long the exit snackbar shows, and how long a second back within it leaves.
SNACKBAR_S: Final = 1.5
EXIT_WINDOW_S: Final = 2.0
TABS: Final = (
    ("nav_notebook", "Files", "folder"),
    ("nav_todo", "To-Do", "assignment_turned_in"),
    ("nav_quicknote", "QuickNote", "bolt"),
    ("nav_more", "More", "favorite"),
)


def shown_path(path: str) -> str:
    """``path`` as Markor shows it (the storage's real mount point)."""
    return STORAGE + path[len("/sdcard") :] if path == "/sdcard" or path.startswith("/sdcard/") else path


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


class _FileRow(Widget):
    """A file browser row (``opoc_filesystem_item``): icon, title, description; its content-desc
    "Folder|File|Selected <title> <description>" (``GsFileBrowserListAdapter``)."""

    class_name = "android.widget.LinearLayout"
    default_height = dp(48)  # a 19 sp title over a 15 sp caption, and the 8 dp bottom margin

    def __init__(self, title: str, detail: str, kind: str, **kwargs: object) -> None:
        super().__init__(rid=rid("opoc_filesystem_item__root"), desc=f"{kind} {title} {detail}", **kwargs)  # type: ignore[arg-type]
        self.title, self.detail, self.kind = title, detail, kind
        self.background = BACKGROUND

    def render_key(self) -> Hashable:
        return (self.title, self.detail, self.kind)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.detail, self.kind)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(28) * scale)
        left = round(dp(16) * scale)
        top = (height - round(dp(8) * scale) - size) / 2
        icon = {"Selected": "check", "Folder": "folder"}.get(self.kind, "insert_drive_file")
        render.draw_icon(draw, icon, (left, top, left + size, top + size), ACCENT if self.kind == "Selected" else SECONDARY_TEXT)
        x = left + size + round(dp(16) * scale)
        big, small = round(dp(19) * scale), round(dp(15) * scale)
        usable = height - round(dp(8) * scale)
        draw.text(
            (x, usable * 0.3),
            render.text_fit(draw, self.title, big, width - x - 8),
            font=render.font(big, "medium"),
            fill=render.TEXT,
            anchor="lm",
        )
        draw.text(
            (x, usable * 0.74),
            render.text_fit(draw, self.detail, small, width - x - 8),
            font=render.font(small),
            fill=SECONDARY_TEXT,
            anchor="lm",
        )

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        bottom -= dp(8)  # layout_marginBottom
        node.bounds = (left, top, right, bottom)
        x = left + dp(16) + dp(28) + dp(16)
        mid = top + (bottom - top) * 11 // 20  # the title's 22 dp line over the caption's 18 dp
        icon_top = (top + bottom - dp(28)) // 2
        node.children = [
            UINode(
                "android.widget.ImageView",
                (left + dp(16), icon_top, left + dp(44), icon_top + dp(28)),
                resource_id=rid("opoc_filesystem_item__image"),
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (x, top, right, mid),
                text=self.title,
                resource_id=rid("opoc_filesystem_item__title"),
                index=1,
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (x, mid, right, bottom),
                text=self.detail,
                resource_id=rid("opoc_filesystem_item__description"),
                index=2,
                package=package,
            ),
        ]
        node.children[0].index = 0
        return node


class _DialogSpinner(Widget):
    """A ``Spinner`` showing its chosen entry (``android:id/text1``)."""

    class_name = "android.widget.Spinner"
    default_height = dp(48)

    def __init__(self, value: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.value = value

    def render_key(self) -> Hashable:
        return (self.value,)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.value)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(16) * scale)
        draw.text((round(dp(8) * scale), height / 2), self.value, font=render.font(size), fill=render.TEXT, anchor="lm")
        arrow = round(dp(24) * scale)
        render.draw_icon(
            draw, "arrow_drop_down", (width - arrow - 4, (height - arrow) / 2, width - 4, (height + arrow) / 2), SECONDARY_TEXT
        )

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        node.children = [
            UINode(
                "android.widget.TextView",
                (left + dp(8), top, right - dp(32), bottom),
                text=self.value,
                resource_id="android:id/text1",
                package=package,
            )
        ]
        return node


class _PopupItem(Widget):
    """A popup menu's entry (its ``android:id/title`` TextView)."""

    class_name = "android.widget.TextView"
    default_height = dp(48)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(16) * scale)
        draw.text((round(dp(16) * scale), height / 2), self.text, font=render.font(size), fill=render.TEXT, anchor="lm")


class _PickerIcon(MaterialIconButton):
    """A clickable ``ImageView`` showing an icon (the folder picker's Home and Search)."""

    class_name = "android.widget.ImageView"


class _PickerTitle(Widget):
    """The folder picker's title ("Move → folder"), its arrow drawn as an icon."""

    class_name = "android.widget.TextView"
    default_height = dp(56)

    def __init__(self, text: str, **kwargs: object) -> None:
        super().__init__(text=text, background=BACKGROUND, **kwargs)  # type: ignore[arg-type]

    def render_key(self) -> Hashable:
        return (self.text,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(20) * scale)
        x: float = round(dp(16) * scale)
        head, _, tail = self.text.partition(" → ")
        f = render.font(size, "medium")
        draw.text((x, height / 2), head, font=f, fill=render.TEXT, anchor="lm")
        x += draw.textlength(head, font=f) + size * 0.3
        render.draw_icon(draw, "arrow_forward", (x, (height - size) / 2, x + size, (height + size) / 2), render.TEXT)
        x += size * 1.3
        draw.text((x, height / 2), tail, font=f, fill=render.TEXT, anchor="lm")


class _PickerButton(Button):
    """A clickable ``TextView`` used as a button (the folder picker's Cancel and OK)."""

    class_name = "android.widget.TextView"


class _HighlightingEditor(TextArea):
    """The note's editor, drawn from its first line down to the bottom of the field only: a note
    of megabytes costs what a screenful costs (issue 36), as Android lays out only what shows."""

    def paint_frame(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> tuple[int, int]:
        """No outline: the editor is the page itself (white, text 16 dp in; all text shaded
        when selected)."""
        pad, inset = round(dp(16) * scale), round(dp(8) * scale)
        draw.rectangle((0, 0, width, height), fill=(255, 255, 255))
        if self.selected and self.value:
            draw.rectangle((pad, inset, width - pad, height - inset), fill=(187, 222, 251))
        return pad, inset

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad, inset = self.paint_frame(draw, width, height, scale)
        size = round(BODY_SIZE * scale)
        line_h = round(size * 1.35)
        color = render.TEXT if self.value else render.TEXT_SECONDARY
        y = pad // 2 + inset
        rows = max(1, (height - inset - y) // line_h)
        text = self.value or self.hint
        start = 0
        for _ in range(rows):
            # One paragraph at a time, cut at a screenful: no copy of the rest of a huge note.
            end = text.find("\n", start, start + rows * 200)
            paragraph = text[start : end if end >= 0 else start + rows * 200]
            start = end + 1 if end >= 0 else len(text)
            # A paragraph wider than the field wraps; only its first screenful is measured.
            for words in wrap_lines(draw, paragraph, size, width - 2 * pad):
                for line in _broken(draw, words, render.font(size), width - 2 * pad):
                    if y + line_h > height - inset:
                        return
                    draw.text((pad, y), line, font=render.font(size), fill=color)
                    y += line_h
            if start >= len(text):
                return


def _broken(draw: ImageDraw.ImageDraw, line: str, f: ImageFont.FreeTypeFont, max_width: int) -> Iterator[str]:
    """``line`` in pieces that fit ``max_width``: a word wider than the field breaks between
    characters, as Android's line breaker does, so a 1,000,001-character word draws a screenful
    of rows, not one row of a million glyphs. Only prefixes about a row long are measured."""
    while line:
        if len(line) <= 256 and draw.textlength(line, font=f) <= max_width:
            yield line  # the usual case: wrapping by words made it fit
            return
        fits, over = 0, 16
        while over < len(line) and draw.textlength(line[:over], font=f) <= max_width:
            fits, over = over, over * 2  # gallop to a prefix that overflows
        while over - fits > 1:  # the longest prefix that fits, at least one character
            mid = (fits + over) // 2
            fits, over = (mid, over) if draw.textlength(line[:mid], font=f) <= max_width else (fits, mid)
        yield line[: max(fits, 1)]
        line = line[max(fits, 1) :]


#: The editor's text actions (``MarkdownActionButtons`` / ``PlaintextActionButtons``, in their
#: default order), as many as the bar shows on a 1080 px screen, 48 dp each.
MARKDOWN_ACTIONS: Final = (
    ("Check list", "check_box"),
    ("Unordered list", "list"),
    ("Bold", "format_bold"),
    ("Italic", "format_italic"),
    ("Delete lines", "delete"),
    ("Open link", "open_in_browser"),
    ("Attach", "attach_file"),
    ("Special Key", "keyboard"),
    ("Date and time", "access_time"),
)
PLAINTEXT_ACTIONS: Final = (
    ("Check list", "check_box"),
    ("Unordered list", "list"),
    ("Ordered list", "format_list_numbered"),
    ("Delete lines", "delete"),
    ("Open link", "open_in_browser"),
    ("Attach", "attach_file"),
    ("Special Key", "keyboard"),
    ("Date and time", "access_time"),
    ("Indent", "format_indent_increase"),
)


class _ActionButton(MaterialIconButton):
    """A text action (``quick_keyboard_button``: an ``ImageView`` described by its title)."""

    class_name = "android.widget.ImageView"


class _TextActionsBar(Widget):
    """``document__fragment__edit__text_actions_bar__scrolling_parent``: the row of text actions
    under the editor (a ``HorizontalScrollView`` around the ``text_actions_bar`` LinearLayout)."""

    class_name = "android.widget.HorizontalScrollView"
    default_height = dp(48)

    def __init__(self, actions: Sequence[tuple[str, str]]) -> None:
        super().__init__(rid=rid("document__fragment__edit__text_actions_bar__scrolling_parent"), background=(224, 224, 224))
        self.buttons = [
            _ActionButton(title, icon, color=(80, 80, 80), background=(224, 224, 224), on_tap=lambda: None) for title, icon in actions
        ]

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), tuple(b.desc for b in self.buttons))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        bar = Row([], rid=rid("document__fragment__edit__text_actions_bar"))
        placed: list[tuple[Widget, Bounds]] = [(bar, bounds)]
        for i, button in enumerate(self.buttons):
            x = left + i * dp(48)
            placed.append((button, (x, top, min(right, x + dp(48)), bottom)))
        return placed


class _DialogField(TextField):
    """An AppCompat ``EditText`` in a dialog: text over an underline (accent when focused)."""

    def paint_frame(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> tuple[int, int]:
        pad = round(dp(4) * scale)
        draw.rectangle((0, 0, width, height), fill=(255, 255, 255))
        if self.selected and self.value:
            draw.rectangle((pad, height // 4, width - pad, height * 3 // 4), fill=(187, 222, 251))
        line = max(1, round(dp(2 if self.focused else 1) * scale))
        draw.rectangle(
            (pad, height - round(dp(8) * scale) - line, width - pad, height - round(dp(8) * scale)),
            fill=ACCENT if self.focused else SECONDARY_TEXT,
        )
        return pad, 0


def dialog_field(app: App, route: Route, name: str, *, hint: str, field_id: str) -> TextField:
    """A dialog's one-line field bound to ``route[name]``."""
    field = edit_field(app, route, name, hint=hint, rid=rid(field_id), height=dp(48))
    field.__class__ = _DialogField
    return field


def editor_field(app: App, route: Route, height: int) -> TextField:
    """The note's ``HighlightingEditor`` bound to ``route["text"]``."""
    field = edit_field(app, route, "text", area=True, height=height, rid=rid("document__fragment__edit__highlighting_editor"))
    field.__class__ = _HighlightingEditor  # the same field, drawn lazily
    return field


class _MarkorBar(TopAppBar):
    """Markor's toolbar: white on the primary colour; the title TextView may carry an id."""

    def __init__(self, title: str, *, title_id: str = "", **kwargs: object) -> None:
        super().__init__(title, theme=BAR_THEME, rid=rid("toolbar"), **kwargs)  # type: ignore[arg-type]
        self.title_id = title_id

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        placed = super().children(bounds)
        if self.title_id:
            for widget, _ in placed:
                if widget.class_name == "android.widget.TextView" and widget.text == self.title:
                    widget.rid = self.title_id
        return placed


def _action(title: str, icon: str, item_id: str, on_tap: Callable[[], None]) -> ActionMenuItem:
    return ActionMenuItem(title, icon, theme=BAR_THEME, on_tap=on_tap, rid=rid(item_id))


def _menu(items: Sequence[str], choose: Callable[[str], None]) -> Dialog:
    return Dialog("", [], body=[_PopupItem(text=item, rid="android:id/title", on_tap=functools.partial(choose, item)) for item in items])


@register_app
class MarkorApp(FolderApp):
    package: ClassVar[str] = PKG
    activity: ClassVar[str] = "net.gsantner.markor.activity.MainActivity"
    label: ClassVar[str] = "Markor"
    root: ClassVar[str] = ROOT
    color: ClassVar[tuple[int, int, int]] = PRIMARY

    def make_route(self, name: str, **params: object) -> Route:  # type: ignore[override]
        route = App.make_route(name, **params)
        if name == "main":
            route.setdefault("dir", ROOT)
            route.setdefault("selected", [])
            route.setdefault("tab", 0)
        return route

    # --- files -------------------------------------------------------------------------------

    def entries(self, folder: str) -> tuple[list[str], list[str]]:
        """Folder and file names in ``folder``, each in the list's order (folders first)."""
        folders: list[str] = []
        files: list[str] = []
        for name in self.phone.list_dir(folder):
            (folders if self.phone.is_dir(f"{folder}/{name}") else files).append(name)
        folders.sort(key=str.lower)
        files.sort(key=str.lower)
        if self.sort == "Date":  # newest first (a stable sort keeps names in order within a time)
            folders.sort(key=lambda name: -self.phone.file_mtime(f"{folder}/{name}"))
            files.sort(key=lambda name: -self.phone.file_mtime(f"{folder}/{name}"))
        return folders, files

    @property
    def sort(self) -> str:
        return str(self.data.get("sort", "Name"))

    def _modified(self, path: str) -> str:
        """A change time as the list shows it (``DateUtils``, numeric date with year and time)."""
        when = datetime.fromtimestamp(self.phone.file_mtime(path), timezone.utc)
        return f"{when.month}/{when.day}/{when.year}, {when.strftime('%I:%M %p').lstrip('0')}"

    def _read(self, path: str) -> str:
        try:
            return self.phone.read_file(path).decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def folder_title(self, folder: str) -> str:
        return posixpath.basename(folder)

    def _title(self, folder: str) -> str:
        return "Markor" if folder == ROOT else f"> {posixpath.basename(folder)}"

    def _open(self, name: str) -> None:
        route = self.route
        folder = route["dir"]
        if route["selected"]:
            if name != "..":
                self.toggle_selected(route, name)
            return
        if name == "..":
            route.update(dir=posixpath.dirname(folder), scroll=0)
            return
        path = f"{folder}/{name}"
        if self.phone.is_dir(path):
            route.update(dir=path, scroll=0)
        else:
            self.push("edit", path=path, text=self._read(path))

    def _long_press(self, name: str) -> None:
        if name != "..":
            self.toggle_selected(self.route, name)

    def _delete_selected(self) -> None:
        route = self.route
        for name in route["selected"]:
            self.phone.remove_path(f"{route['dir']}/{name}")
        route["selected"] = []
        self.set_dialog(None)

    def _new(self, folder: bool) -> None:
        """The new-file dialog's OK (a file named name + extension) or Folder (the name alone)."""
        route = self.route
        name = str(route.get("file", "")).strip()
        if not name:
            return  # Markor keeps the dialog open while the name is empty
        ext = "" if folder else str(route.get("ext", "")).strip()
        path = f"{route['dir']}/{name}{ext}"
        if not folder:
            self.data["ext"] = ext  # the dialog offers the last used extension next time
        self.set_dialog(None)
        self.phone.focus(None)
        if folder:
            if not self.phone.is_dir(path):
                self.phone.make_dir(path)
            return
        if name + ext not in self.phone.list_dir(route["dir"]):  # files are not overwritten
            self.phone.write_file(path, b"")
        self.push("edit", path=path, text=self._read(path))

    def _rename(self) -> None:
        route = self.route
        path = f"{route['dir']}/{route['selected'][0]}"
        new = str(route.get("file", "")).strip()
        folder = posixpath.dirname(path)
        if not new:
            return
        if new != posixpath.basename(path) and new in self.phone.list_dir(folder):
            route["error"] = "File/folder already exists! Please use a different name"
            return
        target = f"{folder}/{new}"
        if target != path:
            if self.phone.is_dir(path):
                self.phone.make_dir(target)
                for child in self.phone.list_dir(path):
                    self.move_path(f"{path}/{child}", target)
                self.phone.remove_path(path)
            else:
                data = self.phone.read_file(path)
                self.phone.remove_path(path)
                self.phone.write_file(target, data)
        self.set_dialog(None)
        self.phone.focus(None)
        route["selected"] = []

    def _open_new(self) -> None:
        route = self.route
        self.set_dialog("new", file="", ext=str(self.data.get("ext", ".md")), type=int(self.data.get("type", 0)), dropdown=None)
        self.phone.focus(field_key(self, route, "file"))  # the name field has the focus, the keyboard up

    def _open_rename(self) -> None:
        route = self.route
        self.set_dialog("rename", file=route["selected"][0], error="")
        self.phone.focus(field_key(self, route, "file"))

    def _choose_type(self, index: int) -> None:
        route = self.route
        route.update(type=index, ext=NEW_FILE_TYPES[index][1], dropdown=None)
        self.data.update(type=index)

    def _sort_choice(self, item: str) -> None:
        self.set_dialog(None)
        if item in SORTS:
            self.data["sort"] = item

    def _selection_choice(self, item: str) -> None:
        route = self.route
        self.set_dialog(None)
        if item == "Move":
            folder = route["dir"]
            self.push("move", sources=[f"{folder}/{n}" for n in route["selected"]], dir=folder)

    def _leave_tab(self, route: Route) -> None:
        """Leaving To-Do or QuickNote saves its file if it was changed (nothing is written otherwise)."""
        if int(route.get("tab", 0)) in (1, 2) and route.get("path") and route.get("text", "") != self._read(str(route["path"])):
            self._save(route)

    def _tab(self, index: int) -> None:
        route = self.route
        self._leave_tab(route)
        route.update(tab=index, selected=[], dialog=None, scroll=0)
        if index in (1, 2):
            path = f"{ROOT}/{'todo.txt' if index == 1 else 'QuickNote.md'}"
            route.update(text=self._read(path), path=path)

    def _rows(self, folder: str, selected: Sequence[str]) -> list[Widget]:
        folders, files = self.entries(folder)
        rows: list[Widget] = []
        if folder != "/sdcard":
            parent = posixpath.dirname(folder)
            rows.append(
                _FileRow("..", shown_path(parent), "Folder", on_tap=functools.partial(self._open, ".."), on_long_press=lambda: None)
            )
        for name in [*folders, *files]:
            path = f"{folder}/{name}"
            kind = "Selected" if name in selected else "Folder" if name in folders else "File"
            rows.append(
                _FileRow(
                    name,
                    self._modified(path),
                    kind,
                    on_tap=functools.partial(self._open, name),
                    on_long_press=functools.partial(self._long_press, name),
                )
            )
        if not folders and not files:
            rows.append(Text("¯\\_(ツ)_/¯", size=dp(48), bold=True, center=True, height=dp(140), rid=rid("empty_hint")))
        return rows

    def _navigation(self, tab: int) -> BottomNavigation:
        nav = BottomNavigation(
            [NavItem(label, icon, None if i == tab else functools.partial(self._tab, i)) for i, (_, label, icon) in enumerate(TABS)],
            selected=tab,
            theme=BAR_THEME,
            rid=rid("bottom_navigation_bar"),
        )
        for button, (item_id, _, _) in zip(nav.items, TABS, strict=True):
            button.rid = rid(item_id)
        return nav

    def screen_main(self, route: Route) -> ScreenSpec:
        tab = int(route.get("tab", 0))
        if tab != 0:
            return self._other_tab(route, tab)
        folder = route["dir"]
        selected: list[str] = list(route["selected"])
        body = self._rows(folder, selected)
        dialog = self._main_dialog(route, selected)
        more = OverflowButton(on_tap=lambda: self.set_dialog("selection_menu" if self.route["selected"] else "menu"), theme=BAR_THEME)
        if selected:
            actions: list[MaterialIconButton] = [_action("Favourite", "star_border", "action_favourite", lambda: None)]
            if len(selected) == 1:
                actions += [
                    _action("Rename", "drive_file_rename_outline", "action_rename_selected_item", self._open_rename),
                    _action("Details", "info", "action_info_selected_item", lambda: None),
                ]
            actions += [_action("Delete", "delete", "action_delete_selected_items", lambda: self.set_dialog("delete")), more]
            bar = _MarkorBar("", actions=actions)
        else:
            bar = _MarkorBar(
                self._title(folder),
                actions=[
                    _action("Go to", "folder", "action_go_to", lambda: self.set_dialog("goto")),
                    _action("Sort by", "sort", "action_sort", lambda: self.set_dialog("sort")),
                    _action("Search", "search", "action_search", lambda: None),
                    more,
                ],
            )
        fab = Fab(
            "Create a new file or folder",
            "add",
            theme=Theme(primary=ACCENT),
            rid=rid("fab_add_new_item"),
            background=BACKGROUND,
            on_tap=self._open_new,
        )
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=body,
            fab=fab,
            bottom=self._snackbar(route) or [self._navigation(0)],
            dialog=dialog,
            background=BACKGROUND,
            list_id="ui__filesystem_dialog__list",
        )

    def _main_dialog(self, route: Route, selected: list[str]) -> Dialog | None:
        kind = route.get("dialog")
        if kind == "new":
            if route.get("dropdown") == "type":
                return _menu(
                    [label for label, _ in NEW_FILE_TYPES], lambda label: self._choose_type([t for t, _ in NEW_FILE_TYPES].index(label))
                )
            type_label = NEW_FILE_TYPES[int(route.get("type", 0))][0]
            name = dialog_field(self, route, "file", hint="my_note", field_id="new_file_dialog__name")
            ext = dialog_field(self, route, "ext", hint=".md", field_id="new_file_dialog__ext")
            return Dialog(
                "",
                [
                    Button("Folder", filled=False, on_tap=lambda: self._new(True)),
                    Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("OK", filled=False, on_tap=lambda: self._new(False)),
                ],
                body=[
                    Text("Name", size=dp(12), height=dp(24), color=SECONDARY_TEXT),
                    _NameExtRow([name, ext], height=dp(48)),
                    Text("Type", size=dp(12), height=dp(28), color=SECONDARY_TEXT),
                    _DialogSpinner(type_label, rid=rid("new_file_dialog__type"), on_tap=lambda: self.route.update(dropdown="type")),
                    Text("Template", size=dp(12), height=dp(28), color=SECONDARY_TEXT),
                    _DialogSpinner("Empty file", rid=rid("new_file_dialog__template"), on_tap=lambda: None),
                    Text("- Folder is created without file extension", size=dp(12), height=dp(52), color=SECONDARY_TEXT),
                    Text("- Files and folders are not overwritten", size=dp(12), height=dp(20), color=SECONDARY_TEXT),
                ],
            )
        if kind == "delete" and selected:
            paths = "\n".join(shown_path(f"{route['dir']}/{n}") for n in selected)
            noun = "Document" if len(selected) == 1 else "Documents"
            return Dialog(
                "Confirm Delete",
                [
                    Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("OK", filled=False, on_tap=self._delete_selected),
                ],
                # The message (android:id/message) in full, the paths on lines of their own.
                body=[
                    Text(
                        f"Do you really want to delete this {noun}?\n\n\n{paths}",
                        size=dp(16),
                        color=SECONDARY_TEXT,
                        height=dp(22) * (4 + 2 * min(len(selected), 12)),
                        rid="android:id/message",
                    )
                ],
            )
        if kind == "rename" and selected:
            return Dialog(
                "Rename",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)), Button("OK", filled=False, on_tap=self._rename)],
                body=[
                    Text(str(route.get("error", "")), size=dp(14), height=dp(24), rid=rid("dialog_message"), color=ACCENT),
                    dialog_field(self, route, "file", hint="Enter the name of your folder", field_id="new_name"),
                ],
            )
        if kind == "sort":
            return _menu(SORT_MENU, self._sort_choice)
        if kind == "goto":
            return _menu(
                (
                    "AppData (private)",
                    "AppData (public)",
                    "Internal storage",
                    "Recently viewed documents",
                    "Popular documents",
                    "Favourites",
                    "Notebook",
                ),
                self._goto,
            )
        if kind == "menu":
            return _menu(("Import from device",), lambda _item: self.set_dialog(None))
        if kind == "selection_menu" and selected:
            return _menu(SELECTION_MENU, self._selection_choice)
        return None

    def _goto(self, item: str) -> None:
        self.set_dialog(None)
        if item == "Notebook":
            self.route.update(dir=ROOT, scroll=0)
        elif item == "Internal storage":
            self.route.update(dir="/sdcard", scroll=0)

    def _other_tab(self, route: Route, tab: int) -> ScreenSpec:
        """To-Do and QuickNote edit their file in place (``todo.txt``, ``QuickNote.md``); More lists Markor's pages."""
        label = TABS[tab][1]
        if tab in (1, 2):
            body: list[Widget] = [editor_field(self, route, dp(560))]
            actions: list[MaterialIconButton] = [
                _action("Undo", "undo", "action_undo", lambda: None),
                _action("Redo", "redo", "action_redo", lambda: None),
                _action("View mode", "visibility", "action_preview", lambda: None),
                _action("Save", "save", "action_save", lambda: self._save(self.route)),
                _action("Search", "search", "action_search", lambda: None),
                OverflowButton(on_tap=lambda: None, theme=BAR_THEME),
            ]
        else:
            # prefactions__more_information.xml: preferences, and categories (coloured titles).
            body = []
            for item in MORE_PAGE:
                if item.startswith("#"):
                    body.append(Text(item[1:], size=dp(14), bold=True, height=dp(48), color=ACCENT))
                else:
                    body.append(ListItem(item, height=dp(56)))
            actions = []
        return ScreenSpec(
            title=None,
            app_bar=_MarkorBar(label, actions=actions),
            body=body,
            bottom=self._snackbar(route) or [self._navigation(tab)],
            background=BACKGROUND,
        )

    def back(self) -> bool:
        """Markor's back: a dialog closes; the file list goes up toward the notebook (clearing
        a selection on the way); at the notebook and on the other tabs a first back shows
        "Press 'Back' again to exit" and a second within two seconds leaves
        (``MainActivity.onBackPressed``, ``GsFileBrowserFragment.onBackPressed``); the editor
        saves and closes, in view mode too."""
        route = self.route
        if route["screen"] == "main":
            if route.get("dropdown"):
                route["dropdown"] = None
                return True
            if route.get("dialog"):
                return super().back()
            folder = route["dir"]
            if int(route.get("tab", 0)) == 0 and folder not in (ROOT, "/sdcard"):
                route.update(dir=posixpath.dirname(folder), selected=[], scroll=0)
                return True
            now = self.phone.state.clock
            armed = route.get("back_at")
            if armed is not None and now - float(armed) <= EXIT_WINDOW_S:
                route["back_at"] = None
                self._leave_tab(route)
                return False
            route["back_at"] = now
            return True
        if route["screen"] == "move" and not route.get("dialog"):
            self.pop()
            return True
        if route["screen"] == "edit" and not route.get("dialog"):
            self._save(route)
        return super().back()

    def _snackbar(self, route: Route) -> list[Widget]:
        """The exit snackbar while it shows (``Snackbar.LENGTH_SHORT``)."""
        armed = route.get("back_at")
        if armed is None or self.phone.state.clock - float(armed) >= SNACKBAR_S:
            return []

        def leave() -> None:
            self.route["back_at"] = None
            self._leave_tab(self.route)
            self.phone.go_home()

        return [
            Text(
                "Press 'Back' again to exit",
                size=dp(14),
                height=dp(48),
                color=(255, 255, 255),
                background=(50, 50, 50),
                rid=rid("snackbar_text"),
            ),
            _PickerButton("EXIT", filled=False, on_tap=leave, rid=rid("snackbar_action")),
        ]

    def shows_running_clock(self) -> bool:
        # While the exit snackbar is up; once its time is over the back is forgotten and the
        # screen is made once more, without it.
        route = self.route
        armed = route.get("back_at") if route["screen"] == "main" else None
        if armed is None:
            return False
        if self.phone.state.clock - float(armed) > EXIT_WINDOW_S:
            route["back_at"] = None
        return True

    # --- move --------------------------------------------------------------------------------

    def screen_move(self, route: Route) -> ScreenSpec:
        """The folder picker (``GsFileBrowserDialog``): "Move → folder", the folders here (the moved
        ones left out), Cancel and "Select this folder", which moves the selection into it."""
        folder = route["dir"]
        sources: list[str] = route["sources"]
        folders, _ = self.entries(folder)

        def into(path: str) -> None:
            self.route.update(dir=path, scroll=0)

        rows: list[Widget] = [
            _PickerTitle(f"Move → {posixpath.basename(folder)}", rid=rid("ui__filesystem_dialog__title")),
            Row(
                [
                    _PickerIcon("", "home", on_tap=lambda: into(ROOT), background=BACKGROUND, rid=rid("ui__filesystem_dialog__home")),
                    _PickerIcon("", "search", on_tap=lambda: None, background=BACKGROUND, rid=rid("ui__filesystem_dialog__search_button")),
                ],
                columns=6,
                height=dp(48),
                rid=rid("ui__filesystem_dialog__utilbar"),
            ),
        ]
        if folder != "/sdcard":
            rows.append(_FileRow("..", shown_path(posixpath.dirname(folder)), "Folder", on_tap=lambda: into(posixpath.dirname(folder))))
        for name in folders:
            path = f"{folder}/{name}"
            if path not in sources:
                rows.append(_FileRow(name, shown_path(folder), "Folder", on_tap=functools.partial(into, path)))

        def move_here() -> None:
            self.move_sources(sources, folder)

        bottom: list[Widget] = [
            _PickerButton("Cancel", filled=False, on_tap=self.pop, rid=rid("ui__filesystem_dialog__button_cancel")),
            _PickerButton("Select this folder", filled=False, on_tap=move_here, rid=rid("ui__filesystem_dialog__button_ok")),
        ]
        return ScreenSpec(title=None, body=rows, bottom=bottom, background=BACKGROUND, list_id="ui__filesystem_dialog__list")

    # --- editor ------------------------------------------------------------------------------

    def _save(self, route: Route) -> None:
        self.phone.write_file(route["path"], str(route.get("text", "")).encode())

    def _share(self, route: Route, package: str) -> None:
        """Share the note's text with ``package`` (saved first, as Markor does)."""
        self.set_dialog(None)
        self._save(route)
        self.phone.app(package).share_text(str(route.get("text", "")))  # type: ignore[attr-defined]

    def _editor_menu(self, item: str) -> None:
        if item == "Share":
            self.set_dialog("share_menu")
        elif item == "Reload":
            route = self.route
            self.set_dialog(None)
            route["text"] = self._read(route["path"])
        else:
            self.set_dialog(None)

    def _share_menu(self, item: str) -> None:
        self.set_dialog("share" if item == "Plain Text" else None)

    def screen_edit(self, route: Route) -> ScreenSpec:
        path = route["path"]
        dialog = None
        kind = route.get("dialog")
        if kind == "menu":
            dialog = _menu(EDITOR_MENU, self._editor_menu)
        elif kind == "share_menu":
            dialog = _menu(SHARE_MENU, self._share_menu)
        elif kind == "share":  # Android's share sheet for the note's text
            dialog = Dialog(
                "Share with",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None))],
                body=[ListItem("Simple SMS Messenger", on_tap=lambda: self._share(self.route, SMS_PACKAGE))],
            )

        def leave() -> None:
            self._save(self.route)
            self.pop()

        more = OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=BAR_THEME)
        up = MaterialIconButton("Navigate up", "arrow_back", theme=BAR_THEME, on_tap=leave)
        if route.get("preview"):
            body: list[Widget] = [Text(str(route.get("text", "")), size=dp(16), height=dp(560), rid=rid("document__fragment_view_webview"))]
            actions: list[MaterialIconButton] = [
                _action("Edit mode", "edit", "action_edit", lambda: self.route.update(preview=False)),
                _action("Search", "search", "action_search_view", lambda: None),
                more,
            ]
        else:
            markdown = path.lower().endswith((".md", ".markdown", ".mkd", ".mdown", ".mkdn", ".mdwn", ".rmd"))
            # The editor fills the window above the text actions bar (2106 px under the toolbar).
            body = [editor_field(self, route, 2106 - dp(48)), _TextActionsBar(MARKDOWN_ACTIONS if markdown else PLAINTEXT_ACTIONS)]
            actions = [
                _action("Undo", "undo", "action_undo", lambda: None),
                _action("Redo", "redo", "action_redo", lambda: None),
                _action("View mode", "visibility", "action_preview", self._preview),
                _action("Save", "save", "action_save", lambda: self._save(self.route)),
                _action("Search", "search", "action_search", lambda: None),
                more,
            ]
        bar = _MarkorBar(posixpath.basename(path), navigation=up, actions=actions, title_id=rid("note__activity__text_note_title"))
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=body,
            dialog=dialog,
            list_id="document__fragment__edit__content_editor__scrolling_parent",
            list_class="android.widget.ScrollView",
        )

    def _preview(self) -> None:
        route = self.route
        self._save(route)
        self.phone.focus(None)
        route["preview"] = True


class _NameExtRow(Row):
    """The name and extension fields side by side, 70 : 30."""

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        split = left + round((right - left - dp(32)) * 0.7)
        first, second = self.items
        return [(first, (left, top, split, bottom)), (second, (split, top, right - dp(32), bottom))]


__all__ = ["ROOT", "MarkorApp"]
