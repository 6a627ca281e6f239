"""Library projects of a NestJS monorepo (``libs/common`` imported as ``@app/common``): what an app
imports from them is its own code — a guard's message, a schema it stores — and nothing else is."""

from __future__ import annotations

import textwrap

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.node import ANALYZER

from .support import url

LIB = {
    "libs/common/src/index.ts": """\
        export * from './auth/ticket.guard';
        export * from './models/member.schema';
        export * from './database/base.schema';
        export * from './constants';
        """,
    "libs/common/src/constants.ts": "export const LEDGER = 'ledger';\n",
    "libs/common/src/auth/ticket.guard.ts": """\
        import { Inject, Injectable } from '@nestjs/common';
        import { ClientProxy } from '@nestjs/microservices';
        import { LEDGER } from '../constants';

        @Injectable()
        export class TicketGuard {
          constructor(@Inject(LEDGER) private readonly ledger: ClientProxy) {}
          canActivate() {
            return this.ledger.send('verify_ticket', {});
          }
        }
        """,
    "libs/common/src/database/base.schema.ts": """\
        import { Prop, Schema } from '@nestjs/mongoose';
        @Schema()
        export class BaseDocument {
          @Prop() _id: string;
        }
        """,
    "libs/common/src/models/member.schema.ts": """\
        import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
        import { BaseDocument } from '../database/base.schema';
        @Schema()
        export class MemberDocument extends BaseDocument {
          @Prop() email: string;
        }
        export const MemberSchema = SchemaFactory.createForClass(MemberDocument);
        """,
}

BOOKINGS = {
    "apps/bookings/src/bookings.controller.ts": """\
        import { Controller, Get, UseGuards } from '@nestjs/common';
        import { TicketGuard } from '@app/common';

        @Controller('bookings')
        export class BookingsController {
          @UseGuards(TicketGuard)
          @Get()
          list() { return []; }
        }
        """,
}

MEMBERS = {
    "apps/members/src/members.repository.ts": """\
        import { InjectModel } from '@nestjs/mongoose';
        import { Model } from 'mongoose';
        import { MemberDocument, BaseDocument } from '@app/common';

        export class MembersRepository {
          constructor(@InjectModel(MemberDocument.name) private readonly model: Model<MemberDocument>) {}
        }
        """,
}

GATEWAY = {
    "apps/gateway/src/members.resolver.ts": """\
        import { MemberDocument } from '@app/common';
        export class MembersResolver {
          member(): MemberDocument | null { return null; }
        }
        """,
}


def _link(app: dict[str, str], root: str) -> LinkedFacts:
    files = {**app, **LIB}
    parsed = {p: ANALYZER.parse(p, textwrap.dedent(t)) for p, t in files.items()}
    ctx = ServiceContext("svc", root, "node-ts", "repo", context_files=tuple(sorted(LIB)))
    return ANALYZER.link(ctx, parsed)


def test_an_imported_guard_sends_its_message_for_the_app_that_uses_it() -> None:
    facts = _link(BOOKINGS, "apps/bookings")
    assert [(m.direction, url(m.channel), m.file) for m in facts.messages] == [
        ("publishes", "verify_ticket", "libs/common/src/auth/ticket.guard.ts")
    ]
    assert facts.entities == ()  # it imports no schema


def test_an_imported_schema_is_stored_by_the_app_that_talks_to_mongo_and_its_base_is_no_collection() -> None:
    facts = _link(MEMBERS, "apps/members")
    assert [(e.class_name, e.kind) for e in facts.entities] == [("MemberDocument", "document_collection")]
    assert facts.messages == ()  # the guard is not its code


def test_an_app_importing_a_schema_as_a_type_only_persists_nothing() -> None:
    assert _link(GATEWAY, "apps/gateway").entities == ()
