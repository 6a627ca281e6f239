import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { ORDER_EVENTS } from '../constants';
import { PaymentsService } from './payments.service';

@Controller()
export class PaymentEventsController {
  private readonly log = new Logger(PaymentEventsController.name);

  constructor(private readonly payments: PaymentsService) {}

  /** Refunds the payment of an order that was cancelled after it was paid. */
  @EventPattern(ORDER_EVENTS.CANCELLED)
  async onOrderCancelled(@Payload() event: { orderId: string }) {
    this.log.log(`order ${event.orderId} cancelled, refunding`);
    await this.payments.refundForOrder(event.orderId);
  }
}
