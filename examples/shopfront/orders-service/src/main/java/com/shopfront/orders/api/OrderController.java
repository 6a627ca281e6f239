package com.shopfront.orders.api;

import com.shopfront.orders.api.OrderDtos.CreateOrderRequest;
import com.shopfront.orders.api.OrderDtos.OrderLineView;
import com.shopfront.orders.api.OrderDtos.OrderView;
import com.shopfront.orders.service.OrderService;
import jakarta.validation.Valid;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(ApiPaths.ORDERS)
public class OrderController {

    private final OrderService orders;

    public OrderController(OrderService orders) {
        this.orders = orders;
    }

    /**
     * Lists the orders of one customer, newest first.
     */
    @GetMapping
    public List<OrderView> list(@RequestParam("customerId") long customerId) {
        return orders.forCustomer(customerId);
    }

    /**
     * Returns one order with its total and payment reference.
     */
    @GetMapping("/{id}")
    public OrderView get(@PathVariable long id) {
        return orders.get(id);
    }

    /**
     * Places an order: prices it against the catalog, reserves the stock in inventory,
     * has payments authorize the card, and publishes orders.created.
     */
    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    public OrderView create(@Valid @RequestBody CreateOrderRequest request) {
        return orders.place(request);
    }

    /**
     * Cancels an order that has not shipped yet. Stock is released at once; the refund
     * happens asynchronously when payments consumes orders.cancelled.
     */
    @PostMapping("/{id}/cancel")
    public OrderView cancel(@PathVariable long id) {
        return orders.cancel(id);
    }

    /**
     * Lists the lines of one order.
     */
    @RequestMapping(value = "/{id}/lines", method = RequestMethod.GET)
    public List<OrderLineView> lines(@PathVariable long id) {
        return orders.lines(id);
    }
}
