package com.shopfront.orders.api;

/** URL prefixes of the orders API, shared by the controllers. */
public final class ApiPaths {
    public static final String ORDERS = "/api/orders";
    public static final String ADMIN_ORDERS = "/api/admin/orders";

    private ApiPaths() {
    }
}
