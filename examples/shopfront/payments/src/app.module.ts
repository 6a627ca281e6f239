/** Root module: HTTP client, TypeORM (PostgreSQL) and the Kafka producer. */
import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { ClientsModule, Transport } from '@nestjs/microservices';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KAFKA_CLIENT, kafkaBrokers } from './constants';
import { HealthController } from './health/health.controller';
import { OrdersClient } from './orders/orders.client';
import { Payment } from './payments/payment.entity';
import { PaymentEventsController } from './payments/payment-events.controller';
import { PaymentsController } from './payments/payments.controller';
import { PaymentsService } from './payments/payments.service';
import { StripeGateway } from './payments/stripe.gateway';
import { WebhooksController } from './payments/webhooks.controller';

@Module({
  imports: [
    HttpModule.register({ timeout: 5000 }),
    TypeOrmModule.forRoot({
      type: 'postgres',
      url: process.env.DATABASE_URL,
      entities: [Payment],
      synchronize: false,
    }),
    TypeOrmModule.forFeature([Payment]),
    ClientsModule.register([
      {
        name: KAFKA_CLIENT,
        transport: Transport.KAFKA,
        options: { client: { clientId: 'payments-producer', brokers: kafkaBrokers() } },
      },
    ]),
  ],
  controllers: [PaymentsController, WebhooksController, PaymentEventsController, HealthController],
  providers: [PaymentsService, StripeGateway, OrdersClient],
})
export class AppModule {}
