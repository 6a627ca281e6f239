"""A Node package built once and deployed as several services, its shared ``lib/`` folder imported
by relative path (``../../lib/db/crate.entity``), through the real analyzers: each service reads the
shared files it imports, and an entity there is its own when it injects the ORM's repository."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

COMPOSE = """services:
  yard:
    build: {context: ., args: {START: main.js}}
  stacker:
    build: {context: ., args: {START: apps/stacker/src/main.js}}
  ledger:
    build: {context: ., args: {START: apps/ledger/src/main.js}}
"""

PACKAGE = {
    "package.json": '{"name": "yard", "dependencies": {"@nestjs/typeorm": "^11", "typeorm": "^0.3", "pg": "^8"}}',
    "Dockerfile": "FROM node:20\nARG START\nCMD node dist/$START\n",
    "docker-compose.yml": COMPOSE,
    "src/lib/db/crate.entity.ts": """\
import { Entity, PrimaryGeneratedColumn, Column, ManyToOne } from 'typeorm';
import { Bay } from './bay.entity';

@Entity('crate_record')
export class Crate {
  @PrimaryGeneratedColumn() id: number;
  @Column() label: string;
  @ManyToOne(() => Bay) bay: Bay;
}
""",
    "src/lib/db/bay.entity.ts": """\
import { Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('bay')
export class Bay {
  @PrimaryGeneratedColumn() id: number;
}
""",
    "src/lib/db/source.ts": """\
import { TypeOrmModule } from '@nestjs/typeorm';
export const dbModule = TypeOrmModule.forRoot({ type: 'postgres', url: process.env.DB_URL });
""",
    "src/lib/patterns.ts": """\
export enum Pattern {
  CRATE_STORED,
  CRATE_MOVED,
  LEDGER_POSTED = 10,
  LEDGER_CLOSED,
}
""",
    "src/main.ts": """\
import { NestFactory } from '@nestjs/core';
import { YardModule } from './yard/yard.module';
async function bootstrap() {
  const app = await NestFactory.create(YardModule);
  await app.listen(3000);
}
bootstrap();
""",
    "src/yard/yard.module.ts": """\
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsModule, Transport } from '@nestjs/microservices';
import { Crate } from '../lib/db/crate.entity';
import { dbModule } from '../lib/db/source';
import { YardController } from './yard.controller';

@Module({
  imports: [dbModule, TypeOrmModule.forFeature([Crate]),
    ClientsModule.register([{ name: 'STACKER', transport: Transport.RMQ, options: { queue: 'stacker_q' } }])],
  controllers: [YardController],
})
export class YardModule {}
""",
    "src/yard/yard.controller.ts": """\
import { Controller, Post, Inject } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Crate } from '../lib/db/crate.entity';
import { Pattern } from '../lib/patterns';

@Controller('crates')
export class YardController {
  constructor(
    @InjectRepository(Crate) private readonly crates: Repository<Crate>,
    @Inject('STACKER') private readonly stacker: ClientProxy,
  ) {}

  @Post()
  async store() {
    const crate = await this.crates.save({ label: 'x' });
    this.stacker.emit(Pattern.CRATE_STORED, crate);
    this.stacker.emit(Pattern.LEDGER_CLOSED, crate);
  }
}
""",
    "src/apps/stacker/src/main.ts": """\
import { NestFactory } from '@nestjs/core';
import { Transport } from '@nestjs/microservices';
import { StackerModule } from './stacker.module';
async function bootstrap() {
  const app = await NestFactory.createMicroservice(StackerModule, { transport: Transport.RMQ, options: { queue: 'stacker_q' } });
  await app.listen();
}
bootstrap();
""",
    "src/apps/stacker/src/stacker.module.ts": """\
import { Module } from '@nestjs/common';
import { StackerController } from './stacker.controller';
@Module({ controllers: [StackerController] })
export class StackerModule {}
""",
    "src/apps/stacker/src/stacker.controller.ts": """\
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { Crate } from '../../../lib/db/crate.entity';
import { Pattern } from '../../../lib/patterns';

@Controller()
export class StackerController {
  @EventPattern(Pattern.CRATE_STORED)
  stored(crate: Crate) {
    return crate.label;
  }
}
""",
    "src/apps/ledger/src/main.ts": """\
import { NestFactory } from '@nestjs/core';
import { LedgerModule } from './ledger.module';
async function bootstrap() {
  const app = await NestFactory.create(LedgerModule);
  await app.listen(3001);
}
bootstrap();
""",
    "src/apps/ledger/src/ledger.module.ts": """\
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Bay } from '../../../lib/db/bay.entity';
import { dbModule } from '../../../lib/db/source';
@Module({ imports: [dbModule, TypeOrmModule.forFeature([Bay])] })
export class LedgerModule {}
""",
}


def run(files: dict[str, str]) -> Run:
    tree = MemorySourceTree(files, commit="c0ffee")
    return Run(StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("yard"), DictCache()))


def _entities(result: Run, name: str) -> list[tuple[str | None, str]]:
    return sorted((e.class_name, e.name) for e in result.service(name).entities)


def test_each_deployment_of_one_package_is_a_service_rooted_at_its_entry():
    result = run(PACKAGE)
    assert result.names() == ["ledger", "stacker", "yard"]
    assert result.service("stacker").service.root_dir == "src/apps/stacker"
    assert result.service("ledger").service.root_dir == "src/apps/ledger"


def test_entities_of_a_shared_folder_are_stored_by_the_services_injecting_their_repositories():
    result = run(PACKAGE)
    # yard injects Crate's repository; Bay comes with it through Crate's relation
    assert ("Crate", "crate_record") in _entities(result, "yard")
    # ledger registers Bay with forFeature: a module of the ORM's Nest package
    assert _entities(result, "ledger") == [("Bay", "bay")]


def test_a_service_using_a_shared_entity_as_a_type_only_stores_nothing():
    result = run(PACKAGE)
    assert _entities(result, "stacker") == []


def test_without_relative_imports_the_shared_folder_is_not_read():
    files = dict(PACKAGE)
    files["src/apps/ledger/src/ledger.module.ts"] = (
        "import { Module } from '@nestjs/common';\n@Module({})\nexport class LedgerModule {}\n"
    )
    assert _entities(run(files), "ledger") == []


def test_members_of_a_numeric_enum_without_initialiser_count_on_from_the_one_before():
    result = run(PACKAGE)
    sent = sorted(m.channel for m in result.service("yard").messages if m.direction.value == "publishes")
    assert sent == ["0", "11", "stacker_q", "stacker_q"]  # and the RMQ client's queue at each emit
    got = sorted(m.channel for m in result.service("stacker").messages if m.direction.value == "consumes")
    assert got == ["0", "stacker_q"]
