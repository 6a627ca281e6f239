package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

func (s *server) routes() http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.RequestID, middleware.Recoverer)

	r.Get("/healthz", healthz)
	r.Route("/api/notifications", func(r chi.Router) {
		r.Get("/", s.listRecent)
		r.Post("/test", s.sendTest)
		r.Get("/{id}", s.getOne)
	})
	return r
}
