package com.shopfront.shipping.messaging

import com.shopfront.shipping.domain.ShipmentService
import org.slf4j.LoggerFactory
import org.springframework.amqp.rabbit.annotation.RabbitListener
import org.springframework.stereotype.Component

data class ShippingRequest(val orderId: Long, val customerId: Long, val items: List<Map<String, Any>> = emptyList())

@Component
class ShippingRequestListener(private val shipments: ShipmentService) {

    private val log = LoggerFactory.getLogger(javaClass)

    /**
     * Books a parcel for every paid order that the orders service hands over.
     */
    @RabbitListener(queues = [ShippingQueues.REQUESTS])
    fun onShippingRequest(request: ShippingRequest) {
        val shipment = shipments.book(request.orderId, request.customerId)
        log.info("order {} booked as {}", request.orderId, shipment.trackingNumber)
    }
}
