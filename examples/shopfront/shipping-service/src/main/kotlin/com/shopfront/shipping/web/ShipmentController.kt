package com.shopfront.shipping.web

import com.shopfront.shipping.domain.Shipment
import com.shopfront.shipping.domain.ShipmentService
import com.shopfront.shipping.domain.TrackingEvent
import org.springframework.http.HttpStatus
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.ResponseStatus
import org.springframework.web.bind.annotation.RestController

data class CarrierScan(val location: String, val description: String)

@RestController
@RequestMapping("/api/shipments")
class ShipmentController(private val shipments: ShipmentService) {

    /**
     * Returns one shipment with its carrier, tracking number and status.
     */
    @GetMapping("/{id}")
    fun get(@PathVariable id: String): Shipment = shipments.get(id)

    /**
     * Returns the tracking history of a shipment, oldest event first.
     */
    @GetMapping("/{id}/tracking")
    fun tracking(@PathVariable id: String): List<TrackingEvent> = shipments.get(id).events.sortedBy { it.at }

    /**
     * Records a carrier scan, posted by the carrier webhook relay.
     */
    @PostMapping("/{id}/events")
    @ResponseStatus(HttpStatus.CREATED)
    fun addEvent(@PathVariable id: String, @RequestBody scan: CarrierScan): Shipment =
        shipments.addEvent(id, TrackingEvent(shipments.now(), scan.location, scan.description))
}
