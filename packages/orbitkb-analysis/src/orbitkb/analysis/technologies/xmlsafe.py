"""XML parsing that refuses DTDs (entity expansion) and never raises."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

_DTD = re.compile(r"<!\s*(?:DOCTYPE|ENTITY)", re.I)


def parse(text: str) -> ET.Element | None:
    if _DTD.search(text):
        return None
    try:
        return ET.fromstring(text)
    except (ET.ParseError, ValueError):
        return None


def tag(element: ET.Element) -> str:
    return str(element.tag).rsplit("}", 1)[-1]


def child_text(element: ET.Element, name: str) -> str | None:
    for child in element:
        if tag(child) == name:
            return (child.text or "").strip()
    return None


def blank_comments(text: str) -> str:
    """``text`` with comments blanked, newlines kept: offsets still map to the same lines."""
    return re.sub(r"<!--.*?-->", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
