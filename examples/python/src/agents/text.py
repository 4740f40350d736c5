"""A message's text, whether its content is a string or content blocks."""

from typing import Any


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part if isinstance(part, str) else part.get("text", "") if part.get("type") == "text" else ""
            for part in content
        )
    return ""
