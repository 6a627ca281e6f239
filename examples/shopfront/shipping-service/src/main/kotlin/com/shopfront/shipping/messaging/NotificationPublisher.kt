package com.shopfront.shipping.messaging

import org.springframework.amqp.rabbit.core.RabbitTemplate
import org.springframework.stereotype.Component

/** Queues customer e-mails for the notifications service. */
@Component
class NotificationPublisher(private val rabbit: RabbitTemplate) {

    fun shipped(customerId: Long, orderId: Long, trackingNumber: String) {
        val message = mapOf(
            "template" to "order_shipped",
            "customerId" to customerId,
            "vars" to mapOf("orderId" to orderId, "trackingNumber" to trackingNumber),
        )
        rabbit.convertAndSend(ShippingQueues.EMAIL, message)
    }
}
