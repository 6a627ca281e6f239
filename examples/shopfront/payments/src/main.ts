/** Bootstraps the HTTP API (prefix /api) and the Kafka consumer of order events. */
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { AppModule } from './app.module';
import { kafkaBrokers } from './constants';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  app.connectMicroservice<MicroserviceOptions>({
    transport: Transport.KAFKA,
    options: { client: { clientId: 'payments', brokers: kafkaBrokers() }, consumer: { groupId: 'payments' } },
  });
  await app.startAllMicroservices();
  await app.listen(Number(process.env.PORT ?? 3000));
}

bootstrap();
