"""Mongoose (pluralized collections), TypeORM (snake_case tables), Sequelize, Prisma."""

from __future__ import annotations

from .support import analyze

FILES = {
    "models/order.js": """\
        const mongoose = require('mongoose');
        const { Schema } = mongoose;

        const orderSchema = new Schema({
          customerId: { type: String, required: true },
          total: Number,
          items: [{ sku: String, qty: Number }],
        }, { timestamps: true });

        module.exports = mongoose.model('Order', orderSchema);
        """,
    "models/people.ts": """\
        import { model, Schema } from 'mongoose';

        export const Person = model<IPerson>('Person', new Schema({ name: String }));
        export const Audit = model('Audit', new Schema({ at: Date }), 'audit_log');
        const catSchema = new Schema({ name: String }, { collection: 'cats_v2' });
        export const Cat = model('Cat', catSchema);
        """,
    "src/orders/order-item.entity.ts": """\
        import { Column, Entity, PrimaryGeneratedColumn, ManyToOne } from 'typeorm';

        @Entity()
        export class OrderItem {
          @PrimaryGeneratedColumn('uuid')
          id: string;

          @Column({ nullable: true })
          note: string;

          @Column()
          quantity: number;

          @ManyToOne(() => Order, (o) => o.items)
          order: Order;
        }

        @Entity({ name: 'customer_orders' })
        export class Order {
          @PrimaryGeneratedColumn()
          id: number;
        }
        """,
    "src/cats/cat.schema.ts": """\
        import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

        @Schema()
        export class Kitten {
          @Prop({ required: true })
          name: string;

          @Prop()
          age?: number;
        }
        export const KittenSchema = SchemaFactory.createForClass(Kitten);
        """,
    "db/models.js": """\
        const { DataTypes, Model } = require('sequelize');
        module.exports = (sequelize) => {
          sequelize.define('Invoice', {
            id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
            amount: { type: DataTypes.DECIMAL, allowNull: false },
            memo: DataTypes.STRING,
          });
          class Refund extends Model {}
          Refund.init({ reason: DataTypes.TEXT }, { sequelize, tableName: 'refunds_tbl' });
        };
        """,
    "prisma/schema.prisma": """\
        datasource db {
          provider = "postgresql"
          url      = env("DATABASE_URL")
        }

        model User {
          id    Int     @id @default(autoincrement())
          email String  @unique
          name  String?
          posts Post[]

          @@map("users")
        }

        model Post {
          id       Int  @id
          author   User @relation(fields: [authorId], references: [id])
          authorId Int
        }
        """,
}


def test_entities_exact() -> None:
    facts = analyze(FILES)
    got = sorted(
        (e.name, e.kind, e.class_name, e.framework, e.engine_hint, e.file, e.start_line)
        for e in facts.entities
    )
    assert got == [
        ("Invoices", "sql_table", "Invoice", "sequelize", None, "db/models.js", 3),
        ("Post", "sql_table", "Post", "prisma", "postgres", "prisma/schema.prisma", 15),
        ("audit_log", "document_collection", "Audit", "mongoose", "mongodb", "models/people.ts", 4),
        ("cats_v2", "document_collection", "Cat", "mongoose", "mongodb", "models/people.ts", 6),
        ("customer_orders", "sql_table", "Order", "typeorm", None, "src/orders/order-item.entity.ts", 19),
        ("kittens", "document_collection", "Kitten", "mongoose", "mongodb", "src/cats/cat.schema.ts", 4),
        ("order_item", "sql_table", "OrderItem", "typeorm", None, "src/orders/order-item.entity.ts", 4),
        ("orders", "document_collection", "Order", "mongoose", "mongodb", "models/order.js", 10),
        ("people", "document_collection", "Person", "mongoose", "mongodb", "models/people.ts", 3),
        ("refunds_tbl", "sql_table", "Refund", "sequelize", None, "db/models.js", 9),
        ("users", "sql_table", "User", "prisma", "postgres", "prisma/schema.prisma", 6),
    ]


def test_entity_fields() -> None:
    facts = analyze(FILES)
    fields = {e.name: e.fields for e in facts.entities}
    assert fields["order_item"] == (
        ("id", "string", False, True),
        ("note", "string", True, False),
        ("order", "Order", False, False),
        ("quantity", "number", False, False),
    )
    assert fields["orders"] == (
        ("customerId", "String", False, False),
        ("items", "[Object]", None, False),
        ("total", "Number", None, False),
    )
    assert fields["kittens"] == (("age", "number", True, False), ("name", "string", False, False))
    assert fields["Invoices"] == (
        ("amount", "DECIMAL", False, False),
        ("id", "INTEGER", False, True),
        ("memo", "STRING", None, False),
    )
    assert fields["users"] == (
        ("email", "String", False, False),
        ("id", "Int", False, True),
        ("name", "String", True, False),
    )
