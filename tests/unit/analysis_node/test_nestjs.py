"""NestJS: controllers with prefixes and a global prefix, injected clients, microservices, gRPC."""

from __future__ import annotations

from .support import analyze, parse_all, url

NEST = {
    "src/main.ts": """\
        import { NestFactory } from '@nestjs/core';
        import { Transport } from '@nestjs/microservices';
        import { AppModule } from './app.module';

        async function bootstrap() {
          const app = await NestFactory.create(AppModule);
          app.setGlobalPrefix('api');
          app.connectMicroservice({ transport: Transport.KAFKA, options: {} });
          await app.listen(3000);
        }
        bootstrap();
        """,
    "src/app.module.ts": """\
        import { Module } from '@nestjs/common';
        import { ClientsModule, Transport } from '@nestjs/microservices';
        import { NOTIFY_CLIENT } from './constants';

        @Module({
          imports: [
            ClientsModule.register([
              { name: NOTIFY_CLIENT, transport: Transport.RMQ, options: { queue: 'notifications' } },
            ]),
          ],
        })
        export class AppModule {}
        """,
    "src/constants.ts": """\
        export const NOTIFY_CLIENT = 'NOTIFY';
        export const ORDER_CREATED = 'order.created';
        """,
    "src/orders/orders.controller.ts": """\
        import { Body, Controller, Delete, Get, Param, Post, UseGuards } from '@nestjs/common';
        import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
        import { OrdersService } from './orders.service';

        /** Orders REST API. */
        @Controller('orders')
        export class OrdersController {
          constructor(private readonly ordersService: OrdersService) {}

          @Get()
          findAll() {
            return this.ordersService.findAll();
          }

          /**
           * Create an order and reserve stock.
           */
          @Post()
          @UseGuards(AuthGuard)
          async create(@Body() dto: CreateOrderDto) {
            return this.ordersService.create(dto);
          }

          @Get(':id')
          findOne(@Param('id') id: string) {
            return this.ordersService.findOne(id);
          }

          @Delete(':id')
          remove(@Param('id') id: string) {}

          @EventPattern('payment.completed')
          onPaid(@Payload() event: PaymentEvent) {}

          @MessagePattern({ cmd: 'get_order' })
          getOrder(data: { id: string }) {}
        }
        """,
    "src/orders/orders.service.ts": """\
        import { HttpService } from '@nestjs/axios';
        import { Inject, Injectable } from '@nestjs/common';
        import { ConfigService } from '@nestjs/config';
        import { ClientProxy } from '@nestjs/microservices';
        import { firstValueFrom } from 'rxjs';
        import { NOTIFY_CLIENT, ORDER_CREATED } from '../constants';

        @Injectable()
        export class OrdersService {
          constructor(
            private readonly http: HttpService,
            private readonly config: ConfigService,
            @Inject(NOTIFY_CLIENT) private readonly notify: ClientProxy,
          ) {}

          async create(dto: CreateOrderDto) {
            const base = this.config.get<string>('INVENTORY_URL');
            await firstValueFrom(this.http.post(`${base}/reservations`, dto));
            this.notify.emit(ORDER_CREATED, dto);
            return dto;
          }

          findAll() {
            return [];
          }

          async findOne(id: string) {
            const { data } = await firstValueFrom(this.http.get(`http://catalog:3000/items/${id}`));
            return data;
          }
        }
        """,
    "src/users/users.controller.ts": """\
        import { Controller, Get, Patch } from '@nestjs/common';

        @Controller({ path: 'users', version: '1' })
        export class UsersController {
          @Get(['me', 'profile'])
          me() {}

          @Patch('me/')
          update() {}
        }
        """,
    "src/payments/payments.gateway.ts": """\
        import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
        import { ClientGrpc, GrpcMethod } from '@nestjs/microservices';

        @Injectable()
        export class PaymentsGateway implements OnModuleInit {
          private payments: PaymentServiceClient;

          constructor(@Inject('PAYMENT_PACKAGE') private readonly client: ClientGrpc) {}

          onModuleInit() {
            this.payments = this.client.getService<PaymentServiceClient>('PaymentService');
          }
        }

        @Controller()
        export class RefundsGrpcController {
          @GrpcMethod('RefundService', 'Issue')
          issue(data: IssueRefund) {}
        }
        """,
}


