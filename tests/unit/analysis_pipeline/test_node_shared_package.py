"""An in-repository npm package (``shared/`` named ``@depot/events`` in its package.json) that Node
services depend on by name, through the real analyzers: its base classes and constants are read
as the services' own code, and it is no service of its own."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

SHARED = {
    "events/package.json": '{"name": "@depot/events", "main": "./build/index.js"}',
    "events/src/index.ts": "export * from './channels';\nexport * from './emitter';\n",
    "events/src/channels.ts": "export enum Channels {\n  CrateStored = 'crate:stored',\n}\n",
    "events/src/emitter.ts": """\
import { Stan } from 'node-nats-streaming';
export abstract class Emitter {
  abstract channel: string;
  constructor(private client: Stan) {}
  emit(data: unknown) {
    this.client.publish(this.channel, JSON.stringify(data));
  }
}
""",
}

SERVICE = {
    "racks/package.json": (
        '{"name": "racks", "scripts": {"start": "node build/index.js"},'
        ' "dependencies": {"@depot/events": "^1.0.0", "node-nats-streaming": "^0.2.6"}}'
    ),
    "racks/Dockerfile": "FROM node:20\n",
    "racks/src/index.ts": """\
import express from 'express';
import { CrateStoredEmitter } from './crate-stored';
const app = express();
app.post('/crates', (req, res) => { res.send(CrateStoredEmitter.name); });
app.listen(3000);
""",
    "racks/src/crate-stored.ts": """\
import { Emitter, Channels } from '@depot/events';
export class CrateStoredEmitter extends Emitter {
  channel = Channels.CrateStored;
}
""",
}


def run(files: dict[str, str]) -> Run:
    tree = MemorySourceTree(files, commit="c0ffee")
    return Run(StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("depot"), DictCache()))


def test_a_service_reads_the_package_it_depends_on_by_name():
    result = run({**SHARED, **SERVICE})
    assert result.names() == ["racks"]
    racks = result.service("racks")
    assert [(m.direction.value, m.channel, m.provider) for m in racks.messages] == [
        ("publishes", "crate:stored", "nats")
    ]


def test_without_the_dependency_the_package_is_not_read():
    service = dict(SERVICE)
    service["racks/package.json"] = '{"name": "racks", "scripts": {"start": "node build/index.js"}}'
    racks = run({**SHARED, **service}).service("racks")
    assert all(m.channel != "crate:stored" for m in racks.messages)
