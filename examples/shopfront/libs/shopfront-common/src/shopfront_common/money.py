"""Money as integer cents: no floats anywhere near a price."""

from dataclasses import dataclass

_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}


@dataclass(frozen=True)
class Money:
    cents: int
    currency: str = "EUR"

    def __add__(self, other: "Money") -> "Money":
        if other.currency != self.currency:
            raise ValueError(f"cannot add {other.currency} to {self.currency}")
        return Money(self.cents + other.cents, self.currency)

    def times(self, quantity: int) -> "Money":
        return Money(self.cents * quantity, self.currency)


def format_cents(cents: int, currency: str = "EUR") -> str:
    """1999, "EUR" -> "€19.99"."""
    symbol = _SYMBOLS.get(currency, currency + " ")
    return f"{symbol}{cents // 100}.{cents % 100:02d}"
