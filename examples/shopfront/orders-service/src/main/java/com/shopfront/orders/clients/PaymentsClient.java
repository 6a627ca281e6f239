package com.shopfront.orders.clients;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

/** The payments service (NestJS), declared as a Feign client. */
@FeignClient(name = "payments", url = "${clients.payments.url}")
public interface PaymentsClient {

    record AuthorizePaymentRequest(String orderId, String paymentMethodId) {
    }

    record PaymentResponse(String id, String orderId, String status, long amountCents) {
    }

    @PostMapping("/api/payments")
    PaymentResponse authorize(@RequestBody AuthorizePaymentRequest request);

    @GetMapping("/api/payments/{id}")
    PaymentResponse get(@PathVariable("id") String paymentId);
}
