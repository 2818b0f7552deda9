"""Pieces several apps share: editable fields with select-all, and small pickers as dialogs.

Editing follows Android: a tap focuses a field and typing appends; a long press selects all of
its text, so the next typed text replaces it (the way an agent clears a field without a delete
key), and floats the selection toolbar over the field: Cut, Copy and Paste on the system
clipboard (:func:`cerebellum_gym.sim.telephony.clipboard`, the one Clipper's broadcasts set and
read); on an empty field it offers Paste. The selection lives in the route, so it survives
screen rebuilds and snapshots.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cerebellum_gym.sim import telephony
from cerebellum_gym.sim.render import RGB
from cerebellum_gym.sim.widgets import Button, Dialog, ListItem, TextArea, TextField, Widget

if TYPE_CHECKING:
    from cerebellum_gym.sim.apps.base import App, Route
    from cerebellum_gym.sim.material import Theme


def field_key(app: App, route: Route, name: str) -> str:
    """The focus key of the field :func:`edit_field` makes for ``route[name]``."""
    return f"{app.package}.{route['screen']}.{name}"


def edit_field(
    app: App, route: Route, name: str, *, hint: str = "", rid: str = "", area: bool = False, height: int | None = None, desc: str = ""
) -> TextField:
    """A text field bound to ``route[name]``; long press selects all so typing replaces it."""
    key = field_key(app, route, name)
    flag = f"{name}__all"
    menu_flag = f"{name}__menu"  # the selection toolbar is up

    def on_change(value: str) -> None:
        route.pop(menu_flag, None)  # typing dismisses the toolbar
        old = str(route.get(name, ""))
        if route.get(flag):
            route[flag] = False
            # The phone hands over old + typed text (or old minus one char for delete).
            value = value[len(old) :] if value.startswith(old) and len(value) > len(old) else ""
        route[name] = value

    def select_all() -> None:
        route[flag] = True
        route[menu_flag] = True
        app.phone.focus(key)

    def on_menu(item: str) -> None:
        text = str(route.get(name, ""))
        route.pop(menu_flag, None)
        if item in ("Cut", "Copy") and text:
            telephony.set_clipboard(app.phone, text)
            route[flag] = False
            if item == "Cut":
                route[name] = ""
        elif item == "Paste":
            clip = telephony.clipboard(app.phone)
            if clip:
                on_change(text + clip)  # replaces the selection, as typed text does
        elif item == "Select all":
            select_all()

    focused = app.phone.state.focus == key
    menu: tuple[str, ...] = ()
    if focused and route.get(menu_flag):
        menu = text_menu(str(route.get(name, "")), bool(route.get(flag)), telephony.clipboard(app.phone))
    cls = TextArea if area else TextField
    kwargs: dict[str, Any] = {"rid": rid or f"{app.package}:id/{name}", "desc": desc, "on_long_press": select_all}
    if height is not None:
        kwargs["height"] = height
    field = cls(
        key,
        str(route.get(name, "")),
        hint=hint,
        on_change=on_change,
        focused=focused,
        menu=menu,
        on_menu=on_menu,
        on_focus=lambda: route.pop(menu_flag, None),
        **kwargs,
    )
    field.selected = bool(route.get(flag))
    return field


def text_menu(text: str, selected: bool, clip: str | None) -> tuple[str, ...]:
    """The selection toolbar's items, as Android offers them: Cut and Copy for selected text,
    Paste while the clipboard holds text, Select all while not everything is selected; an
    empty field offers only Paste."""
    items: list[str] = []
    if text and selected:
        items += ["Cut", "Copy"]
    if clip:
        items.append("Paste")
    if text and not selected:
        items.append("Select all")
    return tuple(items)


def number_dialog(app: App, route: Route, title: str, fields: tuple[tuple[str, str], ...], on_ok: Callable[[], None]) -> Dialog:
    """A dialog of numeric fields (``(name, hint)``) with Cancel and OK, like a picker's keyboard mode."""
    body = [edit_field(app, route, name, hint=hint) for name, hint in fields]

    def cancel() -> None:
        app.set_dialog(None)
        app.phone.focus(None)

    def ok() -> None:
        on_ok()
        app.phone.focus(None)

    return Dialog(title, [Button("Cancel", filled=False, on_tap=cancel), Button("OK", filled=False, on_tap=ok)], body=body)


def parse_int(text: object, low: int, high: int) -> int | None:
    """``text`` as an int in ``[low, high]``, or ``None``."""
    try:
        value = int(str(text).strip())
    except ValueError:
        return None
    return value if low <= value <= high else None


