"""Android 13's runtime permission prompt (the permission controller's ``GrantPermissionsActivity``)
and the grants it records.

What an app asks for and what the user answered live in the permission controller's data
(``phone.state.app_data[PACKAGE]``), so snapshots and resets cover them. The one request the
simulated apps make is Tasks.org's ``POST_NOTIFICATIONS`` (its editor's "Enable reminders"): every
other app that asks at first start has it granted or answered by AndroidWorld's set-up (see
``docs/fidelity.md``). ``pm grant`` and ``pm revoke`` change the same record.

The prompt is what the real one is on a Pixel 6 with Android 13 (grant_permissions.xml of the
Permission module, strings of the framework and of the module): an icon, "Allow <app> to send you
notifications?", and the buttons "Allow" and "Don’t allow" (``permission_allow_button``,
``permission_deny_button``; after one refusal the second button is
``permission_deny_and_dont_ask_again_button``, and after two refusals the app is not asked again).
Its window covers the app that asked (drawn here as a plain scrim, without the app beneath);
Back dismisses it without an answer.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.screen import NAV_HEIGHT, SCREEN_HEIGHT, STATUS_HEIGHT, ScreenSpec
from cerebellum_gym.sim.widgets import Callback, Widget

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

#: The permission controller of a Google Android 13 image; its views keep the module's ids.
PACKAGE: Final = "com.google.android.permissioncontroller"
RID: Final = "com.android.permissioncontroller:id/"
POST_NOTIFICATIONS: Final = "android.permission.POST_NOTIFICATIONS"
#: The request message per permission (the framework's ``permgrouprequest_*``).
MESSAGES: Final = {POST_NOTIFICATIONS: "Allow {app} to send you notifications?"}
#: The group icon per permission (a Material symbol).
ICONS: Final = {POST_NOTIFICATIONS: "notifications"}
ALLOW: Final = "Allow"
DENY: Final = "Don\u2019t allow"
#: After this many refusals a request is refused without asking (Android 11 and later).
REFUSALS_TO_STOP_ASKING: Final = 2
SCRIM: Final = (92, 94, 98)
CARD: Final = (241, 243, 248)
ON_CARD: Final = (27, 28, 31)
ACCENT: Final = (11, 87, 208)
#: The window between the status bar and the gesture handle.
WINDOW_HEIGHT: Final = SCREEN_HEIGHT - STATUS_HEIGHT - NAV_HEIGHT


def _record(phone: Phone) -> dict[str, Any]:
    """The answers, created on the first answer (reading them changes no state)."""
    store = phone.state.app_data.setdefault(PACKAGE, {})
    record: dict[str, Any] = store.setdefault("permissions", {})
    return record


def _entry(phone: Phone, package: str, permission: str) -> dict[str, Any]:
    entry: dict[str, Any] = (phone.state.app_data.get(PACKAGE) or {}).get("permissions", {}).get(_key(package, permission), {})
    return entry


def _key(package: str, permission: str) -> str:
    return f"{package} {permission}"


def granted(phone: Phone, package: str, permission: str) -> bool:
    """Whether ``package`` holds ``permission`` (granted at the prompt or by ``pm grant``)."""
    return bool(_entry(phone, package, permission).get("granted"))


def refusals(phone: Phone, package: str, permission: str) -> int:
    return int(_entry(phone, package, permission).get("refusals", 0))


def set_granted(phone: Phone, package: str, permission: str, value: bool) -> None:
    """``pm grant`` / ``pm revoke``: a revoke also forgets the refusals, as a fresh grant state."""
    _record(phone)[_key(package, permission)] = {"granted": value, "refusals": 0}
    phone.invalidate()


def request(phone: Phone, package: str, permission: str) -> None:
    """``requestPermissions`` from ``package``'s foreground screen: the prompt over it, unless the
    permission is held or was refused twice (the request is then answered at once)."""
    if granted(phone, package, permission) or refusals(phone, package, permission) >= REFUSALS_TO_STOP_ASKING:
        return
    controller = phone.apps[PACKAGE]
    assert isinstance(controller, PermissionControllerApp)
    controller.reset_to("grant", requester=package, permission=permission)
    phone.start_app(PACKAGE)


class _Icon(Widget):
    """The permission group's icon above the message (``permission_icon``)."""

    class_name = "android.widget.ImageView"
    background = CARD

    def __init__(self, icon: str) -> None:
        super().__init__(rid=RID + "permission_icon", height=dp(24))
        self.icon = icon

    def render_key(self) -> Hashable:
        return (self.icon,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        render.draw_icon(draw, self.icon, (0, 0, width, height), ACCENT)


class _Message(Widget):
    """The request, centred, in up to three lines (``permission_message``)."""

    class_name = "android.widget.TextView"
    background = CARD

    def __init__(self, message: str) -> None:
        super().__init__(text=message, rid=RID + "permission_message", height=dp(96))

    def render_key(self) -> Hashable:
        return (self.text,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(24) * scale)
        f = render.font(size)
        y = 0
        for line in render.layout_lines(draw, self.text, size, width, max_lines=3):
            w = draw.textlength(line, font=f)
            draw.text(((width - w) / 2, y), line, font=f, fill=ON_CARD)
            y += round(size * 1.3)


class _GrantButton(Widget):
    """One of the prompt's stacked full-width buttons (a ``SecureButton``)."""

    class_name = "android.widget.Button"
    background = CARD

    def __init__(self, text: str, rid: str, on_tap: Callback) -> None:
        super().__init__(text=text, rid=RID + rid, on_tap=on_tap, height=dp(48))

    def render_key(self) -> Hashable:
        return (self.text,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        inset = round(dp(2) * scale)
        draw.rounded_rectangle((inset, inset, width - inset, height - inset), radius=(height - 2 * inset) // 2, fill=(211, 227, 253))
        size = round(dp(14) * scale)
        f = render.font(size, "medium")
        w = draw.textlength(self.text, font=f)
        draw.text(((width - w) / 2, (height - size) / 2), self.text, font=f, fill=(4, 30, 73))


class GrantDialog(Widget):
    """The prompt's card, centred in its window: the message, then the buttons."""

    class_name = "android.widget.LinearLayout"
    background = SCRIM

    def __init__(self, message: str, icon: str, buttons: Sequence[_GrantButton]) -> None:
        super().__init__(rid=RID + "grant_dialog", height=WINDOW_HEIGHT)
        self.icon = _Icon(icon)
        self.message = _Message(message)
        self.buttons = list(buttons)

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.message.text, tuple((b.text, b.rid) for b in self.buttons))

    def _card(self, bounds: Bounds) -> Bounds:
        left, top, right, bottom = bounds
        height = dp(24) + self.icon.height + dp(16) + self.message.height + dp(16) + len(self.buttons) * (dp(48) + dp(8)) + dp(16)
        y = top + (bottom - top - height) // 2
        return (left + dp(24), y, right - dp(24), y + height)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        left, top, right, bottom = self._card((0, 0, round(width / scale), round(height / scale)))
        draw.rounded_rectangle(
            (round(left * scale), round(top * scale), round(right * scale), round(bottom * scale)), radius=round(dp(28) * scale), fill=CARD
        )

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, _ = self._card(bounds)
        inner = (left + dp(24), right - dp(24))
        y = top + dp(24)
        cx = (left + right) // 2
        placed: list[tuple[Widget, Bounds]] = [
            (self.icon, (cx - self.icon.height // 2, y, cx + self.icon.height // 2, y + self.icon.height))
        ]
        y += self.icon.height + dp(16)
        placed.append((self.message, (inner[0], y, inner[1], y + self.message.height)))
        y += self.message.height + dp(16)
        for button in self.buttons:
            placed.append((button, (inner[0], y, inner[1], y + button.height)))
            y += button.height + dp(8)
        return placed


@register_app
class PermissionControllerApp(App):
    package: ClassVar[str] = PACKAGE
    activity: ClassVar[str] = "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity"
    label: ClassVar[str] = "Permission controller"
    launchable: ClassVar[bool] = False
    clock_dependent: ClassVar[bool] = False
    root_screen: ClassVar[str] = "grant"

    def back(self) -> bool:
        self._finish()  # dismissed: no answer recorded, the app asks again next time
        return True

    def _finish(self) -> None:
        requester = str(self.route.get("requester") or "")
        self.stack.clear()
        if requester in self.phone.apps:
            self.phone.state.foreground = requester  # the app that asked, as it was
            self.phone.state.focus = None
            self.phone.invalidate()
        else:
            self.phone.go_home()

    def _answer(self, route: Route, allow: bool) -> None:
        requester, permission = str(route["requester"]), str(route["permission"])
        if allow:
            set_granted(self.phone, requester, permission, True)
        else:
            entry = _record(self.phone).setdefault(_key(requester, permission), {"granted": False, "refusals": 0})
            entry["refusals"] = int(entry.get("refusals", 0)) + 1
        self._finish()

    def screen_grant(self, route: Route) -> ScreenSpec:
        requester = str(route.get("requester") or "")
        permission = str(route.get("permission") or POST_NOTIFICATIONS)
        app = self.phone.apps.get(requester)
        label = app.label if app is not None else requester
        asked_before = refusals(self.phone, requester, permission) > 0
        buttons = [
            _GrantButton(ALLOW, "permission_allow_button", lambda: self._answer(route, True)),
            _GrantButton(
                DENY,
                "permission_deny_and_dont_ask_again_button" if asked_before else "permission_deny_button",
                lambda: self._answer(route, False),
            ),
        ]
        dialog = GrantDialog(
            MESSAGES.get(permission, "Allow {app} to " + permission + "?").format(app=label), ICONS.get(permission, "lock"), buttons
        )
        return ScreenSpec(
            title=None,
            body=[dialog],
            background=SCRIM,
            list_id=RID + "grant_singleton",
            list_class="android.widget.ScrollView",
        )


__all__ = ["PACKAGE", "POST_NOTIFICATIONS", "PermissionControllerApp", "granted", "refusals", "request", "set_granted"]
