import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { AuthorizePaymentDto, PaymentsService } from './payments.service';

@Controller('payments')
export class PaymentsController {
  constructor(private readonly payments: PaymentsService) {}

  /**
   * Authorizes the payment of an order: checks the amount with the orders service, then charges
   * the card through Stripe. Called synchronously by orders at checkout.
   */
  @Post()
  @HttpCode(201)
  authorize(@Body() dto: AuthorizePaymentDto) {
    return this.payments.authorize(dto);
  }

  /** Returns one payment and its Stripe status. */
  @Get(':id')
  findOne(@Param('id', ParseUUIDPipe) id: string) {
    return this.payments.findOne(id);
  }

  /** Refunds a captured payment, fully or partially. Used by the back office. */
  @Post(':id/refund')
  @HttpCode(200)
  refund(@Param('id', ParseUUIDPipe) id: string, @Body() body: { amountCents?: number }) {
    return this.payments.refund(id, body.amountCents);
  }
}
