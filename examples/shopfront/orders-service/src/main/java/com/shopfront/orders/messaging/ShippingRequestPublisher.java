package com.shopfront.orders.messaging;

import com.shopfront.orders.domain.Order;
import java.util.List;
import java.util.Map;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.stereotype.Component;

/** Hands paid orders to the shipping service through its RabbitMQ work queue. */
@Component
public class ShippingRequestPublisher {

    static final String SHIPPING_REQUESTS_QUEUE = "shipping.requests";

    private final RabbitTemplate rabbit;

    public ShippingRequestPublisher(RabbitTemplate rabbit) {
        this.rabbit = rabbit;
    }

    public void requestShipment(Order order) {
        List<Map<String, Object>> items = order.getLines().stream()
            .map(l -> Map.<String, Object>of("sku", l.getSku(), "quantity", l.getQuantity()))
            .toList();
        rabbit.convertAndSend(SHIPPING_REQUESTS_QUEUE, Map.of("orderId", order.getId(), "customerId", order.getCustomerId(), "items", items));
    }
}
