"""Draw the app icon once: resources/icon/live-translator.{png,ico,icns}.

    python packaging/make_icon.py     # needs Pillow (the `packaging` extra) and a CJK font

Two speech bubbles, "A" and "文", on a blue tile. The files are committed; run this again
only to change the design.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "resources" / "icon"
FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"  # Debian fonts-noto-cjk
SIZE = 1024


def bubble(draw: ImageDraw.ImageDraw, box, tail, fill) -> None:
    draw.rounded_rectangle(box, radius=90, fill=fill)
    draw.polygon(tail, fill=fill)


def draw_icon() -> Image.Image:
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((32, 32, SIZE - 32, SIZE - 32), radius=200, fill=(32, 96, 200))
    bubble(draw, (110, 150, 600, 560), [(200, 540), (180, 680), (340, 550)], (255, 255, 255))
    bubble(draw, (424, 464, 914, 874), [(820, 860), (850, 960), (700, 860)], (255, 196, 64))
    font = ImageFont.truetype(FONT, 330)
    draw.text((355, 350), "A", font=font, fill=(32, 96, 200), anchor="mm")
    draw.text((669, 664), "文", font=font, fill=(32, 60, 120), anchor="mm")
    return image


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    image = draw_icon()
    image.resize((256, 256), Image.LANCZOS).save(OUT / "live-translator.png")
    image.save(
        OUT / "live-translator.ico", sizes=[(16, 16), (24, 24), (32, 32), (48, 48), (64, 64), (128, 128), (256, 256)]
    )
    image.save(OUT / "live-translator.icns")
    for path in sorted(OUT.iterdir()):
        print(f"{path}  {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
