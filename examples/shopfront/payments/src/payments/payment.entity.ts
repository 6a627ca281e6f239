/** A payment attempt for one order, as stored in PostgreSQL. */
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type PaymentStatus = 'pending' | 'succeeded' | 'failed' | 'refunded';

@Entity('payments')
export class Payment {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'order_id' })
  orderId!: string;

  @Column({ name: 'amount_cents', type: 'bigint' })
  amountCents!: number;

  @Column({ length: 3 })
  currency!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: PaymentStatus;

  @Column({ name: 'stripe_payment_intent', nullable: true })
  stripePaymentIntent?: string;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
