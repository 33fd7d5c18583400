"""The QR code of the join address, as a PNG for the host's screen (segno: pure Python, no flet)."""

from __future__ import annotations

import io

import segno


def qr_code(text: str) -> "segno.QRCode":
    """The smallest QR code holding `text`, with error correction raised as far as it fits (at least M)."""
    return segno.make_qr(text, error="m", boost_error=True)


def qr_png(text: str, scale: int = 8, border: int = 4, dark: str = "#000000", light: str = "#ffffff") -> bytes:
    """A PNG of the QR code: `scale` pixels a module, `border` modules of quiet zone (the standard 4)."""
    out = io.BytesIO()
    qr_code(text).save(out, kind="png", scale=scale, border=border, dark=dark, light=light)
    return out.getvalue()
