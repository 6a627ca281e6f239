package com.shopfront.orders.api;

import com.shopfront.orders.api.OrderDtos.OrderView;
import com.shopfront.orders.api.OrderDtos.StatusChange;
import com.shopfront.orders.service.OrderService;
import jakarta.validation.Valid;
import java.time.Duration;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Operator endpoints, not routed by the public gateway. */
@RestController
@RequestMapping(path = ApiPaths.ADMIN_ORDERS)
public class AdminOrderController {

    private final OrderService orders;

    public AdminOrderController(OrderService orders) {
        this.orders = orders;
    }

    /**
     * Forces the status of an order (e.g. after a manual carrier claim). Logged with the reason.
     */
    @PutMapping(path = "/{id}/status")
    public OrderView changeStatus(@PathVariable("id") long id, @Valid @RequestBody StatusChange change) {
        return orders.forceStatus(id, change.status(), change.reason());
    }

    /**
     * Orders stuck waiting for payment for more than an hour.
     */
    @GetMapping(value = "/stuck")
    public List<OrderView> stuck() {
        return orders.stuckSince(Duration.ofHours(1));
    }
}
