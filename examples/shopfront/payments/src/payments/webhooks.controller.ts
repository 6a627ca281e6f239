import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { PaymentsService } from './payments.service';

interface StripeEvent {
  type: string;
  data: { object: { id: string } };
}

@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly payments: PaymentsService) {}

  /**
   * Receives Stripe webhooks. A payment intent that succeeds after 3-D Secure completes the
   * payment here rather than in the authorize call.
   */
  @Post('stripe')
  @HttpCode(200)
  async handleStripe(@Headers('stripe-signature') signature: string, @Body() event: StripeEvent) {
    if (!signature) return { received: false };
    if (event.type === 'payment_intent.succeeded') {
      const payment = await this.payments.findByIntent(event.data.object.id);
      if (payment && payment.status !== 'succeeded') this.payments.markCompleted(payment);
    }
    return { received: true };
  }
}
