"""Simple Gallery Pro tasks: the receipt picture AndroidWorld pushes to ``DCIM``, copied with the
gallery's Copy to and folder picker, judged on the files as AndroidWorld judges them.

The receipt is drawn as AndroidWorld's ``receipt_generator.create_receipt`` draws it (a white
500 x 500 picture: company and slogan, one dated transaction, a footer) from its own pools, and
pushed as a JPEG; the text is only in the pixels, as on a phone. Text pictures (the expenses and
recipes that the Pro Expense and Broccoli tasks read off the gallery) are drawn as its
``write_to_gallery`` draws them: :func:`text_picture`.
"""

from __future__ import annotations

import datetime as dt
import io
import textwrap
import unicodedata
from typing import Any, ClassVar, Final

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import file_text, find_under, fuzzy_match
from cerebellum_gym.tasks.markor import ROOT as MARKOR_ROOT
from cerebellum_gym.tasks.markor import CreateNoteOracle, reset_markor
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


def random_receipt(rng: np.random.Generator, transactions: int = 1) -> dict[str, Any]:
    """One receipt's fields, drawn as ``create_receipt(transactions)`` draws them: a company, a
    slogan, and per transaction a date in 2023 before AndroidWorld's frozen today, an item and a
    price within the item's range."""
    days = (awdata.DEVICE_TODAY - dt.date(2023, 1, 1)).days
    company, slogan = awdata.pick(rng, RECEIPT_COMPANIES), awdata.pick(rng, RECEIPT_SLOGANS)
    rows = []
    for _ in range(transactions):
        item, (low, high) = RECEIPT_ITEMS[int(rng.integers(len(RECEIPT_ITEMS)))]
        day = dt.date(2023, 1, 1) + dt.timedelta(days=int(rng.integers(days)))
        rows.append([day.isoformat(), item, f"${rng.uniform(low, high):.2f}"])
    return {"company": company, "slogan": slogan, "transactions": rows}


def receipt_text(receipt: dict[str, Any]) -> str:
    """The receipt's text, as ``create_receipt`` returns it beside the picture."""
    lines = [receipt["company"], receipt["slogan"], "Date, Item, Amount", *(", ".join(t) for t in receipt["transactions"])]
    return "\n".join(lines)


