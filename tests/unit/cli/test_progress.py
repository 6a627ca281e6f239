"""The progress display: a real bar with sane rates on a terminal, one line per stage otherwise."""

from __future__ import annotations

import io
import re
import time

from orbitkb.cli.progress import Progress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def stages(progress: Progress, clock: Clock | None = None) -> None:
    """walk reports as it goes; link reports only once, when done, 2 s after walk ended; the LLM
    phase mixes unit kinds but is one stage."""
    for i in range(0, 11):
        if clock:
            clock.now += 0.1
        progress("walk", i * 10, 100)
    if clock:
        clock.now += 2.0
    else:
        time.sleep(0.25)
    progress("link", 8, 8)
    for i in range(1, 5):
        if clock:
            clock.now += 1.0
        progress("llm endpoints", i, 4)
    progress.close()


def test_without_a_terminal_each_stage_is_one_line_with_a_sane_rate() -> None:
    out = io.StringIO()
    clock = Clock()
    stages(Progress(stream=out, clock=clock), clock)
    assert out.getvalue().splitlines() == [
        "orbitkb: walk: 100 files in 1.1s, 90.9 files/s",
        "orbitkb: link: 8 services in 2.0s, 4.0 services/s",  # not 8 per 0 s
        "orbitkb: llm endpoints: 4 units in 4.0s, 1.0 units/s",
    ]
    assert "\r" not in out.getvalue()


def test_an_interrupted_stage_says_how_far_it_got() -> None:
    out = io.StringIO()
    clock = Clock()
    progress = Progress(stream=out, clock=clock)
    clock.now += 3
    progress("llm endpoints", 2, 40)
    progress.close()
    assert out.getvalue() == "orbitkb: llm endpoints: 2 of 40 units in 3.0s, 0.7 units/s\n"


def test_on_a_terminal_each_stage_is_a_bar_with_its_unit_and_a_sane_rate() -> None:
    term = FakeTerminal()
    stages(Progress(stream=term))
    text = term.getvalue()
    assert "\r" in text and "orbitkb:" not in text  # redrawn in place, no log lines
    finals = {}
    for frame in re.split(r"[\r\n]", text):
        m = re.match(r"(walk|link|llm endpoints): +100%\|.*\| (\d+)/(\d+) \[.*?, ([\d.]+) ?(\w+)/s\]", frame)
        if m:
            finals[m.group(1)] = (int(m.group(2)), int(m.group(3)), float(m.group(4)), m.group(5))
    assert set(finals) == {"walk", "link", "llm endpoints"}, text
    assert finals["walk"][:2] == (100, 100) and finals["walk"][3] == "files"
    assert finals["link"][:2] == (8, 8) and finals["link"][3] == "services"
    assert finals["link"][2] < 8 / 0.25 + 1, "link's clock starts when walk ended, not at its only report"
    assert finals["llm endpoints"][3] == "units"


def test_disabled_progress_prints_nothing() -> None:
    out = FakeTerminal()
    stages(Progress(enabled=False, stream=out))
    assert out.getvalue() == ""
