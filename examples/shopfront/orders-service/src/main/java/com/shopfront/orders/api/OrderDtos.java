package com.shopfront.orders.api;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.time.Instant;
import java.util.List;

/** Request and response bodies of the orders API. */
public final class OrderDtos {

    private OrderDtos() {
    }

    public record LineRequest(@NotNull Long productId, @NotBlank String sku, @Min(1) int quantity, @Min(1) long priceCents) {
    }

    public record CreateOrderRequest(@NotNull Long customerId, @NotBlank String paymentMethodId,
                                     @NotEmpty List<@Valid LineRequest> lines) {
    }

    public record OrderLineView(String sku, int quantity, long priceCents) {
    }

    public record OrderView(Long id, Long customerId, String status, long totalCents, String currency,
                            String paymentId, Instant createdAt) {
    }

    public record StatusChange(@NotBlank String status, String reason) {
    }
}
