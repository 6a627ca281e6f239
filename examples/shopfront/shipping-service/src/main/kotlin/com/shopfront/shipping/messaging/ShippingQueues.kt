package com.shopfront.shipping.messaging

/** RabbitMQ queues (default exchange, routing key = queue name). */
object ShippingQueues {
    const val REQUESTS = "shipping.requests"
    const val EMAIL = "notifications.email"
}
