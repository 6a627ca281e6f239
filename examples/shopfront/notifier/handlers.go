package main

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"
)

const recentKey = "notifications:recent"

// healthz is the liveness probe.
func healthz(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte(`{"status":"ok"}`))
}

// listRecent returns the last 100 e-mails sent, newest first.
func (s *server) listRecent(w http.ResponseWriter, r *http.Request) {
	items, err := s.rdb.LRange(r.Context(), recentKey, 0, 99).Result()
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	writeJSON(w, items)
}

// getOne returns one sent e-mail by its id.
func (s *server) getOne(w http.ResponseWriter, r *http.Request) {
	raw, err := s.rdb.Get(r.Context(), "notifications:item:"+chi.URLParam(r, "id")).Result()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(raw))
}

// sendTest sends a test e-mail to the address in the body, to check the SendGrid setup.
func (s *server) sendTest(w http.ResponseWriter, r *http.Request) {
	var body struct {
		To string `json:"to"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.To == "" {
		http.Error(w, "body must be {\"to\": \"address\"}", http.StatusBadRequest)
		return
	}
	if err := sendEmail(r.Context(), body.To, "shopfront test", "It works."); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
