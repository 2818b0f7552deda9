"""AndroidWorld's accessibility forest on the served simulator.

On an emulator AndroidWorld's controller reads the accessibility forest
(``android_env.proto.a11y.AndroidAccessibilityForest``) from android_env's forwarder app over
gRPC, and hands it to judges as ``env.get_state().forest``. Over plain ADB the controller reads
the UI through ``uiautomator dump`` and the forest is ``None``, so a judge that reads the forest
(``ContactsNewContactDraft``: hint texts, which a dump does not print) cannot judge.

The served simulator has its own forwarder: the device command ``cerebellum-a11y forest``
(:mod:`cerebellum_gym.sim.a11y`) prints the screen's forest as the protocol buffer the forwarder
sends. :func:`make_controller` gives AndroidWorld a controller that, on such a device, puts that
forest into every state; the UI elements stay those of ``uiautomator dump``, as before. On any
other device it is AndroidWorld's own ``uiautomator`` controller, unchanged.

The forest of a state is fetched when it is first read (:class:`LazyForest`), not when the
state is made: AndroidWorld takes a state before every action and reads its forest only in a
few judges, which read it at once.
"""

from __future__ import annotations

from typing import Any, Final

from cerebellum_gym.devices.android import SIM_PRODUCT
from cerebellum_gym.devices.androidworld.lazy import FetchedOnRead
from cerebellum_gym.errors import CerebellumError

try:  # android_env comes with AndroidWorld; this module is imported only when it is wanted
    from android_env.components import errors
    from android_env.proto.a11y import android_accessibility_forest_pb2
except ImportError as exc:  # pragma: no cover - exercised only without AndroidWorld
    from cerebellum_gym.devices.androidworld.gate import INSTALL_HINT

    raise CerebellumError(f"AndroidWorld's accessibility forest needs android_env ({exc}).\n{INSTALL_HINT}") from exc

#: The served simulator's forwarder (``cerebellum_gym.sim.a11y.FOREST_COMMAND``; the same
#: words, not imported: the devices layer knows no simulator).
FOREST_COMMAND: Final = ("cerebellum-a11y", "forest")
#: AndroidWorld's observation key for the forest (``android_world_controller.OBSERVATION_KEY_FOREST``).
_FOREST_KEY: Final = "forest"


def parse_forest(data: bytes) -> Any:
    """``AndroidAccessibilityForest`` from its serialised bytes (android_env's own class).

    Raises:
        google.protobuf.message.DecodeError: the bytes are not such a message.
    """
    return android_accessibility_forest_pb2.AndroidAccessibilityForest.FromString(data)


class LazyForest(FetchedOnRead[Any]):
    """A state's accessibility forest, fetched from the device when first read.

    Reads as the forest does (``forest.windows``, any attribute of the message); the fetch
    happens once. Read it before the next input if it must show the state's moment.
    """

    def __repr__(self) -> str:
        return f"LazyForest(fetched={self.fetched})"


def has_forwarder(adb: Any) -> bool:
    """Whether the device behind android_env's ``AdbController`` ``adb`` is the served
    simulator (``ro.product.name``), whose shell has the forest command. A device that does
    not answer counts as not."""
    try:
        said = adb.execute_command(["shell", "getprop", "ro.product.name"], timeout=10.0)
    except errors.AdbControllerError:
        return False
    return bytes(said).decode("utf-8", "replace").strip() == SIM_PRODUCT


def make_controller(controller_mod: Any, shim: Any) -> Any:
    """AndroidWorld's ``AndroidWorldController`` over ``shim`` (an ``AdbAndroidEnv``), reading
    the UI through ``uiautomator``; on the served simulator its states also carry the forest.

    Args:
        controller_mod: ``android_world.env.android_world_controller``.
        shim: the ``AndroidEnvInterface`` over the device (with its ``adb`` controller).
    """
    base = controller_mod.AndroidWorldController
    uiautomator = controller_mod.A11yMethod.UIAUTOMATOR
    if not has_forwarder(shim.adb):
        return base(shim, a11y_method=uiautomator)

    def fetch() -> Any:
        return parse_forest(bytes(shim.adb.execute_command(["shell", *FOREST_COMMAND])))

    class ForestController(base):  # type: ignore[misc,valid-type]
        """The controller with the served simulator's forwarder."""

        def get_a11y_forest(self) -> Any:
            return fetch()

        def _process_timestep(self, timestep: Any) -> Any:
            timestep = super()._process_timestep(timestep)
            timestep.observation[_FOREST_KEY] = LazyForest(fetch)
            return timestep

    return ForestController(shim, a11y_method=uiautomator)


__all__ = ["FOREST_COMMAND", "LazyForest", "has_forwarder", "make_controller", "parse_forest"]
