"""appsettings.json read as .NET configuration: ``:``-joined keys with lines, comments and
trailing commas tolerated, the environment in the file name as the profile, bad JSON an error."""

from __future__ import annotations

from orbitkb.analysis.config.dotnet import env_names, is_appsettings, read_appsettings

TEXT = """{
  // defaults for a developer machine
  "ConnectionStrings": { "Orders": "Host=db;Database=orders" },
  "Hosts": ["a", "b"],
  "Feature": { "Enabled": true, "Limit": 3, },
}
"""


def test_keys_are_flattened_with_colons_and_lines() -> None:
    docs, error = read_appsettings("svc/appsettings.json", TEXT)
    assert error is None and len(docs) == 1 and docs[0].profile is None
    props = {k: (v.value, v.line) for k, v in docs[0].props.items()}
    assert props == {
        "ConnectionStrings:Orders": ("Host=db;Database=orders", 3),
        "Hosts:0": ("a", 4),
        "Hosts:1": ("b", 4),
        "Feature:Enabled": ("true", 5),
        "Feature:Limit": ("3", 5),
    }


def test_the_environment_in_the_name_is_the_profile() -> None:
    docs, _ = read_appsettings("svc/appsettings.Staging.json", '{"A": {"B": "x"}}')
    assert docs[0].profile == "Staging" and docs[0].props["A:B"].value == "x"


def test_invalid_json_is_an_error_not_a_crash() -> None:
    docs, error = read_appsettings("svc/appsettings.json", '{"A": ')
    assert docs == [] and error is not None and error.startswith("invalid JSON")


def test_which_files_and_which_environment_names() -> None:
    assert is_appsettings("a/appsettings.json") and is_appsettings("appsettings.Development.json")
    assert not is_appsettings("a/settings.json") and not is_appsettings("a/appsettings.yaml")
    assert env_names("Upstreams:Stock") == ("upstreams:stock", "upstreams__stock")
    assert env_names("PurchaseUrl") == ("purchaseurl",)
