package com.shopfront.shipping.clients

import org.springframework.beans.factory.annotation.Value
import org.springframework.core.ParameterizedTypeReference
import org.springframework.stereotype.Component
import org.springframework.web.client.RestClient

data class AddressDto(val id: Long, val line1: String, val city: String, val postcode: String, val country: String)

/** Reads delivery addresses from the accounts service. */
@Component
class AccountsClient(@Value("\${accounts.base-url}") baseUrl: String) {

    private val rest: RestClient = RestClient.builder().baseUrl(baseUrl).build()

    fun firstAddress(customerId: Long): AddressDto? =
        rest.get().uri("/api/users/{id}/addresses", customerId)
            .retrieve()
            .body(object : ParameterizedTypeReference<List<AddressDto>>() {})
            ?.firstOrNull()
}
