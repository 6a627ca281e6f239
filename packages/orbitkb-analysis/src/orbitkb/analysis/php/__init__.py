"""PHP analyzer: Laravel/Lumen, Symfony (attributes and annotations) and Slim routes; Guzzle,
Laravel Http and curl calls; php-amqplib, Laravel queues and Redis messaging; Eloquent, Doctrine
and PDO (SQL text) persistence."""

from orbitkb.analysis.php.analyzer import PhpAnalyzer

ANALYZER = PhpAnalyzer()

__all__ = ["ANALYZER", "PhpAnalyzer"]
