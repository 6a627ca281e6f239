/** The only place that talks to Stripe (form-encoded REST, secret key from the environment). */
import { HttpService } from '@nestjs/axios';
import { Injectable } from '@nestjs/common';
import { firstValueFrom } from 'rxjs';
import { STRIPE_API_BASE } from '../constants';

interface StripePaymentIntent {
  id: string;
  status: 'succeeded' | 'requires_action' | 'requires_payment_method' | 'canceled';
}

interface StripeRefund {
  id: string;
  status: string;
}

@Injectable()
export class StripeGateway {
  private readonly headers = {
    Authorization: `Bearer ${process.env.STRIPE_SECRET_KEY ?? ''}`,
    'Content-Type': 'application/x-www-form-urlencoded',
  };

  constructor(private readonly http: HttpService) {}

  async createPaymentIntent(amountCents: number, currency: string, paymentMethod: string, orderId: string) {
    const form = new URLSearchParams({
      amount: String(amountCents),
      currency: currency.toLowerCase(),
      payment_method: paymentMethod,
      confirm: 'true',
      'metadata[order_id]': orderId,
    });
    const { data } = await firstValueFrom(
      this.http.post<StripePaymentIntent>(`${STRIPE_API_BASE}/v1/payment_intents`, form.toString(), { headers: this.headers }),
    );
    return data;
  }

  async refund(paymentIntentId: string, amountCents?: number) {
    const form = new URLSearchParams({ payment_intent: paymentIntentId });
    if (amountCents !== undefined) form.set('amount', String(amountCents));
    const { data } = await firstValueFrom(
      this.http.post<StripeRefund>(`${STRIPE_API_BASE}/v1/refunds`, form.toString(), { headers: this.headers }),
    );
    return data;
  }
}
