package com.shopfront.orders.domain;

public enum OrderStatus {
    PENDING_PAYMENT, PAID, SHIPPING, SHIPPED, CANCELLED
}
