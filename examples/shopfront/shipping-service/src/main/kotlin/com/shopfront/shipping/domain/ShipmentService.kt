package com.shopfront.shipping.domain

import com.shopfront.shipping.clients.AccountsClient
import com.shopfront.shipping.messaging.NotificationPublisher
import org.springframework.http.HttpStatus
import org.springframework.stereotype.Service
import org.springframework.web.server.ResponseStatusException
import java.time.Instant
import java.util.UUID

@Service
class ShipmentService(
    private val repository: ShipmentRepository,
    private val accounts: AccountsClient,
    private val notifications: NotificationPublisher,
) {
    fun book(orderId: Long, customerId: Long): Shipment {
        repository.findByOrderId(orderId)?.let { return it }
        val address = accounts.firstAddress(customerId)
            ?: throw IllegalStateException("customer $customerId has no address")
        val shipment = repository.save(
            Shipment(
                orderId = orderId,
                customerId = customerId,
                carrier = if (address.country == "DE") "DHL" else "UPS",
                trackingNumber = UUID.randomUUID().toString().take(12).uppercase(),
                address = mapOf("line1" to address.line1, "city" to address.city, "postcode" to address.postcode),
            ),
        )
        notifications.shipped(customerId, orderId, shipment.trackingNumber)
        return shipment
    }

    fun get(id: String): Shipment =
        repository.findById(id).orElseThrow { ResponseStatusException(HttpStatus.NOT_FOUND, "shipment $id") }

    fun addEvent(id: String, event: TrackingEvent): Shipment {
        val shipment = get(id)
        return repository.save(shipment.copy(events = shipment.events + event, status = "IN_TRANSIT"))
    }

    fun now(): Instant = Instant.now()
}
