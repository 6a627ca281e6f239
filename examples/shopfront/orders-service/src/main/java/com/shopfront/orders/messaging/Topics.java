package com.shopfront.orders.messaging;

/** Kafka topics the orders service writes and reads. */
public final class Topics {
    public static final String ORDER_CREATED = "orders.created";
    public static final String ORDER_CANCELLED = "orders.cancelled";
    public static final String PAYMENT_COMPLETED = "payments.completed";

    private Topics() {
    }
}
