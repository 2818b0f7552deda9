"""Simple Gallery Pro tasks: the receipt picture AndroidWorld pushes to ``DCIM``, copied with the
gallery's Copy to and folder picker, judged on the files as AndroidWorld judges them.

The receipt is drawn as AndroidWorld's ``receipt_generator.create_receipt`` draws it (a white
500 x 500 picture: company and slogan, one dated transaction, a footer) from its own pools, and
pushed as a JPEG; the text is only in the pixels, as on a phone.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any, ClassVar

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import find_under
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, label_for
from cerebellum_gym.tasks.registry import register_task

GALLERY_PACKAGE = "com.simplemobiletools.gallery.pro"
DCIM = "/sdcard/DCIM"
DOWNLOAD = "/sdcard/Download"
#: ``receipt_generator``'s pools: items with their price ranges, companies, slogans.
RECEIPT_ITEMS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("USB-C Cable", (5, 20)),
    ("Wireless Mouse", (10, 50)),
    ("Bluetooth Keyboard", (30, 100)),
    ("External Hard Drive", (50, 150)),
    ("Webcam", (20, 70)),
    ("Monitor Stand", (15, 60)),
)
RECEIPT_COMPANIES: tuple[str, ...] = ("Tech Gadgets Inc.", "Innovate Solutions Ltd.", "Future Tech LLC", "Gadget Gurus Co.")
RECEIPT_SLOGANS: tuple[str, ...] = (
    "Innovating the Future",
    "Technology for Tomorrow",
    "Bringing Ideas to Life",
    "Innovation and Excellence",
)
FOOTER = "Thank you for your purchase!\nVisit us at: www.tech-gadgets.com"


def random_receipt(rng: np.random.Generator) -> dict[str, str]:
    """One receipt's fields, drawn as ``create_receipt(1)`` draws them (a date in 2023 before
    AndroidWorld's frozen today, an item, a price within its range)."""
    item, (low, high) = RECEIPT_ITEMS[int(rng.integers(len(RECEIPT_ITEMS)))]
    days = (awdata.DEVICE_TODAY - dt.date(2023, 1, 1)).days
    day = dt.date(2023, 1, 1) + dt.timedelta(days=int(rng.integers(days)))
    return {
        "company": awdata.pick(rng, RECEIPT_COMPANIES),
        "slogan": awdata.pick(rng, RECEIPT_SLOGANS),
        "date": day.isoformat(),
        "item": item,
        "price": f"${rng.uniform(low, high):.2f}",
    }


def receipt_text(receipt: dict[str, str]) -> str:
    """The receipt's text, as ``create_receipt`` returns it beside the picture."""
    return f"{receipt['company']}\n{receipt['slogan']}\nDate, Item, Amount\n{receipt['date']}, {receipt['item']}, {receipt['price']}"


def receipt_jpeg(receipt: dict[str, str]) -> bytes:
    """The receipt picture as a JPEG: laid out as ``create_receipt`` lays it out (500 x 500,
    black text on white), in PIL's bundled font."""
    image = Image.new("RGB", (500, 500), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((10, 100), f"{receipt['company']}\n{receipt['slogan']}", fill=(0, 0, 0), font=ImageFont.load_default(20))
    draw.text((10, 170), f"{receipt['date']}, {receipt['item']}, {receipt['price']}", fill=(0, 0, 0), font=ImageFont.load_default(16))
    draw.text((10, 460), FOOTER, fill=(0, 0, 0), font=ImageFont.load_default(12))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    return out.getvalue()


class CopyPictureOracle(ScriptedOracle):
    """Open the album, the picture, Copy to, walk the folder picker to the target, OK."""

    def __init__(self, album: str, name: str, target: str) -> None:
        super().__init__()
        self.album, self.name, self.target = album, name, target
        self.done = False

    def act(self, screen: LabelledScreen) -> str:
        if self.done:
            return "F"
        step = self.open_app(screen, GALLERY_PACKAGE, "Simple Gallery Pro")
        if step is not None:
            return step
        if screen.root.find(resource_id="android:id/alertTitle", text="Select a folder") is not None:
            here = screen.root.find(resource_id="android:id/message")
            if here is not None and here.text.endswith("/" + self.target):
                self.done = True
                return self.tap(label_for(screen, text="OK") or "")
            label = label_for(screen, text=self.target)
            return self.tap(label) if label else self.tap(label_for(screen, text="..") or "")
        if screen.root.find(resource_id=f"{GALLERY_PACKAGE}:id/photo_view") is not None:
            return self.tap(label_for(screen, desc="Copy to") or "")
        hit = find(screen, lambda n: n.text == self.name and n.resource_id.endswith(":id/medium_name"))
        if hit is not None:
            return self.tap(hit[0])
        album = find(screen, lambda n: n.text == self.album and n.resource_id.endswith(":id/dir_name"))
        if album is not None:
            return self.tap(album[0])
        return "B" if label_for(screen, desc="Navigate up") else self.scroll_search(screen)


@register_task
class SaveCopyOfReceipt(Task):
    name = "SaveCopyOfReceiptTaskEval"
    mirrors = "SaveCopyOfReceiptTaskEval"
    app: ClassVar[str] = "Simple Gallery Pro"
    family: ClassVar[str] = "gallery"
    complexity: ClassVar[float] = 1.6
    template = "In Simple Gallery Pro, copy {file_name} in DCIM and save a copy with the same name in Download"
    judge = "A file or folder <file_name> exists below /sdcard/Download (AndroidWorld's check_file_or_folder_exists)."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"file_name": f"receipt_{awdata.random_file_name(rng)}.jpg", "receipt": random_receipt(rng)}

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        return {"file_name": params["file_name"]}  # AndroidWorld pushed its own picture

    def initialize(self, device: Device) -> None:
        # AndroidWorld: clear_device_storage, then push the receipt to DCIM.
        for folder in (DCIM, DOWNLOAD):
            for name in device.list_dir(folder):
                device.remove_path(f"{folder}/{name}")
        device.write_file(f"{DCIM}/{self.params['file_name']}", receipt_jpeg(self.params["receipt"]))

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if find_under(device, DOWNLOAD, self.params["file_name"]) else 0.0

    def oracle(self) -> Oracle:
        return CopyPictureOracle("DCIM", self.params["file_name"], "Download")