def receipt_image(receipt: dict[str, Any], fmt: str = "JPEG") -> bytes:
    """The receipt picture, laid out as ``create_receipt`` lays it out (500 px wide, 500 tall up
    to four transactions and 100 more per transaction after that, black text on white), in
    PIL's bundled font; the text is only in the pixels."""
    rows = receipt["transactions"]
    height = max(250, 50 * (len(rows) + 4)) * 2
    image = Image.new("RGB", (500, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((10, 100), f"{receipt['company']}\n{receipt['slogan']}", fill=(0, 0, 0), font=ImageFont.load_default(20))
    for i, row in enumerate(rows):
        draw.text((10, 170 + 30 * i), ", ".join(row), fill=(0, 0, 0), font=ImageFont.load_default(16))
    draw.text((10, height - 40), FOOTER, fill=(0, 0, 0), font=ImageFont.load_default(12))
    out = io.BytesIO()
    image.save(out, fmt, **({"quality": 90} if fmt == "JPEG" else {}))
    return out.getvalue()


def wrapped(value: str, width: int | None) -> str:
    """``value`` broken into lines of at most ``width`` characters (``textwrap.wrap``, as
    AndroidWorld wraps the values it pictures); unchanged without a width."""
    return value if width is None else "\n".join(textwrap.wrap(value, width))


#: Spacing accents that stand in for the combining marks PIL's bundled font has no composed
#: letters for (it draws ``é`` as a box; a phone's font draws the letter).
ACCENTS: Final = {"\u0301": "\u00b4", "\u0300": "`", "\u0308": "\u00a8", "\u0302": "^", "\u0303": "~"}


def _accent(char: str) -> tuple[str, str] | None:
    """An accented letter's base letter and the spacing accent drawn over it, if it is one."""
    parts = unicodedata.normalize("NFD", char)
    accent = ACCENTS.get(parts[1:]) if len(parts) == 2 else None
    return None if accent is None else (parts[0], accent)


def _bases(line: str) -> str:
    """``line`` with each accented letter as its base letter (what takes its room)."""
    return "".join((_accent(c) or (c, ""))[0] for c in line)


def draw_line(draw: ImageDraw.ImageDraw, xy: tuple[int, int], line: str, face: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> None:
    """One line of black text at ``xy``, an accented letter drawn as its base letter with the
    accent above it (centred, two pixels clear)."""
    x, y = float(xy[0]), xy[1]
    run = ""
    for char in line + "\0":
        accented = _accent(char)
        if accented is None and char != "\0":
            run += char
            continue
        if run:
            draw.text((x, y), run, fill=(0, 0, 0), font=face)
            x += face.getlength(run)
            run = ""
        if accented is None:
            break
        base, accent = accented
        draw.text((x, y), base, fill=(0, 0, 0), font=face)
        base_box, mark_box = face.getmask(base).getbbox(), face.getmask(accent).getbbox()
        base_top, mark_top = face.getbbox(base)[1], face.getbbox(accent)[1]
        if base_box and mark_box:
            dx = (base_box[0] + base_box[2]) / 2 - (mark_box[0] + mark_box[2]) / 2
            dy = base_top - 2 - (mark_top + mark_box[3] - mark_box[1])
            draw.text((x + dx, y + dy), accent, fill=(0, 0, 0), font=face)
        x += face.getlength(base)


def text_picture(text: str, font_size: int = 24) -> bytes:
    """``text`` as AndroidWorld's ``write_to_gallery`` pictures it (``_draw_text``): black lines on
    white, 10 px margins, each line as tall as its glyphs reach and a blank line half the font
    size, the picture as wide as the widest line; a JPEG at PIL's default quality, as its
    ``image.save("<name>.jpg")`` writes. PIL's bundled font stands in for the host's DejaVu, so
    the picture is the same on every host; the text is only in the pixels."""
    face = ImageFont.load_default(font_size)
    lines = text.split("\n")
    measured = [_bases(line) for line in lines]  # as drawn: an accent sits over its letter
    heights = [int(face.getbbox(line)[3]) if line.strip() else font_size // 2 for line in measured]
    width = max((int(face.getbbox(line)[2]) for line in measured), default=0) + 20
    image = Image.new("RGB", (width, sum(heights) + 20), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    y = 10
    for line, height in zip(lines, heights, strict=True):
        if line.strip():
            draw_line(draw, (10, y), line, face)
        y += height
    out = io.BytesIO()
    image.save(out, "JPEG")
    return out.getvalue()


def clear_gallery(device: Device) -> None:
    """Every picture in ``DCIM`` removed (the part of AndroidWorld's ``clear_device_storage`` that
    the gallery shows)."""
    for name in device.list_dir(DCIM):
        device.remove_path(f"{DCIM}/{name}")


def picker_step(oracle: ScriptedOracle, screen: LabelledScreen, folder: str) -> tuple[str, bool] | None:
    """On the apps' folder picker, the next action toward ``folder`` (a folder of the storage's
    root) and whether it is OK, which chooses it; ``None`` when no picker shows."""
    if screen.root.find(resource_id="android:id/alertTitle", text="Select a folder") is None:
        return None
    here = screen.root.find(resource_id="android:id/message")
    if here is not None and here.text.endswith("/" + folder):
        return oracle.tap(label_for(screen, text="OK") or ""), True
    return oracle.tap(label_for(screen, text=folder) or label_for(screen, text="..") or ""), False


class ViewPictureOracle(ScriptedOracle):
    """Open the album and the picture in the viewer; ``viewed`` once it shows."""

    def __init__(self, album: str, name: str) -> None:
        super().__init__()
        self.album, self.name = album, name
        self.viewed = False

    def on_viewer(self, screen: LabelledScreen) -> str:
        self.viewed = True
        return "W"  # a moment to read it

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, GALLERY_PACKAGE, "Simple Gallery Pro")
        if step is not None:
            return step
        if screen.root.find(resource_id=f"{GALLERY_PACKAGE}:id/gestures_view") is not None:
            return self.on_viewer(screen)
        hit = find(screen, lambda n: n.text == self.name and n.resource_id == f"{GALLERY_PACKAGE}:id/medium_name")
        if hit is not None:
            return self.tap(hit[0])
        toggle = find(screen, lambda n: n.resource_id == f"{GALLERY_PACKAGE}:id/toggle_filename")
        names = find(screen, lambda n: n.resource_id == f"{GALLERY_PACKAGE}:id/medium_name")
        if toggle is not None and names is None:
            return self.tap(toggle[0])  # the grid shows no file names until they are toggled on
        album = find(screen, lambda n: n.text == self.album and n.resource_id == f"{GALLERY_PACKAGE}:id/dir_name")
        if album is not None:
            return self.tap(album[0])
        back = find(screen, lambda n: n.content_desc == "Back")
        return self.tap(back[0]) if back is not None and toggle is None else self.scroll_search(screen)


class CopyPictureOracle(ViewPictureOracle):
    """Open the album, the picture, Copy to, walk the folder picker to the target, OK."""

    def __init__(self, album: str, name: str, target: str) -> None:
        super().__init__(album, name)
        self.target = target
        self.done = False

    def on_viewer(self, screen: LabelledScreen) -> str:
        return self.tap(label_for(screen, desc="More options") or "")

    def act(self, screen: LabelledScreen) -> str:
        if self.done:
            return "F"
        picked = picker_step(self, screen, self.target)
        if picked is not None:
            self.done = picked[1]
            return picked[0]
        copy = find(screen, lambda n: n.text == "Copy to" and n.resource_id == "android:id/title")
        if copy is not None:
            return self.tap(copy[0])  # the viewer's overflow menu is open
        return super().act(screen)


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
        return {"file_name": f"receipt_{awdata.random_file_name(rng)}.jpg", "receipt": random_receipt(rng)}  # create_receipt()

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        return {"file_name": params["file_name"]}  # AndroidWorld pushed its own picture

    def initialize(self, device: Device) -> None:
        # AndroidWorld: clear_device_storage, then push the receipt to DCIM.
        for folder in (DCIM, DOWNLOAD):
            for name in device.list_dir(folder):
                device.remove_path(f"{folder}/{name}")
        device.write_file(f"{DCIM}/{self.params['file_name']}", receipt_image(self.params["receipt"]))

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if find_under(device, DOWNLOAD, self.params["file_name"]) else 0.0

    def oracle(self) -> Oracle:
        return CopyPictureOracle("DCIM", self.params["file_name"], "Download")


class ReadPictureOracle(ScriptedOracle):
    """View a picture of ``DCIM`` in the gallery, then hand over to ``then`` (which enters what
    the picture shows; as other oracles it knows the parameters)."""

    def __init__(self, picture: str, then: Oracle) -> None:
        super().__init__()
        self.view = ViewPictureOracle("DCIM", picture)
        self.then = then

    def act(self, screen: LabelledScreen) -> str:
        return self.then.act(screen) if self.view.viewed else self.view.act(screen)


class TranscribeOracle(ReadPictureOracle):
    """View the receipt in the gallery, then write its transactions into a new Markor note."""

    def __init__(self, picture: str, note: str, text: str) -> None:
        super().__init__(picture, CreateNoteOracle(note, text))


@register_task
class MarkorTranscribeReceipt(Task):
    mirrors = "MarkorTranscribeReceipt"
    app: ClassVar[str] = "Markor"
    family: ClassVar[str] = "gallery"
    complexity: ClassVar[float] = 1.8
    template = (
        "Create a file in Markor, called receipt.md with the transactions from the receipt.png. Use Simple Gallery to view the "
        'receipt. Please enter transactions in csv format including the header "Date, Item, Amount".'
    )
    judge = (
        "A note receipt.md exists below Markor's notebook and its text, trimmed, fuzzy-matches (0.9) the receipt's header line and "
        "transactions (AndroidWorld's CreateFile check); the transactions are only in the picture's pixels."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        receipt = random_receipt(rng, int(rng.integers(1, 6)))
        text = "\n".join(receipt_text(receipt).split("\n")[2:])  # AndroidWorld drops the company and slogan
        return {"file_name": "receipt.md", "text": text, "receipt": receipt}

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        return {"file_name": params["file_name"], "text": params["text"]}  # AndroidWorld pushed its own picture

    def initialize(self, device: Device) -> None:
        # AndroidWorld: clear_device_storage (and so Markor's notebook), then the picture to DCIM.
        reset_markor(device)
        clear_gallery(device)
        device.write_file(f"{DCIM}/receipt.png", receipt_image(self.params["receipt"], "PNG"))

    def progress(self, device: Device, answer: str | None = None) -> float:
        name = self.params["file_name"]
        content = file_text(device, f"{MARKOR_ROOT}/{name}") if find_under(device, MARKOR_ROOT, name) else None
        return 1.0 if content is not None and fuzzy_match(content.strip(), self.params["text"]) else 0.0

    def text_candidates(self) -> list[str]:
        return ["receipt.md"]  # the transactions are read off the picture

    def oracle(self) -> Oracle:
        return TranscribeOracle("receipt.png", self.params["file_name"], self.params["text"])
