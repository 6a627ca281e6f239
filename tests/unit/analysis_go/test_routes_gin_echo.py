"""gin and echo routes: groups nested and composed across functions and packages, middleware."""

from __future__ import annotations

from .helpers import link, routes

GIN_MAIN = """
package main

import (
	"github.com/gin-gonic/gin"

	"example.com/shop/orders/internal/api"
	"example.com/shop/orders/internal/handler"
)

const apiPrefix = "/api"

func main() {
	engine := gin.New()
	engine.Use(gin.Logger())
	root := engine.Group(apiPrefix)
	h := handler.NewOrderHandler()
	api.Register(root.Group("/v1"), h)
	engine.GET("/healthz", func(c *gin.Context) {
		c.String(200, "ok")
	})
	engine.Run()
}
"""

GIN_API = """
package api

import (
	"github.com/gin-gonic/gin"

	"example.com/shop/orders/internal/handler"
)

// Register mounts the order routes.
func Register(rg *gin.RouterGroup, h *handler.OrderHandler) {
	orders := rg.Group("/orders")
	{
		orders.GET("", h.List)
		orders.POST("/", authRequired(), h.Create)
		orders.GET("/:id", h.Get)
		orders.Handle("DELETE", "/:id", h.Delete)
		orders.Any("/echo", h.Echo)
	}
	admin(rg)
}

func admin(rg *gin.RouterGroup) {
	adm := rg.Group("/admin")
	adm.PUT("/orders/:id/status", UpdateStatus)
}

// UpdateStatus changes an order's status.
func UpdateStatus(c *gin.Context) {}

func authRequired() gin.HandlerFunc { return func(c *gin.Context) { c.Next() } }
"""

GIN_HANDLER = """
package handler

import "github.com/gin-gonic/gin"

type OrderHandler struct{}

func NewOrderHandler() *OrderHandler { return &OrderHandler{} }

// List returns all orders.
func (h *OrderHandler) List(c *gin.Context) {}

func (h *OrderHandler) Create(c *gin.Context) {}

func (h *OrderHandler) Get(c *gin.Context) {}

func (h *OrderHandler) Delete(c *gin.Context) {}

func (h *OrderHandler) Echo(c *gin.Context) {}
"""


def test_gin_groups_compose_across_functions_and_packages() -> None:
    facts = link(
        {
            "orders/cmd/server/main.go": GIN_MAIN,
            "orders/internal/api/routes.go": GIN_API,
            "orders/internal/handler/order.go": GIN_HANDLER,
        }
    )
    assert routes(facts) == [
        ("ANY", "/api/v1/orders/echo", "OrderHandler.Echo", 18),
        ("DELETE", "/api/v1/orders/:id", "OrderHandler.Delete", 16),
        ("GET", "/api/v1/orders", "OrderHandler.List", 10),
        ("GET", "/api/v1/orders/:id", "OrderHandler.Get", 14),
        ("GET", "/healthz", "<anonymous>@18", 18),
        ("POST", "/api/v1/orders", "OrderHandler.Create", 12),
        ("PUT", "/api/v1/admin/orders/:id/status", "UpdateStatus", 28),
    ]
    by_handler = {a.handler: a for a in facts.apis}
    assert by_handler["OrderHandler.List"].doc == "List returns all orders."
    assert by_handler["UpdateStatus"].doc == "UpdateStatus changes an order's status."
    assert by_handler["UpdateStatus"].component == "routes"
    assert by_handler["OrderHandler.Get"].component == "OrderHandler"
    assert by_handler["<anonymous>@18"].file == "orders/cmd/server/main.go"
    assert {a.framework for a in facts.apis} == {"gin"}
    assert facts.framework == "gin"
    comps = {c.name: c.kind for c in facts.components}
    assert comps == {"OrderHandler": "class", "main": "module", "routes": "module"}


def test_gin_router_built_in_a_constructor_and_struct_field() -> None:
    src = """
    package server

    import (
        "net/http"

        "github.com/gin-gonic/gin"
    )

    type Server struct {
        router *gin.Engine
    }

    func NewServer() *Server {
        s := &Server{router: gin.Default()}
        s.routes()
        return s
    }

    func (s *Server) routes() {
        v2 := s.router.Group("v2")
        v2.GET("/items/:sku", s.getItem)
        s.router.Handle(http.MethodPost, "/items", s.createItem)
    }

    func (s *Server) getItem(c *gin.Context) {}

    func (s *Server) createItem(c *gin.Context) {}
    """
    facts = link({"svc/server.go": src})
    assert routes(facts) == [
        ("GET", "/v2/items/:sku", "Server.getItem", 25),
        ("POST", "/items", "Server.createItem", 27),
    ]


ECHO = """
package main

import (
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

type UserController struct{ svc *Service }

func main() {
	e := echo.New()
	e.Use(middleware.Logger())
	uc := &UserController{}
	g := e.Group("/api/users", middleware.JWT([]byte("k")))
	g.GET("", uc.List)
	g.GET("/:id", uc.Get, cacheFor(30))
	g.Match([]string{"PUT", "PATCH"}, "/:id", uc.Update)
	e.Add("OPTIONS", "/api/users", uc.Options)
	mountAdmin(e.Group("/admin"))
	e.Logger.Fatal(e.Start(":1323"))
}

func mountAdmin(g *echo.Group) {
	g.DELETE("/users/:id", deleteUser)
}

func deleteUser(c echo.Context) error { return nil }

func (u *UserController) List(c echo.Context) error    { return nil }
func (u *UserController) Get(c echo.Context) error     { return nil }
func (u *UserController) Update(c echo.Context) error  { return nil }
func (u *UserController) Options(c echo.Context) error { return nil }
func cacheFor(s int) echo.MiddlewareFunc               { return nil }
"""


def test_echo_groups_match_and_handler_first() -> None:
    facts = link({"users/main.go": ECHO})
    assert routes(facts) == [
        ("DELETE", "/admin/users/:id", "deleteUser", 27),
        ("GET", "/api/users", "UserController.List", 29),
        ("GET", "/api/users/:id", "UserController.Get", 30),
        ("OPTIONS", "/api/users", "UserController.Options", 32),
        ("PATCH", "/api/users/:id", "UserController.Update", 31),
        ("PUT", "/api/users/:id", "UserController.Update", 31),
    ]
    assert facts.framework == "echo"
