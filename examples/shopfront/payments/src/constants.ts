/** Names shared across the payments modules: vendor endpoint, Kafka topics, injection tokens. */
export const STRIPE_API_BASE = 'https://api.stripe.com';

export const KAFKA_CLIENT = 'PAYMENTS_KAFKA_CLIENT';

export const PAYMENT_EVENTS = {
  COMPLETED: 'payments.completed',
} as const;

export const ORDER_EVENTS = {
  CANCELLED: 'orders.cancelled',
} as const;

export function kafkaBrokers(): string[] {
  return (process.env.KAFKA_BROKERS ?? 'localhost:9092').split(',');
}
