package com.shopfront.orders.service;

import com.shopfront.orders.api.OrderDtos.CreateOrderRequest;
import com.shopfront.orders.api.OrderDtos.OrderLineView;
import com.shopfront.orders.api.OrderDtos.OrderView;
import com.shopfront.orders.clients.CatalogClient;
import com.shopfront.orders.clients.InventoryGrpcClient;
import com.shopfront.orders.clients.PaymentsClient;
import com.shopfront.orders.clients.PaymentsClient.AuthorizePaymentRequest;
import com.shopfront.orders.domain.Order;
import com.shopfront.orders.domain.OrderLine;
import com.shopfront.orders.domain.OrderRepository;
import com.shopfront.orders.domain.OrderStatus;
import com.shopfront.orders.messaging.OrderEventPublisher;
import com.shopfront.orders.messaging.ShippingRequestPublisher;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.server.ResponseStatusException;

/** Order use cases. Controllers and listeners stay thin; everything happens here. */
@Service
public class OrderService {

    private final OrderRepository repository;
    private final CatalogClient catalog;
    private final InventoryGrpcClient inventory;
    private final PaymentsClient payments;
    private final OrderEventPublisher events;
    private final ShippingRequestPublisher shipping;

    public OrderService(OrderRepository repository, CatalogClient catalog, InventoryGrpcClient inventory,
                        PaymentsClient payments, OrderEventPublisher events, ShippingRequestPublisher shipping) {
        this.repository = repository;
        this.catalog = catalog;
        this.inventory = inventory;
        this.payments = payments;
        this.events = events;
        this.shipping = shipping;
    }

    @Transactional
    public OrderView place(CreateOrderRequest request) {
        Order order = new Order();
        order.setCustomerId(request.customerId());
        request.lines().forEach(l -> {
            long price = catalog.product(l.productId()).price_cents();
            order.addLine(new OrderLine(l.productId(), l.sku(), l.quantity(), price));
        });
        repository.save(order);
        Map<String, Integer> bySku = order.getLines().stream()
            .collect(Collectors.toMap(OrderLine::getSku, OrderLine::getQuantity, Integer::sum));
        if (!inventory.reserve(order.getId().toString(), bySku)) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, "out of stock");
        }
        var payment = payments.authorize(new AuthorizePaymentRequest(order.getId().toString(), request.paymentMethodId()));
        order.setPaymentId(payment.id());
        events.orderCreated(order);
        return view(order);
    }

    @Transactional
    public void markPaid(long orderId, String paymentId) {
        Order order = find(orderId);
        if (order.getStatus() != OrderStatus.PENDING_PAYMENT) {
            return;
        }
        var payment = payments.get(paymentId);
        if (!"succeeded".equals(payment.status())) {
            return;
        }
        order.setStatus(OrderStatus.PAID);
        shipping.requestShipment(order);
        order.setStatus(OrderStatus.SHIPPING);
    }

    @Transactional
    public OrderView cancel(long orderId) {
        Order order = find(orderId);
        if (order.getStatus() == OrderStatus.SHIPPED) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, "already shipped");
        }
        order.setStatus(OrderStatus.CANCELLED);
        inventory.release(order.getId().toString());
        events.orderCancelled(order);
        return view(order);
    }

    @Transactional
    public OrderView forceStatus(long orderId, String status, String reason) {
        Order order = find(orderId);
        order.setStatus(OrderStatus.valueOf(status));
        return view(order);
    }

    public OrderView get(long orderId) {
        return view(find(orderId));
    }

    public List<OrderView> forCustomer(long customerId) {
        return repository.findByCustomerIdOrderByCreatedAtDesc(customerId).stream().map(this::view).toList();
    }

    public List<OrderLineView> lines(long orderId) {
        return find(orderId).getLines().stream()
            .map(l -> new OrderLineView(l.getSku(), l.getQuantity(), l.getPriceCents()))
            .toList();
    }

    public List<OrderView> stuckSince(Duration age) {
        return repository.findByStatusAndCreatedAtBefore(OrderStatus.PENDING_PAYMENT, Instant.now().minus(age))
            .stream().map(this::view).toList();
    }

    private Order find(long orderId) {
        return repository.findById(orderId)
            .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "order " + orderId));
    }

    private OrderView view(Order order) {
        return new OrderView(order.getId(), order.getCustomerId(), order.getStatus().name(), order.getTotalCents(),
            order.getCurrency(), order.getPaymentId(), order.getCreatedAt());
    }
}
