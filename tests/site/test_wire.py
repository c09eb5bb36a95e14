"""A frame reads back as the standard library's JSON would have written it."""

from __future__ import annotations

import json

from kit.wire import frame_text


def test_a_frame_reads_back_as_json_would_write_it():
    frame = {
        "type": "chat",
        "message": {"user": "Jürgen", "text": "gut gespielt ♣"},
        "scores": {0: 12, 1: 9},
        "legal_moves": ["a1:N", "a1:N b1=*"],
        "final": None,
        "rated": True,
    }
    text = frame_text(frame)
    assert isinstance(text, str)
    assert json.loads(text) == json.loads(json.dumps(frame))
    # Unescaped UTF-8 and no optional spaces: a frame is as short as JSON allows.
    assert "Jürgen" in text and '"final":null' in text
    assert len(text) < len(json.dumps(frame))
