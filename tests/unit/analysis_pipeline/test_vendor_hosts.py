"""Vendor rows: a host resolves to the most specific vendor listed, and unknown hosts to none."""

from __future__ import annotations

import pytest

from orbitkb.domain.integrations import find_vendor


@pytest.mark.parametrize(
    ("target", "vendor"),
    [
        ("smtp.gmail.com:587", "Gmail"),
        ("https://gmail.googleapis.com/gmail/v1/users/me/messages/send", "Gmail"),
        ("https://generativelanguage.googleapis.com/v1beta/models", "Google Gemini API"),
        ("https://aiplatform.googleapis.com/v1/projects/x", "Google Vertex AI"),
        ("https://us-central1-aiplatform.googleapis.com/v1/x", "Google APIs"),  # regional: the family
        ("https://storage.googleapis.com/bucket/o", "Google Cloud Storage"),
        ("https://secretmanager.googleapis.com/v1/x", "Google APIs"),
        ("https://acme.openai.azure.com/openai/deployments/x", "Azure OpenAI"),
        ("https://api.openai.com/v1/chat/completions", "OpenAI API"),
        ("https://api.mistral.ai/v1/chat/completions", "Mistral AI"),
        ("https://api.telegram.org/bot123/sendMessage", "Telegram Bot API"),
        ("https://api.razorpay.com/v1/orders", "Razorpay"),
    ],
)
def test_hosts_resolve_to_the_most_specific_vendor(target: str, vendor: str) -> None:
    found = find_vendor(target)
    assert found is not None and found.name == vendor


@pytest.mark.parametrize("target", ["https://notgmail.com/x", "http://payments:8080/pay", "https://mistral.example.org"])
def test_lookalike_and_internal_hosts_are_no_vendor(target: str) -> None:
    assert find_vendor(target) is None
