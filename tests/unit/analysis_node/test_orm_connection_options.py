"""The database an ORM connects to, read from its connection options wherever they are written:
`TypeOrmModule.forRoot({ type })`, a `forRootAsync` factory, `new DataSource({ type })`, Sequelize's
`{ dialect }`. The service's ORM entities are stored in that engine; two engines name none."""

from __future__ import annotations

from .support import analyze

GLAZE = {
    "src/glaze.entity.ts": """\
        import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

        @Entity('glazes')
        export class Glaze {
          @PrimaryGeneratedColumn() id: number;
          @Column() colour: string;
        }
        """,
}


def _engines(files: dict[str, str]) -> list[tuple[str, str | None]]:
    return sorted((e.name, e.engine_hint) for e in analyze({**GLAZE, **files}).entities)


def test_a_nest_forroot_async_factory_names_the_engine_of_the_entities() -> None:
    module = """\
        import { Module } from '@nestjs/common';
        import { ConfigService } from '@nestjs/config';
        import { TypeOrmModule } from '@nestjs/typeorm';

        @Module({
          imports: [
            TypeOrmModule.forRootAsync({
              inject: [ConfigService],
              useFactory: (config: ConfigService) => ({
                type: 'postgres',
                host: config.get('PGHOST'),
                autoLoadEntities: true,
              }),
            }),
          ],
        })
        export class AppModule {}
        """
    assert _engines({"src/app.module.ts": module}) == [("glazes", "postgres")]


def test_a_data_source_file_names_the_engine() -> None:
    source = """\
        import { DataSource } from 'typeorm';
        export const kilnSource = new DataSource({ type: 'mariadb', url: process.env.DB_URL, entities: [] });
        """
    assert _engines({"src/data-source.ts": source}) == [("glazes", "mariadb")]


def test_sequelize_options_name_the_dialect_of_its_models() -> None:
    files = {
        "src/db.js": """\
            const { Sequelize, DataTypes } = require('sequelize');
            const sequelize = new Sequelize({ dialect: 'mysql', host: 'db', database: 'pottery' });
            const Kiln = sequelize.define('Kiln', { heat: DataTypes.INTEGER });
            module.exports = { Kiln };
            """,
    }
    got = sorted((e.class_name, e.engine_hint) for e in analyze(files).entities)
    assert got == [("Kiln", "mysql")]


def test_two_engines_or_a_type_outside_connection_options_name_no_engine() -> None:
    two = """\
        import { DataSource } from 'typeorm';
        export const a = new DataSource({ type: 'postgres', host: 'pg' });
        export const b = new DataSource({ type: 'mysql', host: 'my' });
        """
    assert _engines({"src/sources.ts": two}) == [("glazes", None)]
    not_options = """\
        export const column = { type: 'postgres', label: 'not a connection' };
        """
    assert _engines({"src/ui.ts": not_options}) == [("glazes", None)]


def test_a_mongodb_connection_stores_the_entities_as_collections() -> None:
    module = """\
        import { DataSource } from 'typeorm';
        export const s = new DataSource({ type: 'mongodb', url: 'mongodb://m/x' });
        """
    got = analyze({**GLAZE, "src/s.ts": module}).entities
    assert [(e.name, e.kind, e.engine_hint) for e in got] == [("glazes", "document_collection", "mongodb")]