def test_nest_http_routes_compose_global_and_controller_prefixes() -> None:
    facts = analyze(NEST)
    got = sorted((a.kind, a.method, a.path, a.handler, a.file, a.start_line, a.component) for a in facts.apis)
    ctrl = "src/orders/orders.controller.ts"
    users = "src/users/users.controller.ts"
    assert got == [
        (
            "grpc",
            "RPC",
            "RefundService/Issue",
            "RefundsGrpcController.issue",
            "src/payments/payments.gateway.ts",
            17,
            "RefundsGrpcController",
        ),
        ("http", "DELETE", "/api/orders/:id", "OrdersController.remove", ctrl, 29, "OrdersController"),
        ("http", "GET", "/api/orders", "OrdersController.findAll", ctrl, 10, "OrdersController"),
        ("http", "GET", "/api/orders/:id", "OrdersController.findOne", ctrl, 24, "OrdersController"),
        ("http", "GET", "/api/users/me", "UsersController.me", users, 5, "UsersController"),
        ("http", "GET", "/api/users/profile", "UsersController.me", users, 5, "UsersController"),
        ("http", "PATCH", "/api/users/me", "UsersController.update", users, 8, "UsersController"),
        ("http", "POST", "/api/orders", "OrdersController.create", ctrl, 18, "OrdersController"),
        ("message", "CONSUME", "payment.completed", "OrdersController.onPaid", ctrl, 32, "OrdersController"),
        (
            "message",
            "CONSUME",
            '{"cmd":"get_order"}',
            "OrdersController.getOrder",
            ctrl,
            35,
            "OrdersController",
        ),
    ]
    create = next(a for a in facts.apis if a.handler == "OrdersController.create")
    assert create.doc == "Create an order and reserve stock."
    assert {a.provider for a in facts.apis if a.kind == "message"} == {"kafka"}
    assert facts.framework == "nestjs"
    assert facts.grpc_implements == ("RefundService",)


def test_nest_calls_reach_handlers_one_hop_into_injected_services() -> None:
    facts = analyze(NEST)
    got = sorted(
        (c.kind, c.line, c.client, c.method, url(c.url), c.grpc_service, c.api_handler, c.component)
        for c in facts.calls
    )
    assert got == [
        ("grpc", 11, "nestjs-grpc", None, None, "PaymentService", None, "PaymentsGateway"),
        (
            "http",
            18,
            "HttpService",
            "POST",
            "${INVENTORY_URL}/reservations",
            None,
            "OrdersController.create",
            "OrdersService",
        ),
        (
            "http",
            28,
            "HttpService",
            "GET",
            "http://catalog:3000/items/{?id}",
            None,
            "OrdersController.findOne",
            "OrdersService",
        ),
    ]


def test_nest_messages_resolve_provider_through_clients_module() -> None:
    facts = analyze(NEST)
    got = sorted(
        (m.direction, url(m.channel), m.provider, m.file, m.line, m.api_handler) for m in facts.messages
    )
    assert got == [
        (
            "consumes",
            "payment.completed",
            "kafka",
            "src/orders/orders.controller.ts",
            32,
            "OrdersController.onPaid",
        ),
        (
            "consumes",
            '{"cmd":"get_order"}',
            "kafka",
            "src/orders/orders.controller.ts",
            35,
            "OrdersController.getOrder",
        ),
        (  # the RMQ client's queue carries every message the client sends (rmq_queues)
            "publishes",
            "notifications",
            "rabbitmq",
            "src/orders/orders.service.ts",
            19,
            "OrdersController.create",
        ),
        (
            "publishes",
            "order.created",
            "rabbitmq",
            "src/orders/orders.service.ts",
            19,
            "OrdersController.create",
        ),
    ]


def test_nest_components_and_entrypoint() -> None:
    facts = analyze(NEST)
    assert sorted((c.name, c.kind) for c in facts.components) == [
        ("OrdersController", "class"),
        ("OrdersService", "class"),
        ("PaymentsGateway", "class"),
        ("RefundsGrpcController", "class"),
        ("UsersController", "class"),
    ]
    assert next(c.doc for c in facts.components if c.name == "OrdersController") == "Orders REST API."
    assert [p for p, d in parse_all(NEST).items() if d.get("entrypoint")] == ["src/main.ts"]
