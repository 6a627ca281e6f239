"""TypeScript enum members without an initialiser: a numeric enum counts on from the member before
(from 0); after a string member there is no value to count from."""

from __future__ import annotations

from .support import analyze

HANDLERS = """\
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';

export enum Signal { RAISED, LOWERED, HELD = 7, DROPPED }
export enum Named { FIRST = 'first', SECOND }

@Controller()
export class SignalController {
  @MessagePattern(Signal.RAISED) raised() {}
  @MessagePattern(Signal.LOWERED) lowered() {}
  @MessagePattern(Signal.DROPPED) dropped() {}
  @MessagePattern(Named.FIRST) first() {}
  @MessagePattern(Named.SECOND) second() {}
}
"""


def _channels() -> dict[int, str | None]:
    """Line of each handler -> the channel it consumes (``{Name}`` when it has no value)."""
    facts = analyze({"signal.controller.ts": HANDLERS})
    return {m.line: m.channel.literal() for m in facts.messages}


def test_implicit_members_count_from_zero_and_from_an_explicit_number():
    channels = _channels()
    assert [channels[9], channels[10], channels[11]] == ["0", "1", "8"]


def test_a_member_after_a_string_member_has_no_value():
    channels = _channels()
    assert channels[12] == "first"
    assert channels[13] == "{Named.SECOND}"  # unresolved: no number to count on from
