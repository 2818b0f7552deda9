"""The app base class: a package with a navigation stack of routes and screens built from state.

An app keeps everything it knows in the phone's state (``phone.state.app_data[package]`` for
its own data, the shared settings, content providers and files for what the system owns), so a
snapshot of the phone is a snapshot of every app. A *route* is a plain dict naming a screen and
carrying its local state (draft text, scroll offset, an open dialog).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, ClassVar

from cerebellum_gym.sim.render import RGB
from cerebellum_gym.sim.screen import ScreenSpec

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

Route = dict[str, Any]


class App:
    """Base class of every simulated app.

    Subclasses set ``package``, ``label`` and ``color``, implement :meth:`initial_data`, and
    define one ``screen_<name>(route) -> ScreenSpec`` method per screen.
    """

    package: ClassVar[str] = ""
    #: The main activity's class, as the real app names it (``.Name`` is relative to the
    #: package): ``dumpsys`` and ``am stack list`` report it, and judges such as AndroidWorld's
    #: clock tasks read it.
    activity: ClassVar[str] = ".MainActivity"
    #: Other activities the real app exports, which ``am start -n`` starts too (it opens the
    #: app as the main one does); any other activity of the package does not exist.
    activities: ClassVar[tuple[str, ...]] = ()
    label: ClassVar[str] = ""
    color: ClassVar[RGB] = (90, 90, 200)
    #: Folders the app makes on its first start, which a phone has from the outset: it starts as
    #: AndroidWorld's set-up leaves it, every app run once (OsmAnd's ``files/tracks``).
    first_run_dirs: ClassVar[tuple[str, ...]] = ()
    #: Whether the app shows in the launcher.
    launchable: ClassVar[bool] = True
    root_screen: ClassVar[str] = "main"
    #: Whether screens change with the clock between inputs (a running stopwatch does). The
    #: phone then rebuilds them as time passes; apps that only show the minute set ``False``
    #: for speed (every screen is rebuilt when the minute changes anyway). An app whose
    #: screens run a clock only sometimes answers :meth:`shows_running_clock` instead.
    clock_dependent: ClassVar[bool] = True
    #: Build every reused spec afresh too and compare their trees (tests; slow).
    check_reused_specs: ClassVar[bool] = False

    def __init__(self, phone: Phone) -> None:
        self.phone = phone

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_specs", None)  # widgets with callbacks: made again on demand
        return state

    def shows_running_clock(self) -> bool:
        """Whether the screen now on show may change as time passes with no input (the phone
        asks the foreground app after every input and wait): ``clock_dependent`` unless the app
        knows better (a recorder runs a clock only while it records)."""
        return self.clock_dependent

    def saved_data(self) -> dict[str, Any]:
        """The app's private data as stored, without creating it (empty before first use)."""
        return self.phone.state.app_data.get(self.package) or {}

    # --- state -------------------------------------------------------------------------------

    def initial_data(self) -> dict[str, Any]:
        """The app's private data on a freshly installed phone."""
        return {}

    def first_run_data(self) -> dict[str, Any]:
        """What differs from :meth:`initial_data` after ``pm clear`` (a phone starts as
        AndroidWorld's set-up leaves it, every app run once; a data clear makes the next start
        a first run again, with its onboarding)."""
        return {}

    def clear_data(self) -> None:
        """``pm clear``: the app's screens, private data and databases go."""
        from cerebellum_gym.sim import databases

        self.phone.state.stacks.pop(self.package, None)
        self.phone.state.app_data[self.package] = {**self.initial_data(), **self.first_run_data()}
        databases.app_data_cleared(self.phone, self.package)

    @property
    def data(self) -> dict[str, Any]:
        store = self.phone.state.app_data
        if self.package not in store:
            store[self.package] = self.initial_data()
        return store[self.package]

    @property
    def stack(self) -> list[Route]:
        return self.phone.state.stacks.setdefault(self.package, [])

    @property
    def route(self) -> Route:
        stack = self.stack
        if not stack:
            stack.append(self.make_route(self.root_screen))
        return stack[-1]

    # --- navigation --------------------------------------------------------------------------

    @staticmethod
    def make_route(name: str, **params: Any) -> Route:
        return {"screen": name, "scroll": 0, "dialog": None, **params}

    def on_launch(self) -> None:
        """Called when the app comes to the foreground from the launcher or ``am start``."""
        from cerebellum_gym.sim import databases

        databases.app_launched(self.phone, self.package)  # a first start creates its databases
        _ = self.route

    def push(self, name: str, **params: Any) -> None:
        self.stack.append(self.make_route(name, **params))
        self.phone.focus(None)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
        self.phone.focus(None)

    def reset_to(self, name: str, **params: Any) -> None:
        """Replace the whole stack with one screen."""
        self.stack[:] = [self.make_route(name, **params)]
        self.phone.focus(None)

    def back(self) -> bool:
        """Handle the back key; False when the app is at its root (the phone then goes home)."""
        route = self.route
        if route.get("dialog"):
            route["dialog"] = None
            return True
        if len(self.stack) > 1:
            self.pop()
            return True
        return False

    def overscroll(self, dy: int) -> bool:
        """A vertical swipe of ``dy`` pixels (up is positive) that moved no list; True when it did
        something (the launcher opens and closes its drawer so)."""
        return False

    def set_dialog(self, name: str | None, **params: Any) -> None:
        self.route["dialog"] = name
        self.route.update(params)

    # --- screens -----------------------------------------------------------------------------

    def build(self) -> ScreenSpec:
        route = self.route
        builder = getattr(self, f"screen_{route['screen']}", None)
        if builder is None:
            raise LookupError(f"{type(self).__name__} has no screen {route['screen']!r}")
        spec: ScreenSpec = builder(route)
        spec.scroll = route.get("scroll", 0)
        return spec

    def reused_spec(self, key: Hashable, make: Callable[[], ScreenSpec]) -> ScreenSpec:
        """``make()``, made once per ``key`` and handed back as the same spec while ``key`` holds,
        which lets the phone reuse its whole layout (no walk over the widgets), across episodes
        too. ``key`` names the screen and holds everything it shows and does; its callbacks must
        not capture a route (a new episode brings new routes): they read ``self.route`` when
        they run, which is the shown screen's route."""
        specs: dict[Hashable, ScreenSpec] = self.__dict__.setdefault("_specs", {})
        spec = specs.get(key)
        if spec is None:
            if len(specs) >= 64:
                specs.clear()
            spec = specs[key] = make()
        elif self.check_reused_specs:
            from cerebellum_gym.core.tree import to_uiautomator_xml
            from cerebellum_gym.sim.screen import layout

            made = make()
            made.scroll = spec.scroll = self.route.get("scroll", 0)
            fresh, kept = to_uiautomator_xml(layout(made, self.package).root), to_uiautomator_xml(layout(spec, self.package).root)
            if fresh != kept:
                raise AssertionError(f"{type(self).__name__}: reused screen {key!r} differs from a fresh one:\n{kept}\n!=\n{fresh}")
        return spec

    def field_setter(self, route: Route, name: str) -> Any:
        """A text field ``on_change`` that stores the text in the route under ``name``."""

        def set_value(value: str) -> None:
            route[name] = value

        return set_value
