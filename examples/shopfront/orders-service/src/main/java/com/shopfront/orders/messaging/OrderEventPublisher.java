package com.shopfront.orders.messaging;

import com.shopfront.orders.domain.Order;
import java.util.Map;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/** Publishes order lifecycle events, keyed by order id. */
@Component
public class OrderEventPublisher {

    private final KafkaTemplate<String, Object> kafka;

    public OrderEventPublisher(KafkaTemplate<String, Object> kafka) {
        this.kafka = kafka;
    }

    public void orderCreated(Order order) {
        Map<String, Object> event = Map.of("orderId", order.getId(), "customerId", order.getCustomerId(),
            "totalCents", order.getTotalCents());
        kafka.send(Topics.ORDER_CREATED, order.getId().toString(), event);
    }

    public void orderCancelled(Order order) {
        kafka.send(Topics.ORDER_CANCELLED, order.getId().toString(), Map.of("orderId", order.getId().toString()));
    }
}
