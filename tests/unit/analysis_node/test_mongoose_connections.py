"""A NestJS ``@Schema()`` class is a collection only when the service talks to MongoDB through
Mongoose: a connection (``MongooseModule.forRoot``, ``mongoose.connect``), a registered model
(``forFeature``, ``model(...)``) or an injected one (``@InjectModel``). A schema class in a service
that does none of these is a type."""

from __future__ import annotations

from .support import analyze

SCHEMA = """\
    import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
    import { HydratedDocument } from 'mongoose';

    export type ParcelDocument = HydratedDocument<Parcel>;

    @Schema()
    export class Parcel {
      @Prop({ required: true })
      weight: number;
    }
    export const ParcelSchema = SchemaFactory.createForClass(Parcel);
    """


def collections(files: dict[str, str]) -> list[str]:
    return sorted(e.name for e in analyze(files).entities)


def test_a_schema_class_of_a_service_that_never_connects_is_a_type():
    controller = """\
        import { Controller, Get } from '@nestjs/common';
        @Controller('parcels')
        export class ParcelController { @Get() all() { return []; } }
        """
    assert collections({"src/parcel.schema.ts": SCHEMA, "src/parcel.controller.ts": controller}) == []


def test_nest_module_connection_keeps_the_schema():
    module = """\
        import { Module } from '@nestjs/common';
        import { MongooseModule } from '@nestjs/mongoose';
        @Module({ imports: [MongooseModule.forRoot('mongodb://depot-db:27017/depot')] })
        export class DepotModule {}
        """
    assert collections({"src/parcel.schema.ts": SCHEMA, "src/depot.module.ts": module}) == ["parcels"]


def test_an_injected_model_keeps_the_schema():
    service = """\
        import { Injectable } from '@nestjs/common';
        import { InjectModel } from '@nestjs/mongoose';
        import { Model } from 'mongoose';
        import { Parcel } from './parcel.schema';
        @Injectable()
        export class ParcelService {
          constructor(@InjectModel(Parcel.name) private parcels: Model<Parcel>) {}
        }
        """
    assert collections({"src/parcel.schema.ts": SCHEMA, "src/parcel.service.ts": service}) == ["parcels"]


def test_a_plain_mongoose_connect_keeps_the_schema():
    main = """\
        import mongoose from 'mongoose';
        export async function start() { await mongoose.connect(process.env.MONGO_URL); }
        """
    assert collections({"src/parcel.schema.ts": SCHEMA, "src/main.ts": main}) == ["parcels"]
