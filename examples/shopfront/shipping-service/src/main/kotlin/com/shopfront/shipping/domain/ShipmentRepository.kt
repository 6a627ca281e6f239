package com.shopfront.shipping.domain

import org.springframework.data.mongodb.repository.MongoRepository

interface ShipmentRepository : MongoRepository<Shipment, String> {
    fun findByOrderId(orderId: Long): Shipment?
}
