// Package grpcserver implements shopfront.inventory.v1.InventoryService.
package grpcserver

import (
	"context"

	inventoryv1 "github.com/shopfront/proto/gen/go/inventory/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/shopfront/inventory/internal/store"
)

// InventoryServer serves stock levels and reservations over gRPC.
type InventoryServer struct {
	inventoryv1.UnimplementedInventoryServiceServer
	store *store.Store
}

// Register attaches the inventory service to a gRPC server.
func Register(s *grpc.Server, st *store.Store) {
	inventoryv1.RegisterInventoryServiceServer(s, &InventoryServer{store: st})
}

// GetStock returns the stock level of one SKU.
func (s *InventoryServer) GetStock(ctx context.Context, req *inventoryv1.GetStockRequest) (*inventoryv1.StockLevel, error) {
	item, err := s.store.Get(ctx, req.GetSku())
	if err != nil {
		return nil, status.Errorf(codes.NotFound, "sku %s: %v", req.GetSku(), err)
	}
	return &inventoryv1.StockLevel{Sku: item.SKU, OnHand: int32(item.OnHand), Reserved: int32(item.Reserved)}, nil
}

// ReserveStock holds stock for every line of an order, or nothing if any line is short.
func (s *InventoryServer) ReserveStock(ctx context.Context, req *inventoryv1.ReserveStockRequest) (*inventoryv1.Reservation, error) {
	lines := make(map[string]int, len(req.GetLines()))
	for _, l := range req.GetLines() {
		lines[l.GetSku()] += int(l.GetQuantity())
	}
	ok, err := s.store.Reserve(ctx, req.GetOrderId(), lines)
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	if !ok {
		return &inventoryv1.Reservation{OrderId: req.GetOrderId(), Status: "REJECTED"}, nil
	}
	return &inventoryv1.Reservation{OrderId: req.GetOrderId(), Status: "HELD"}, nil
}

// ReleaseReservation returns the stock held for a cancelled order.
func (s *InventoryServer) ReleaseReservation(ctx context.Context, req *inventoryv1.ReleaseReservationRequest) (*inventoryv1.Reservation, error) {
	if err := s.store.Release(ctx, req.GetOrderId()); err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	return &inventoryv1.Reservation{OrderId: req.GetOrderId(), Status: "RELEASED"}, nil
}
