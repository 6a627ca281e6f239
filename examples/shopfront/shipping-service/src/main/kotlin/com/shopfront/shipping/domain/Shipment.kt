package com.shopfront.shipping.domain

import org.springframework.data.annotation.Id
import org.springframework.data.mongodb.core.mapping.Document
import java.time.Instant

data class TrackingEvent(
    val at: Instant,
    val location: String,
    val description: String,
)

/** A parcel for one order; tracking events are embedded in the document. */
@Document(collection = "shipments")
data class Shipment(
    @Id val id: String? = null,
    val orderId: Long,
    val customerId: Long,
    val carrier: String,
    val trackingNumber: String,
    val status: String = "BOOKED",
    val address: Map<String, String> = emptyMap(),
    val events: List<TrackingEvent> = emptyList(),
    val createdAt: Instant = Instant.now(),
)