def confirm_dialog(app: App, title: str, message: str, ok_text: str, on_ok: Callable[[], None]) -> Dialog:
    """A yes/no dialog whose OK runs ``on_ok`` and closes it."""

    def ok() -> None:
        app.set_dialog(None)
        on_ok()

    return Dialog(
        title,
        [Button("Cancel", filled=False, on_tap=lambda: app.set_dialog(None)), Button(ok_text, filled=False, on_tap=ok)],
        message=message,
    )


FOLDER_COLOR: RGB = (120, 144, 156)


def browser_rows(
    folders: list[str],
    files: list[str],
    selected: list[str],
    *,
    describe: Callable[[str], str],
    file_color: RGB,
    on_open: Callable[[str, bool], None],
    on_toggle: Callable[[str], None],
) -> list[Widget]:
    """The rows of a file browser (Files, Markor): folders first, then files with ``describe``'s
    subtitle; a tap opens, a long press toggles the selection, as both real apps do."""
    rows: list[Widget] = []
    for name, is_folder in [*((f, True) for f in folders), *((f, False) for f in files)]:
        rows.append(
            ListItem(
                name,
                "Folder" if is_folder else describe(name),
                avatar="▸" if is_folder else name[:1].upper(),
                avatar_color=FOLDER_COLOR if is_folder else file_color,
                selected=name in selected,
                on_tap=lambda n=name, d=is_folder: on_open(n, d),
                on_long_press=lambda n=name: on_toggle(n),
            )
        )
    return rows


def add_to_playlist_dialog(
    app: App,
    route: Route,
    playlists: Callable[[], Sequence[tuple[str, str, str]]],
    add: Callable[[str], None],
    create: Callable[[str], str],
    field_rid: str,
) -> Dialog | None:
    """A media app's "Add to playlist" dialog (VLC, Retro Music), shown while ``route["dialog"]``
    is ``"add"``: tap a playlist, or type a name and Create (a playlist of that name is reused).

    Args:
        playlists: the playlists now, as ``(id, name, count text)``.
        add: puts what is being added into the playlist of that id.
        create: makes a playlist of that name and returns its id.
        field_rid: the name field's resource id.
    """
    if route.get("dialog") != "add":
        return None

    def done(playlist_id: str) -> None:
        add(playlist_id)
        route["selected"] = []
        app.set_dialog(None)

    def create_named() -> None:
        name = str(route.get("new_name", "")).strip()
        if not name:
            return
        same = [pid for pid, other, _ in playlists() if other == name]
        done(same[0] if same else create(name))

    body: list[Widget] = [ListItem(name, count, on_tap=lambda i=pid: done(i), height=130) for pid, name, count in playlists()]
    body.append(edit_field(app, route, "new_name", hint="Playlist name", rid=field_rid))
    buttons = [Button("Cancel", filled=False, on_tap=lambda: app.set_dialog(None)), Button("Create", filled=False, on_tap=create_named)]
    return Dialog("Add to playlist", buttons, body=body)


def time_picker(app: App, route: Route, *, on_ok: Callable[[], None], on_cancel: Callable[[], None], theme: Theme | None = None) -> Dialog:
    """The platform's 12-hour ``TimePickerDialog`` over ``route``'s picker state (``hour``,
    ``minute``, ``minutes``, ``text_mode``, the text fields ``p1`` / ``p2``): the dial, the text
    mode (its hour field focused when it opens), AM / PM; ``on_ok`` reads the pick with
    :func:`~cerebellum_gym.sim.material.pickers.picked_time`."""
    from cerebellum_gym.sim.material import LIGHT
    from cerebellum_gym.sim.material.pickers import dial_time, hour12, set_am_pm, time_picker_dialog, toggle_time_mode

    hour, minute = int(route["hour"]), int(route["minute"])
    fields = None
    if route.get("text_mode"):
        fields = (
            edit_field(app, route, "p1", hint=str(hour12(hour)), rid="android:id/input_hour"),
            edit_field(app, route, "p2", hint=f"{minute:02d}", rid="android:id/input_minute"),
        )

    def toggle() -> None:
        if toggle_time_mode(route):
            app.phone.focus(field_key(app, route, "p1"))

    return time_picker_dialog(
        hour,
        minute,
        is24=False,
        text_mode=bool(route.get("text_mode")),
        selecting_minutes=bool(route.get("minutes")),
        on_hours=lambda: route.update(minutes=False),
        on_minutes=lambda: route.update(minutes=True),
        on_dial=lambda v: dial_time(route, v),
        on_am_pm=lambda pm: set_am_pm(route, pm),
        on_toggle=toggle,
        on_ok=on_ok,
        on_cancel=on_cancel,
        input_fields=fields,
        theme=theme or LIGHT,
    )
