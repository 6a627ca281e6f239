package com.shopfront.orders.clients;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestTemplate;

/** Reads current prices from the catalog so an order never trusts the cart's prices. */
@Component
public class CatalogClient {

    public record ProductView(Long id, String sku, long price_cents, String currency) {
    }

    private final RestTemplate rest;
    private final String baseUrl;

    public CatalogClient(RestTemplateBuilder builder, @Value("${clients.catalog.url}") String baseUrl) {
        this.rest = builder.build();
        this.baseUrl = baseUrl;
    }

    public ProductView product(long productId) {
        return rest.getForObject(baseUrl + "/api/v1/catalog/products/{id}", ProductView.class, productId);
    }
}
