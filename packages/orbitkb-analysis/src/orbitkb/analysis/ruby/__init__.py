"""Ruby analyzer: Rails routes.rb, Sinatra and Grape routes; Net::HTTP, Faraday, HTTParty,
RestClient calls; Sidekiq/Sneakers jobs, Bunny and Kafka (ruby-kafka, rdkafka, Karafka)
messaging; ActiveRecord, Mongoid and Sequel models."""

from orbitkb.analysis.ruby.analyzer import RubyAnalyzer

ANALYZER = RubyAnalyzer()

__all__ = ["ANALYZER", "RubyAnalyzer"]
