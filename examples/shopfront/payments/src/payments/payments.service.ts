/** Payment use cases: authorize, look up, refund. */
import { Inject, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { KAFKA_CLIENT, PAYMENT_EVENTS } from '../constants';
import { OrdersClient } from '../orders/orders.client';
import { Payment } from './payment.entity';
import { StripeGateway } from './stripe.gateway';

export interface AuthorizePaymentDto {
  orderId: string;
  paymentMethodId: string;
}

@Injectable()
export class PaymentsService {
  constructor(
    @InjectRepository(Payment) private readonly payments: Repository<Payment>,
    @Inject(KAFKA_CLIENT) private readonly events: ClientKafka,
    private readonly stripe: StripeGateway,
    private readonly orders: OrdersClient,
  ) {}

  async authorize(dto: AuthorizePaymentDto): Promise<Payment> {
    const order = await this.orders.getOrder(dto.orderId);
    if (order.status !== 'PENDING_PAYMENT') {
      throw new UnprocessableEntityException(`order ${order.id} is ${order.status}`);
    }
    const intent = await this.stripe.createPaymentIntent(order.totalCents, order.currency, dto.paymentMethodId, order.id);
    const payment = await this.payments.save(
      this.payments.create({
        orderId: order.id,
        amountCents: order.totalCents,
        currency: order.currency,
        status: intent.status === 'succeeded' ? 'succeeded' : 'pending',
        stripePaymentIntent: intent.id,
      }),
    );
    if (payment.status === 'succeeded') this.markCompleted(payment);
    return payment;
  }

  markCompleted(payment: Payment): void {
    this.events.emit(PAYMENT_EVENTS.COMPLETED, { orderId: payment.orderId, paymentId: payment.id, amountCents: payment.amountCents });
  }

  async findOne(id: string): Promise<Payment> {
    const payment = await this.payments.findOneBy({ id });
    if (!payment) throw new NotFoundException();
    return payment;
  }

  async findByIntent(intentId: string): Promise<Payment | null> {
    return this.payments.findOneBy({ stripePaymentIntent: intentId });
  }

  async refund(id: string, amountCents?: number): Promise<Payment> {
    const payment = await this.findOne(id);
    await this.stripe.refund(payment.stripePaymentIntent!, amountCents);
    payment.status = 'refunded';
    return this.payments.save(payment);
  }

  async refundForOrder(orderId: string): Promise<void> {
    const payment = await this.payments.findOneBy({ orderId, status: 'succeeded' });
    if (payment) await this.refund(payment.id);
  }
}
