"""The small rules of `orbitkb ui`: which hosts are loopback, the exposure warning, the session
token comparison, the URL it prints, and the CLI's port and host options."""

from __future__ import annotations

import pytest

from orbitkb.cli.main import build_parser, main
from orbitkb.ui.security import host_of, new_token, token_matches
from orbitkb.ui.server import exposure_warning, url_of


@pytest.mark.parametrize("header,host", [("127.0.0.1:8765", "127.0.0.1"), ("localhost", "localhost"),
                                         ("[::1]:8765", "::1"), ("::1", "::1"), ("evil.example:80", "evil.example")])
def test_host_of_a_host_header(header: str, host: str) -> None:
    assert host_of(header) == host


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_loopback_serves_without_warning(host: str) -> None:
    assert exposure_warning(host) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::"])
def test_any_other_interface_is_warned_about(host: str) -> None:
    warning = exposure_warning(host)
    assert warning and host in warning and "127.0.0.1" in warning


def test_tokens_are_long_random_and_compared_exactly() -> None:
    a, b = new_token(), new_token()
    assert a != b and len(a) >= 40
    assert token_matches(a, a) and not token_matches(a, b) and not token_matches(a, None)
    assert not token_matches(a, a[:-1]) and not token_matches(a, "")


def test_printed_url_brackets_ipv6() -> None:
    assert url_of("127.0.0.1", 8765) == "http://127.0.0.1:8765/"
    assert url_of("::1", 9000) == "http://[::1]:9000/"


def test_ui_subcommand_defaults_to_loopback() -> None:
    args = build_parser().parse_args(["ui"])
    assert (args.host, args.port, args.open) == ("127.0.0.1", 8765, False)
    args = build_parser().parse_args(["ui", "--host", "0.0.0.0", "--port", "9000", "--open"])
    assert (args.host, args.port, args.open) == ("0.0.0.0", 9000, True)


@pytest.mark.parametrize("port", ["0", "65536", "http", "-1"])
def test_a_bad_port_is_a_usage_error(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["ui", "--port", port])
    assert exc.value.code == 2 and "port" in capsys.readouterr().err


def test_ui_help_ends_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["ui", "--help"])
    out = capsys.readouterr().out
    assert "127.0.0.1" in out and "orbitkb ui --db" in out


@pytest.mark.parametrize("port", ["0", "70000", "x"])
def test_the_standalone_command_checks_its_port_too(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    from orbitkb.ui.server import parse_args

    with pytest.raises(SystemExit) as exc:
        parse_args(["--port", port])
    assert exc.value.code == 2 and "port" in capsys.readouterr().err
