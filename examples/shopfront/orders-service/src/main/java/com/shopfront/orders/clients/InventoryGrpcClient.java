package com.shopfront.orders.clients;

import com.shopfront.proto.inventory.v1.InventoryServiceGrpc;
import com.shopfront.proto.inventory.v1.ReleaseReservationRequest;
import com.shopfront.proto.inventory.v1.ReservationLine;
import com.shopfront.proto.inventory.v1.ReserveStockRequest;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/** Stock reservations in the inventory service, over gRPC. */
@Component
public class InventoryGrpcClient {

    private final InventoryServiceGrpc.InventoryServiceBlockingStub stub;

    public InventoryGrpcClient(@Value("${grpc.inventory.address}") String address) {
        ManagedChannel channel = ManagedChannelBuilder.forTarget(address).usePlaintext().build();
        this.stub = InventoryServiceGrpc.newBlockingStub(channel);
    }

    /** Holds stock for every line; false when any SKU is short. */
    public boolean reserve(String orderId, Map<String, Integer> quantitiesBySku) {
        ReserveStockRequest.Builder request = ReserveStockRequest.newBuilder().setOrderId(orderId);
        quantitiesBySku.forEach((sku, qty) -> request.addLines(ReservationLine.newBuilder().setSku(sku).setQuantity(qty)));
        return "HELD".equals(stub.withDeadlineAfter(2, TimeUnit.SECONDS).reserveStock(request.build()).getStatus());
    }

    public void release(String orderId) {
        ReleaseReservationRequest request = ReleaseReservationRequest.newBuilder().setOrderId(orderId).build();
        stub.withDeadlineAfter(2, TimeUnit.SECONDS).releaseReservation(request);
    }
}
