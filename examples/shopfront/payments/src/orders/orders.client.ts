/** Reads orders from the orders service, so amounts are never taken from the caller on trust. */
import { HttpService } from '@nestjs/axios';
import { Injectable } from '@nestjs/common';
import { firstValueFrom } from 'rxjs';

const ORDERS_BASE_URL = process.env.ORDERS_SERVICE_URL ?? 'http://localhost:8080';

export interface OrderSummary {
  id: string;
  status: string;
  totalCents: number;
  currency: string;
}

@Injectable()
export class OrdersClient {
  constructor(private readonly http: HttpService) {}

  async getOrder(orderId: string): Promise<OrderSummary> {
    const res = await firstValueFrom(this.http.get<OrderSummary>(`${ORDERS_BASE_URL}/api/orders/${orderId}`));
    return res.data;
  }
}
